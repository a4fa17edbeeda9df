"""A finished table's game tells its tournament round (tables/signals.py), after commit."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from core import outbox
from games.models import Match
from tables.signals import match_finished
from tournaments.events import RoundTableFinished


@receiver(match_finished, sender=Match)
def round_table_finished(sender: type[Match], match: Match, **kwargs: Any) -> None:
    from tournaments.models import RoundTable

    round_id = RoundTable.objects.filter(table_id=match.table_id).values_list("round_id", flat=True).first()
    if round_id is not None:
        # robust: a lost task is made good by beat's sweep (tournaments_sweep).
        outbox.send(RoundTableFinished(round_id=round_id), robust=True)
