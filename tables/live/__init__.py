"""The table's socket, and only the socket (its render is ``tables.render``).

``consumer`` is the thin consumer (docs/style.md §9), ``routing`` its route, ``messages`` what a
client may send, ``commands`` the one module here that calls the services, ``chat`` the chat on
the same socket, ``guard`` fair use (frame checks, rate limits, the session check) with
``limits`` (token buckets kept in Redis, shared by every process), ``presence`` who is connected
(RULING S11), ``fanout`` one read and one render per process for a change every socket hears,
``broadcast`` the table's group events, ``sessions`` (a login's end heard at once, RULING P18),
``layer_watch`` (the whole view again after the layer's Redis restarts, RULING P37), ``observe``
(a command's metrics and log line).
"""
