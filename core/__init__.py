"""What several apps share, at the bottom of the layers (docs/design.md, "Apps and folders").

Nothing here imports an app of the site: the language of a request or a render (``i18n``), a
client's address behind the proxies (``addresses``), the admin's shared helpers
(``admin_tools``), a dead database connection retried (``connections``), the name of a
table's channel-layer group (``groups``), the metrics and structured logs (``metrics``,
``logs``), and the one after-commit outbox every app's writes hand their events to (``outbox``).
"""
