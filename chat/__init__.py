"""Table chat (docs/chat.md; RULINGS P25–P29), between ``tables`` above and ``payouts`` below.

``models`` holds ``ChatMessage`` (append-only: a trigger refuses every edit but hiding it once),
``ChatReport``, ``ChatMute`` (site-wide), ``PersonalMute`` and ``ChatRoom`` (the host's switch),
and reads a table's rows through the app registry (``table_model``), never by importing
``tables``. ``rules`` is who sees and who writes which room, the limits and cleaning a text;
``services`` every write (moderation writes an admin ``LogEntry``), ``selectors`` a viewer's
panel and a finished game's chat; ``broadcast`` the events on the table's channel-layer group,
sent after commit. ``admin`` is the moderation (reported messages first), ``templatetags`` a
finished game's chat on its page. The socket half is the table's socket's: ``tables.live.chat``.
"""
