from django.apps import AppConfig


class PayoutsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "payouts"
    verbose_name = "Coins and game passes"

    def ready(self) -> None:
        from accounts.personal_data import PersonalData, register
        from payouts import signals  # noqa: F401  (connects the signup grant)
        from payouts.selectors import ledger_export

        # RULINGS P7, P23, P55: in the player's data; never changed, not even by a deletion.
        register(
            PersonalData(
                "ledger",
                models=("payouts.Account", "payouts.Transfer"),
                export=ledger_export,
                kept="Ledger rows are append-only and must keep summing to zero (RULINGS P7, P23).",
            )
        )
