"""Helpers for ledger tests: balances, the coin invariant, playing a game to its end."""

from __future__ import annotations

from django.db.models import Sum

from accounts.models import User
from games.models import Match
from payouts.models import Account, Transfer
from payouts.owners import Owner
from tables.services import play
from tests.tables.helpers import state_of


def wallet(user: User) -> int:
    return Account.objects.filter(kind="wallet", user=user).aggregate(t=Sum("balance"))["t"] or 0


def balance(kind: str, owner: Owner | None = None, **filters) -> int:
    """The sum of the accounts of ``kind``, of ``owner`` when given (``table_owner(table)``)."""
    if owner is not None:
        filters |= {"owner_kind": owner.kind, "owner_id": owner.id}
    return Account.objects.filter(kind=kind, **filters).aggregate(t=Sum("balance"))["t"] or 0


def coins_granted() -> int:
    return -balance("mint", asset="coins")


def assert_coins_conserved() -> None:
    """Coins in wallets, held stakes and pots equal the coins ever granted (RULING P4)."""
    in_play = sum(balance(kind) for kind in ("wallet", "stake_held", "pot", "entry_held", "tournament_pot"))
    assert in_play == coins_granted()
    granted = Transfer.objects.filter(asset="coins", reason="grant").values_list("entries__amount", flat=True)
    assert coins_granted() == sum(amount for amount in granted if amount > 0)


def assert_passes_conserved() -> None:
    """Each granted pass is in exactly one place: free, reserved, restored or used."""
    kinds = ("passes_free", "passes_held", "passes_restored", "passes_used", "tournament_passes")
    held = sum(balance(kind) for kind in kinds)
    assert held == -balance("mint", asset="passes")
    for account in Account.objects.filter(kind__in=["passes_held", "passes_restored"]):
        assert account.balance in (0, 1), account  # a seat never counts a pass twice


def play_to_end(match: Match) -> Match:
    """Humans play their first legal action, bots move as their task would, until the end."""
    while True:
        engine, state = state_of(match)
        if match.status != Match.Status.PLAYING:
            return match
        if play.bots_act(match_id=match.pk, version=match.version):
            continue
        seat = engine.to_act(state)[0]
        user = match.match_players.get(seat=seat).user
        action = engine.legal_actions(state, seat)[0]
        play.match_act(match_id=match.pk, user=user, action=action, version=match.version)
