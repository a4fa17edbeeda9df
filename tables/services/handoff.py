"""Where the table life cycle hands off to payouts, ratings and reviews.

The table services call these at each step, inside their transaction (steps, not transactions); each
step's money, passes and ratings live in their own app. A ``PayoutError`` (short
of coins, no free pass) becomes a ``TableError`` so the socket shows it to that
player, and the transaction rolls back: the seat is not taken.
"""

from __future__ import annotations

from contextlib import contextmanager

from django.db.models import Count, Q

from accounts.models import User
from games.models import Match, MatchEvent, MatchPlayer
from games.services.ratings import ratings_update
from games.services.reviews import reviews_request
from payouts import services as payouts
from payouts.services import PayoutError
from tables import clock, selectors, signals
from tables.errors import TableError
from tables.models import Table
from tables.selectors.privacy import NOT_INVITED, may_sit


@contextmanager
def _as_table_error():
    try:
        yield
    except PayoutError as error:
        raise TableError(str(error)) from None


def seat_taken(*, table: Table, user: User) -> None:
    if not may_sit(table=table, user=user):
        raise TableError(NOT_INVITED)  # RULING P66: a private table's seats
    with _as_table_error():
        if table.stake:
            payouts.stake_hold(user=user, table=table)  # RULING P5
        if selectors.costs_pass(table.game):
            payouts.pass_reserve(user=user, table=table)  # RULING P6


def seat_left(
    *, table: Table, user: User, by: User | None = None, memo: str = "Left the table before the start."
) -> None:
    """Leaving before the start, or the lobby closing (RULING P8): holds and reservations go back.
    ``memo`` says which (RULING P7): a closed table is not the player leaving. ``by`` is the admin
    who closed the lobby, recorded on each row (RULING P19)."""
    with _as_table_error():
        if table.stake:
            payouts.stake_release(user=user, table=table, memo=memo, by=by)
        if selectors.costs_pass(table.game):
            payouts.pass_release(user=user, table=table, memo=memo, by=by)


def match_started(*, table: Table, match: Match, users: list[User]) -> None:
    with _as_table_error():
        if table.stake:
            payouts.pot_collect(table=table, match=match, users=users)
        if selectors.costs_pass(table.game):
            payouts.pass_use(table=table, match=match, users=users)


def match_finished(*, match: Match, players: list[MatchPlayer]) -> None:
    table = match.table
    if table.stake:
        # RULING P5: paid in the same transaction that records the result. RULING P50: a seat away
        # at the end, or played mostly by the clock, takes no share; its stake stays in the pot.
        human_ids = set(
            User.objects.filter(pk__in=[p.user_id for p in players], is_bot=False).values_list("pk", flat=True)
        )
        humans = {p.seat for p in players if p.user_id in human_ids}
        by_seat = _pot_forfeits(match, humans)
        forfeits = {p.user_id: by_seat[p.seat] for p in players if p.seat in by_seat}
        paid = payouts.pot_settle(
            table=table,
            match=match,
            places={p.user_id: p.place for p in players if p.place is not None},  # all placed by now
            forfeits=forfeits,
        )
        for player in players:
            player.payout = paid.get(player.user_id)
        MatchPlayer.objects.bulk_update(players, ["payout"])
    if not table.practice:
        ratings_update(match=match, players=players)  # RULING P65: practice is unrated
    reviews_request(match=match)  # issue 42: reviewed after commit, by the review worker
    signals.match_finished.send(sender=Match, match=match)  # a tournament's round (tournaments/receivers.py)


def match_dismissed(*, table: Table, match: Match) -> None:
    if selectors.costs_pass(table.game):
        payouts.pass_restore(table=table, match=match)  # RULING P6: once per pass.


def match_aborted(*, table: Table, match: Match, by: User | None = None) -> None:
    # RULING P7: the wallet says who aborted and why (match.end_reason names the admin);
    # RULING P19: each refund row names the admin who aborted.
    if table.stake:
        payouts.pot_refund(table=table, match=match, memo=f"{match.end_reason} Stake refunded.", by=by)
    if selectors.costs_pass(table.game):
        payouts.pass_refund(table=table, match=match, memo=f"{match.end_reason} Pass returned.", by=by)


def _pot_forfeits(match: Match, humans: set[int]) -> dict[int, str]:
    """RULING P50: the human seats that take no share of a staked game's pot, with why: "away"
    (marked away when the game ended) or "clock" (more than half of their decisions were played
    by the clock or the house). Read under the Match lock, after the last move's events are written."""
    counts = (
        MatchEvent.objects.filter(match_id=match.pk, seat__in=humans)
        .values("seat")
        .annotate(decisions=Count("pk"), clocked=Count("pk", filter=Q(by_clock=True)))
    )
    forfeits = {row["seat"]: "clock" for row in counts if 2 * row["clocked"] > row["decisions"]}
    forfeits.update({seat: "away" for seat in clock.away_seats(match) & humans})
    return forfeits
