from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = "Table chat"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.personal_data import PersonalData, register
        from chat.selectors import chat_export, muted_actor
        from chat.services import personal_mutes_erase
        from notifications.gates import gate_add

        # RULINGS P23, P55: what the player wrote, reported and muted is in their data; their own
        # mutes go with the account, the messages stay (append-only, RULING P29).
        register(
            PersonalData(
                "chat",
                models=("chat.ChatMessage", "chat.ChatReport", "chat.ChatMute", "chat.PersonalMute"),
                export=chat_export,
                erase=personal_mutes_erase,
                kept=(
                    "Messages are append-only and stay with their game under the anonymous name (RULINGS P23, "
                    "P29); reports and site-wide mutes are moderation's record; other players' mutes of the "
                    "account are theirs."
                ),
            )
        )
        # RULING P67: a player who muted someone is not notified by them (a friend request, an invite).
        gate_add("personal mutes", muted_actor)
