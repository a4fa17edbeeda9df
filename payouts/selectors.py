"""Reads of the coin and pass ledgers (docs/style.md §5): balances, pots and a player's history."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, Sum

from accounts.models import User
from games.models import Match
from payouts.models import Account, Asset, Entry, Transfer
from tables.models import Table

Kind = Account.Kind
PASS_KINDS = (Kind.PASSES_FREE, Kind.PASSES_HELD, Kind.PASSES_RESTORED, Kind.PASSES_USED)


@dataclass(frozen=True)
class Movement:
    transfer: Transfer
    amount: int
    balance_after: int | None


def coin_balance(*, user: User) -> int:
    return _sum(Account.objects.filter(kind=Kind.WALLET, user=user))


def pass_counts(*, user: User) -> dict[str, int]:
    """Free, reserved (held or restored at a table) and used passes."""
    rows = dict(Account.objects.filter(user=user, kind__in=PASS_KINDS).values("kind")
                .annotate(total=Sum("balance")).values_list("kind", "total"))
    return {
        "free": rows.get(Kind.PASSES_FREE, 0),
        "reserved": rows.get(Kind.PASSES_HELD, 0) + rows.get(Kind.PASSES_RESTORED, 0),
        "used": rows.get(Kind.PASSES_USED, 0),
    }


def stakes_held(*, user: User) -> int:
    return _sum(Account.objects.filter(kind=Kind.STAKE_HELD, user=user))


def table_pot(*, table: Table, match: Match | None) -> int:
    """The pot a table page shows: stakes held in the lobby, the game's collected stakes once started."""
    if match is None:
        return _sum(Account.objects.filter(kind=Kind.STAKE_HELD, table=table))
    collected = Entry.objects.filter(transfer__match=match, transfer__reason=Transfer.Reason.POT_COLLECT, amount__gt=0)
    return collected.aggregate(total=Sum("amount"))["total"] or 0


def coin_movements(*, user: User, limit: int = 200) -> list[Movement]:
    """Every movement in and out of the player's wallet, newest first, with the balance after it."""
    return _movements(Entry.objects.filter(account__kind=Kind.WALLET, account__user=user), limit=limit, running=True)


def pass_movements(*, user: User, limit: int = 200) -> list[Movement]:
    """Each pass transfer of the player once, with how it changed their free passes."""
    transfers = (Transfer.objects.filter(user=user, asset=Asset.PASSES)
                 .annotate(free_delta=Sum("entries__amount", filter=Q(entries__account__kind=Kind.PASSES_FREE)))
                 .select_related("table", "match", "by").order_by("-created_at", "-pk")[:limit])
    return [Movement(transfer=transfer, amount=transfer.free_delta or 0, balance_after=None) for transfer in transfers]


def _movements(entries, *, limit: int, running: bool) -> list[Movement]:
    rows = list(entries.select_related("transfer__table", "transfer__match", "transfer__by")
                .order_by("-transfer__created_at", "-pk")[:limit])
    balance = _sum(Account.objects.filter(pk__in={row.account_id for row in rows})) if running else None
    moves = []
    for row in rows:  # newest first: walk the balance back
        moves.append(Movement(transfer=row.transfer, amount=row.amount, balance_after=balance))
        if balance is not None:
            balance -= row.amount
    return moves


def _sum(accounts) -> int:
    return accounts.aggregate(total=Sum("balance"))["total"] or 0
