from functools import partial

from django.apps import AppConfig


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"

    def ready(self) -> None:
        from accounts.personal_data import register
        from notifications import current, kinds
        from social.signals import relation_began, relation_ended
        from tables import delivery, personal_data
        from tables.live import sessions  # noqa: F401  (closes table sockets when a login ends)
        from tables.live.presence import user_connected_now
        from tables.selectors import turn_notices

        delivery.connect()  # where the write side's after-commit events go (tables/events.py)
        # RULINGS P66, P67: a block or an unfriending reaches the open sockets of private tables.
        relation_ended.connect(_relation_changed, dispatch_uid="tables.relation_ended")
        relation_began.connect(_relation_changed, dispatch_uid="tables.relation_began")  # who may sit, again
        # RULING P74: each notice about a table is checked again at send time.
        current.check_add(kinds.YOUR_TURN, partial(turn_notices.current, connected=user_connected_now))
        current.check_add(kinds.TABLE_STARTING, partial(turn_notices.start_current, connected=user_connected_now))
        current.check_add(kinds.INVITE, turn_notices.invite_current)
        for data in personal_data.PERSONAL_DATA:  # RULINGS P23, P55
            register(data)


def _relation_changed(sender, user_ids, **kwargs) -> None:
    from tables.services import privacy

    privacy.relation_access_recheck(user_ids=user_ids)
