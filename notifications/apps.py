from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.personal_data import PersonalData, register
        from core import outbox
        from notifications import live, tasks
        from notifications.events import BellChanged, DeliveryDue
        from notifications.selectors import notifications_export
        from notifications.services import notifications_erase

        # Where the writes' events go after commit (core/outbox.py): the bell, and the away delivery.
        outbox.handle(BellChanged, live.bell_changed)
        outbox.handle(DeliveryDue, tasks.delivery_due)

        # RULINGS P23, P55: in the player's data, and gone with their account.
        register(
            PersonalData(
                "notifications",
                models=("notifications.Notification", "notifications.Preference", "notifications.Sent"),
                export=notifications_export,
                erase=notifications_erase,
            )
        )
