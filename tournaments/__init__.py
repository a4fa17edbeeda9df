"""Tournaments and monthly seasons (RULINGS P77–P85), the highest app below ``pages``.

``models`` holds ``Tournament``, ``Entry``, ``Round``, ``RoundTable``, ``Sitting``, ``Season``
and ``SeasonPlace``; ``services`` every write (creation, sign-up and withdrawal, the start,
rounds, scoring, cancellation, disqualification, re-seating, and the seasons' monthly freeze),
``pot`` the tournament's coins and passes on payouts' generic operations (the pot is an account
of the tournament as owner), ``selectors`` the reads of the pages and the socket (standings, each
game's monthly ladder); ``pairing`` the pure seating, Swiss regrouping, points, standings and
prize split. ``events`` holds the typed events handed to the outbox (the page's sockets, the
tasks), ``notices``
the bell's tournament notices, ``receivers`` hears a round table's finished game
(``tables.signals``), ``tasks`` the Celery tasks (start, round tables, checks, sweep, seasons).
``consumer`` and ``routing`` are the page's socket (live standings and rounds, RULING P78);
``views``, ``forms``, ``urls`` and ``templatetags`` the pages; ``lobby`` the lobby's "Next
tournaments" slot (``tables.lobby_slots``).
"""
