"""A tournament's coins and passes on the ledger (RULING P83; passes as RULING P6).

The entry fee is held at sign-up, released on withdrawal or cancellation, collected into the
tournament's pot at the start and paid out by its split at the end; a Sitaratas tournament
reserves one pass per round at sign-up and moves one to each round's table as that round is
seated, where the table's start uses it. Every step is one of payouts' generic operations on
the accounts of the tournament's owner key, so payouts refers to no tournament and imports
nothing of this app. Part of the write side: only ``tournaments.services`` calls it, inside
its transactions (the tournament row locked first, then the ledger accounts).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core.i18n import lazy_format
from games import catalog
from payouts import services as payouts
from payouts.models import Account, Transfer
from payouts.owners import Owner, TableRef, table_owner
from tournaments.models import Tournament

Kind = Account.Kind
Reason = Transfer.Reason
OWNER = "tournament"  # the owner kind of a tournament's ledger accounts, as its rows hold it
PASSES_RESERVED = "Passes reserved for a tournament's rounds."


def owner(tournament: Tournament) -> Owner:
    return Owner(OWNER, tournament.pk)


def passes_needed(tournament: Tournament) -> int:
    return tournament.rounds if catalog.get(tournament.game).costs_pass else 0


def entry_hold(*, user: User, tournament: Tournament) -> None:
    """Sign-up: hold the fee and reserve every round's pass, or refuse with the reason (and hold nothing)."""
    with transaction.atomic():
        if tournament.entry_fee:
            payouts.hold(
                user=user,
                into=(Kind.ENTRY_HELD, owner(tournament)),
                amount=tournament.entry_fee,
                reason=Reason.ENTRY_HOLD,
                memo="Tournament entry fee held.",
                refusal=lambda balance: lazy_format(
                    _("The entry fee is %(fee)s coins and your wallet holds %(balance)s."),
                    fee=f"{tournament.entry_fee:,}",
                    balance=f"{balance:,}",
                ),
            )
        if passes := passes_needed(tournament):
            payouts.hold(
                user=user,
                into=(Kind.TOURNAMENT_PASSES, owner(tournament)),
                amount=passes,
                reason=Reason.PASS_RESERVE,
                memo=PASSES_RESERVED,
                refusal=lambda free: lazy_format(
                    _("This tournament takes %(needed)s game passes (one per round) and you have %(free)s free."),
                    needed=passes,
                    free=free,
                ),
            )


def entry_release(*, user: User, tournament: Tournament, memo: str, by: User | None = None) -> None:
    """Withdrawal before the start or cancellation gives the fee back; any pass not yet used is freed."""
    with transaction.atomic():
        held = (Kind.ENTRY_HELD, owner(tournament))
        payouts.release(user=user, out_of=held, reason=Reason.ENTRY_RELEASE, memo=memo, by=by)
        passes_release(user=user, tournament=tournament, memo=memo, by=by)


def passes_release(*, user: User, tournament: Tournament, memo: str, by: User | None = None) -> int:
    """The passes reserved for rounds a player will not play go back to their free passes."""
    reserved = (Kind.TOURNAMENT_PASSES, owner(tournament))
    return payouts.release(user=user, out_of=reserved, reason=Reason.PASS_RELEASE, memo=memo, by=by)


def entry_collect(*, tournament: Tournament, users: list[User]) -> int:
    """The start moves every held fee into the pot. Returns the pot."""
    return payouts.collect(
        owner=owner(tournament),
        users=users,
        held=Kind.ENTRY_HELD,
        pot=Kind.TOURNAMENT_POT,
        reason=Reason.ENTRY_COLLECT,
        memo="Tournament entry fee into the pot.",
    )


def round_pass_move(*, user: User, tournament: Tournament, table: TableRef) -> None:
    """A Sitaratas round is seated: one of the player's reserved passes becomes the table's
    reservation, which the table's start uses (RULING P6)."""
    payouts.hold(
        user=user,
        into=(Kind.PASSES_HELD, table_owner(table)),
        out_of=(Kind.TOURNAMENT_PASSES, owner(tournament)),
        amount=1,
        reason=Reason.PASS_RESERVE,
        memo="Tournament round: reserved pass moved to the table.",
        refusal=lambda _reserved: _("No pass is left reserved for this tournament's rounds."),
    )


def round_pass_return(*, user: User, tournament: Tournament, table: TableRef) -> None:
    """A round re-seated before its start: the pass moved to the old table goes back to the reserve."""
    payouts.release(
        user=user,
        out_of=(Kind.PASSES_HELD, table_owner(table)),
        into=(Kind.TOURNAMENT_PASSES, owner(tournament)),
        reason=Reason.PASS_RELEASE,
        memo=PASSES_RESERVED,
    )


def prizes_pay(*, tournament: Tournament, prizes: dict[int, int], ranks: dict[int, int] | None = None) -> None:
    """The end: the pot paid out as ``prizes`` (user id → coins, summing to the pot), in user id
    order, each memo naming the player's rank among ``ranks`` (user id → rank) when given."""
    ranks = ranks or {}
    memos = {user_id: prize_memo(rank, list(ranks.values())) for user_id, rank in ranks.items()}
    payouts.pay_out(
        owner=owner(tournament),
        pot=Kind.TOURNAMENT_POT,
        amounts=prizes,
        reason=Reason.PRIZE_PAYOUT,
        memo="Tournament prize.",
        memos=memos,
    )


def prize_memo(rank: int, ranks: list[int]) -> str:
    """Issue 53: a prize says where in the final standings it was won (payouts/memos.py reads it)."""
    tied = "tied " if ranks.count(rank) > 1 else ""
    return f"Tournament prize: {tied}place {rank} of {len(ranks)} in the final standings."


def cancel_memo(*, by: User, reason: str) -> str:
    """RULING P19: an admin's cancellation names the admin and the reason in every row it causes."""
    return f"Tournament cancelled by {by.name}: {reason.strip()}"[:200]


def pot_refund(*, tournament: Tournament, memo: str, by: User | None = None) -> dict[int, int]:
    """A tournament cancelled after its start gives every collected fee back."""
    return payouts.refund(
        owner=owner(tournament),
        pot=Kind.TOURNAMENT_POT,
        collected=Reason.ENTRY_COLLECT,
        reason=Reason.ENTRY_RELEASE,
        memo=memo,
        by=by,
    )
