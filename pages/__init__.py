"""The site's own pages: the rules, terms and privacy rendered from docs/, friends, the app.

``docs`` renders the Markdown of ``docs/`` (the one source of the rules, RULING P20) in the
reader's language, card codes drawn as the table draws them; ``views`` serves the rules, terms
and privacy pages from it. ``friends`` is the friends page (requests, friends with where each
one is, blocks) and the lobby's friends online, which read tables; ``pwa`` the installable app
(the manifest, the service worker at ``/sw.js``, which keeps static files and the player's own
offline page only, and that page). ``management`` holds ``makemessages``, which also reads the
Jinja2 live fragments.
"""
