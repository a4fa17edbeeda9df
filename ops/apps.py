from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Running the site: the integrity check, metrics, JSON logs (issue 28)."""

    name = "ops"

    def ready(self) -> None:
        from ops import signals  # noqa: F401  (connects the ledger and Celery hooks)
