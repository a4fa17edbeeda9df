"""What several apps share, at the bottom of the layers (docs/design.md, "Apps and folders").

Nothing here imports an app of the site: the language of a request or a render (``i18n``), a
client's address behind the proxies (``addresses``), the admin's shared helpers
(``admin_tools``), a dead database connection retried (``connections``), the name of every
socket group (``groups``), the Redis clients (``redis``) and the limits counted there
(``limits``), the sockets' one read per process of a change (``fanout``) and their dispatch
(``sockets``), and the metrics and structured logs (``metrics``, ``logs``).
"""
