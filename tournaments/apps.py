from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments and seasons")

    def ready(self) -> None:
        from accounts.personal_data import PersonalData, register
        from core import outbox
        from payouts.owners import namer_register
        from tables import lobby_slots
        from tournaments import (
            consumer,
            receivers,  # noqa: F401  (a finished table tells its round)
            tasks,
        )
        from tournaments.events import RoundTableFinished, StartDue, TablesStartDue, TournamentChanged
        from tournaments.lobby import next_tournaments
        from tournaments.pot import OWNER
        from tournaments.selectors import ledger_places, season_places_export, tournaments_export
        from tournaments.services import entries_erase

        lobby_slots.register(next_tournaments, place=lobby_slots.TOURNAMENTS)  # issue 39: in the lobby
        namer_register(OWNER, ledger_places)  # issue 53: the wallet names the tournament of a row
        # Where the writes' events go after commit (core/outbox.py): the page's sockets, the tasks.
        outbox.handle(TournamentChanged, consumer.send_changed)
        outbox.handle(StartDue, tasks.start_due)
        outbox.handle(TablesStartDue, tasks.tables_start_due)
        outbox.handle(RoundTableFinished, tasks.round_table_finished)
        # RULINGS P23, P55, P82: in the player's data; a deleted account withdraws from what is still going.
        register(
            PersonalData(
                "tournaments",
                models=("tournaments.Entry", "tournaments.Tournament"),
                export=tournaments_export,
                erase=entries_erase,
                kept=(
                    "Entries of tournaments that started stay in the standings under the anonymous name, the fee in "
                    "the pot (RULINGS P23, P82); a tournament the account created stays for its players."
                ),
            )
        )
        register(
            PersonalData(
                "seasons",
                models=("tournaments.SeasonPlace",),
                export=season_places_export,
                kept="A frozen season's ladder is a result and stays under the anonymous name (RULINGS P23, P84).",
            )
        )
