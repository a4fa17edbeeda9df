"""Tournaments and monthly seasons (RULINGS P77–P85), the highest app below ``pages``.

``models`` holds ``Tournament``, ``Entry``, ``Round``, ``RoundTable``, ``Sitting``, ``Season``
and ``SeasonPlace``; ``services`` every write (creation, sign-up and withdrawal, the start,
rounds, scoring, the payout, cancellation, disqualification and re-seating), ``selectors`` the
reads of the pages and the socket; ``pairing`` the pure seating, Swiss regrouping, points,
standings and prize split; ``seasons`` each game's monthly ladder, frozen when the month ends.
``events`` tells the tournament page's sockets and its players' bells after commit, ``notices``
the bell's tournament notices, ``receivers`` hears a round table's finished game
(``tables.signals``), ``tasks`` the Celery tasks (start, round tables, checks, sweep, seasons).
``consumer`` and ``routing`` are the page's socket (live standings and rounds, RULING P78);
``views``, ``forms``, ``urls`` and ``templatetags`` the pages; ``lobby`` the lobby's "Next
tournaments" slot (``tables.lobby_slots``).
"""
