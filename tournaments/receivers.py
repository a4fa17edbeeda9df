"""A finished table's game tells its tournament round (tables/signals.py), after commit."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import receiver

from games.models import Match
from tables.signals import match_finished


@receiver(match_finished, sender=Match)
def round_table_finished(sender: type[Match], match: Match, **kwargs: Any) -> None:
    from tournaments.models import RoundTable
    from tournaments.tasks import round_check

    round_id = RoundTable.objects.filter(table_id=match.table_id).values_list("round_id", flat=True).first()
    if round_id is not None:
        # robust: a lost task is made good by beat's sweep (tournaments_sweep).
        transaction.on_commit(lambda: round_check.delay(round_id), robust=True)
