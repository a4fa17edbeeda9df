"""What several apps share, at the bottom of the layers (docs/design.md, "Apps and folders").

Nothing here imports an app of the site: the language of a request or a render (``i18n``), the
viewer's time zone (``time_zones``), a client's address, for requests and sockets, behind the
``DJANGO_BEHIND_PROXY`` proxies (``addresses``), the admin's shared helpers (``admin_tools``: the
page that asks why, RULING P19, ``ReasonedAdmin``, the read-only bases), a dead database connection retried
(``connections``), the name of every socket group (``groups``), the Redis clients (``redis``:
one per event loop, one per process) and the limits counted there (``limits``), the sockets'
one read per process of a change (``fanout``) and their dispatch (``sockets``), the metrics
and structured logs (``metrics``: Prometheus, multi-process; ``logs``: one JSON line per
request, command and task), and the one after-commit outbox every app's writes hand their
events to (``outbox``).
"""
