from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from accounts.export import account_export
        from accounts.personal_data import PersonalData, register
        from accounts.services import account_rows_erase

        # RULINGS P23, P55: the account's own fields are anonymised by accounts/services.py.
        register(
            PersonalData(
                "account",
                models=("account.EmailAddress", "accounts.User_groups", "accounts.User_user_permissions"),
                export=account_export,
                erase=account_rows_erase,
            )
        )
        register(
            PersonalData(
                "admin_log",
                models=("admin.LogEntry",),
                kept="The admin log says who did what, a deletion too (RULING P19); it names the anonymous account.",
            )
        )
