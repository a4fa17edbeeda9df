from django.apps import AppConfig


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"

    def ready(self) -> None:
        from tables import delivery
        from tables.live import sessions  # noqa: F401  (closes table sockets when a login ends)

        delivery.connect()  # where the write side's after-commit events go (tables/outbox.py)
