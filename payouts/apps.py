from django.apps import AppConfig


class PayoutsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "payouts"
    verbose_name = "Coins and game passes"

    def ready(self) -> None:
        from accounts.export import section_add
        from payouts import signals  # noqa: F401  (connects the signup grant)
        from payouts.selectors import ledger_export

        section_add("ledger", ledger_export)  # RULING P55: the player's own data export
