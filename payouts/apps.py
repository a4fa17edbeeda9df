from django.apps import AppConfig


class PayoutsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "payouts"
    verbose_name = "Coins and game passes"

    def ready(self) -> None:
        from payouts import signals  # noqa: F401  (connects the signup grant)
