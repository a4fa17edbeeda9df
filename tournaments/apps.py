from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments and seasons")

    def ready(self) -> None:
        from tables import lobby_slots
        from tournaments import receivers  # noqa: F401  (a finished table tells its round)
        from tournaments.lobby import next_tournaments

        lobby_slots.register(next_tournaments, place=lobby_slots.TOURNAMENTS)  # issue 39: in the lobby
