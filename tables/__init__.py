"""Tables: lobbies that become games, and the live play at them.

``models`` holds ``Table``, ``Seat``, ``TableInvite``, ``DismissalVote``, ``DealCommitment``,
``Rematch`` and its answers, quick play's tables and choices, and ``SeatAddress`` (RULING P72).
``services`` is every write, one module per part of a table's life; ``selectors`` every read the
pages and the render make (``selectors.snapshot``: what a live view is made of); ``render`` the
table's fragment for each viewer; ``live`` the table's socket only; ``views`` (with ``forms``
and ``urls``) the lobby, the table page and its invitations; ``tasks`` the Celery tasks (bot
turns, clock expiry and sweep, vote timeouts, idle lobbies, lost work, "your turn" notices).
``events`` holds the write side's after-commit events, typed, handed to the one outbox
(``core.outbox``), and ``delivery`` (wired in ``TablesConfig.ready``) where they go: the table's
group, a user's sockets, the tasks and this process's caches.

Beside them: ``matchstore`` (a match's row as a move holds it: the lock, the move's one
statement, the parsed states each process keeps), ``moves`` (a move's ``MatchEvent``), ``clock``
(the turn clock's pure deadline arithmetic, ``now`` passed in), ``botplay`` (seeded bot
choices), ``hints`` (practice tables' hints, docs/reviews.md), ``held_seats`` (a rematch's kept
seats), ``turn_notice_queue`` (one queued "your turn" check per match, RULING P74),
``lobby_slots`` (the lobby's sections from the apps above), ``signals`` (what a table's life
tells the apps above it), ``personal_data`` (RULINGS P23, P55), ``caching`` (one bounded cache)
and ``errors``.

Inside tables there is no import cycle and no waiver (``.importlinter``): the services hand
their after-commit work to the outbox, which imports no app; fair deals, privacy, invitations,
turn notices and seat addresses each have their writes in ``services`` and reads in
``selectors`` (same module names); ``tasks`` imports the
services at the top, and ``delivery`` imports the tasks and ``live.broadcast``. Only the
socket's commands, the views, the admin, the tasks, the account deletion's registration and the
tournaments call the services, and only the services call ``services.steps`` and
``services.handoff``; the render reads through the selectors and imports nothing of the write
side.
"""
