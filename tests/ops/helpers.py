"""Ops test helpers: a finished game with a ledger behind it, for the integrity check and the backups."""

from __future__ import annotations

from games.models import Match
from tests.payouts.helpers import play_to_end
from tests.tables.helpers import start_table


def finished_staked_game(host, player) -> Match:
    """An Estimation game at a stake, played to its end: events to replay and entries to sum."""
    return play_to_end(start_table(host, "estimation", stake=101, guests=[player])[1])
