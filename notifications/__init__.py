"""Notifications: the one way to tell a player anything, on the site and away from it.

``models`` holds ``Notification``, the per-kind ``Preference`` and ``Sent`` (what the away
channels' hourly limits count, ``services.sent_claim``). ``services.notify`` writes a
notification in its caller's transaction and hands its events (``events``) to the outbox; after
commit the player's sockets are told and a task (``tasks``) hands it once to every away channel
registered in ``delivery`` (e-mail and web push, both from ``away``).
``kinds`` names every kind, ``texts`` says what one says and where it leads in its reader's
language, ``current`` whether it is still true when a channel is about to send it (RULING P74),
``gates`` the checks the apps above register (blocks, mutes) so this app need not know them.
``live`` and
``consumer``/``routing`` are the bell over the player's group ``notify.<id>``: on the table's
socket where the page has one, else the page's own ``/ws/me/``; ``selectors``, ``views`` and
``context_processors`` are the bell's list, the notifications page and the preferences
(docs/social.md).
"""
