from django.apps import AppConfig


class AwayConfig(AppConfig):
    """The away channels: Web Push (devices and sending) and e-mail (sending, the unsubscribe pages)."""

    name = "away"
    verbose_name = "Web Push"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.personal_data import PersonalData, register
        from away import push, tasks
        from away.selectors import devices_export
        from away.services import devices_erase
        from notifications import current, delivery, kinds

        delivery.channel_add(tasks.email_channel)
        delivery.channel_add(tasks.push_channel)
        # RULING P74: a friend request withdrawn or answered meanwhile is not sent.
        current.check_add(kinds.FRIEND_REQUEST, push.friend_request_current)
        # RULINGS P23, P55: the player's devices, in their data and gone with their account.
        register(PersonalData("devices", models=("away.Device",), export=devices_export, erase=devices_erase))
