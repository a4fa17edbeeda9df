from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Friends and blocks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.personal_data import PersonalData, register
        from notifications.gates import gate_add
        from social.selectors import blocked_either_way, social_export
        from social.services import social_erase

        # RULINGS P23, P55: in the player's data, and gone (both ways) with their account.
        register(
            PersonalData(
                "friends",
                models=("social.Friendship", "social.FriendRequest", "social.Block"),
                export=social_export,
                erase=social_erase,
            )
        )
        # RULING P67: nobody is notified by someone they blocked or who blocked them.
        gate_add("blocks", lambda recipient_id, actor_id: blocked_either_way(user_id=recipient_id, other_id=actor_id))
