from django.apps import AppConfig


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"

    def ready(self) -> None:
        from notifications import current, kinds
        from tables import turn_notices
        from tables.live import sessions  # noqa: F401  (closes table sockets when a login ends)

        current.check_add(kinds.YOUR_TURN, turn_notices.current)  # RULING P74: checked again at send time
