from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = "Table chat"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.personal_data import PersonalData, register
        from chat import broadcast
        from chat.events import ChatChanged, MessageHidden, MessagePosted, MuteChanged
        from chat.selectors import chat_export, muted_actor
        from chat.services import personal_mutes_erase
        from core import outbox
        from notifications.gates import gate_add
        from social.events import BlockChanged

        # Where the chat writes' events go after commit (core/outbox.py): the table's and the player's sockets.
        outbox.handle(MessagePosted, broadcast.message_posted)
        outbox.handle(MessageHidden, broadcast.message_hidden)
        outbox.handle(ChatChanged, broadcast.chat_changed)
        outbox.handle(MuteChanged, broadcast.mute_changed)
        # RULING P67: a block reaches the chat panels, which are chat's: social cannot import it.
        outbox.handle(BlockChanged, broadcast.block_changed)

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
