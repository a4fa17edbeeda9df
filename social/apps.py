from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Friends and blocks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.export import section_add
        from notifications.gates import gate_add
        from social.selectors import blocked_either_way, social_export

        section_add("friends", social_export)  # RULING P55: the player's own data
        # RULING P67: nobody is notified by someone they blocked or who blocked them.
        gate_add("blocks", blocked_either_way)
