from django.apps import AppConfig


class AwayConfig(AppConfig):
    """The away channels' own parts: Web Push devices and sending, the e-mail unsubscribe pages."""

    name = "away"
    verbose_name = "Web Push"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from away import push
        from notifications import current, delivery, kinds

        delivery.channel_add(push.deliver)
        # RULING P74: a friend request withdrawn or answered meanwhile is not sent.
        current.check_add(kinds.FRIEND_REQUEST, push.friend_request_current)
