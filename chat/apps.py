from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = "Table chat"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.export import section_add
        from chat.selectors import chat_export

        section_add("chat", chat_export)  # RULING P55: the player's own data export
