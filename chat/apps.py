from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = "Table chat"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.export import section_add
        from chat.selectors import chat_export, muted_actor
        from notifications.gates import gate_add

        section_add("chat", chat_export)  # RULING P55: the player's own data export
        # RULING P67: a player who muted someone is not notified by them (a friend request, an invite).
        gate_add("personal mutes", muted_actor)
