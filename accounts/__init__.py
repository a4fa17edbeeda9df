"""Players' accounts, the lowest app but ``core``: who a player is and what the site keeps of them.

``models`` holds the custom ``User`` (from the first migration; bots are users with ``is_bot``,
RULING P1, with their level), the player's language, time zone, suit colours and who sees their
reviews; ``bots`` the bot accounts and their names (the levels are ``BOT_LEVELS``, alone).
``services`` is every write (an account deleted by anonymising it, by an admin or by the player,
RULINGS P23, P55; the language chosen), ``selectors`` the reads. ``names`` is what a name may be
and how one is shown (UTS #39 skeletons, the one ``<bdi>`` filter, RULING P54), also as the
``names`` template tags. ``personal_data`` is what every app keeps about a player: each app
registers its models from its ``ready()``, each with its export and its erase or why it is kept;
the export (``export``: a player's data as JSON) and the deletion both read it (RULINGS P23,
P55). ``adapters`` customises allauth (docs/style.md §11), ``sessions`` is the session store
that remembers key rotations (RULING P58), ``requests`` types the requests the views take;
``views``, ``forms`` and ``urls`` are the profile, language, data and deletion pages.
"""
