from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.export import section_add
        from notifications import delivery, email
        from notifications.selectors import notifications_export

        section_add("notifications", notifications_export)  # RULING P55: the player's own data
        delivery.channel_add(email.deliver)
