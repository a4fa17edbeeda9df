"""Where the table life cycle meets payouts, votes and ratings.

The table services call these at each step, inside their transaction; each
step's money, passes and ratings live in their own app. A ``PayoutError`` (short
of coins, no free pass) becomes a ``TableError`` so the socket shows it to that
player, and the transaction rolls back: the seat is not taken.
"""

from __future__ import annotations

from contextlib import contextmanager

from accounts.models import User
from games.models import Match, MatchPlayer
from games.ratings import ratings_update
from payouts import selectors as payout_selectors
from payouts import services as payouts
from payouts.services import PayoutError
from tables.errors import TableError
from tables.models import DismissalVote, Table

PASS_GAME = "sitaratas"  # RULING P6: only Sitaratas costs a game pass.


@contextmanager
def _as_table_error():
    try:
        yield
    except PayoutError as error:
        raise TableError(str(error)) from None


def seat_taken(*, table: Table, user: User) -> None:
    with _as_table_error():
        if table.stake:
            payouts.stake_hold(user=user, table=table)  # RULING P5
        if table.game == PASS_GAME:
            payouts.pass_reserve(user=user, table=table)  # RULING P6


def seat_left(*, table: Table, user: User, by: User | None = None, memo: str | None = None) -> None:
    """Leaving before the start, or the lobby closing (RULING P8): holds and reservations go back.
    ``by`` is the admin who closed the lobby, recorded on each row (RULING P19)."""
    extra = {"by": by, **({"memo": memo} if memo else {})}
    with _as_table_error():
        if table.stake:
            payouts.stake_release(user=user, table=table, **extra)
        if table.game == PASS_GAME:
            payouts.pass_release(user=user, table=table, **extra)


def match_started(*, table: Table, match: Match, users: list[User]) -> None:
    with _as_table_error():
        if table.stake:
            payouts.pot_collect(table=table, match=match, users=users)
        if table.game == PASS_GAME:
            payouts.pass_use(table=table, match=match, users=users)


def match_finished(*, match: Match, players: list[MatchPlayer]) -> None:
    table = match.table
    if table.stake:
        # RULING P5: paid in the same transaction that records the result.
        paid = payouts.pot_settle(table=table, match=match, places={p.user_id: p.place for p in players})
        for player in players:
            player.payout = paid.get(player.user_id)
        MatchPlayer.objects.bulk_update(players, ["payout"])
    ratings_update(match=match, players=players)


def match_dismissed(*, table: Table, match: Match) -> None:
    if table.game == PASS_GAME:
        payouts.pass_restore(table=table, match=match)  # RULING P6: once per pass.


def match_aborted(*, table: Table, match: Match, by: User | None = None) -> None:
    # RULING P19: each refund row names the admin who aborted.
    if table.stake:
        payouts.pot_refund(table=table, match=match, by=by)
    if table.game == PASS_GAME:
        payouts.pass_refund(table=table, match=match, by=by)


def is_paused(match: Match) -> bool:
    """RULING S12: no action and no bot move while a dismissal vote is open."""
    if match.game != PASS_GAME:  # votes exist only in Sitaratas: no query on the other games' moves
        return False
    return DismissalVote.objects.filter(match_id=match.pk, status=DismissalVote.Status.OPEN).exists()


def live_extra(*, table: Table, match: Match | None) -> dict:
    """Extra context for the table page: the pot, payouts, the lobby note and the vote."""
    from tables.votes import vote_panel

    extra: dict = {}
    if table.stake:
        extra["pot"] = payout_selectors.table_pot(table=table, match=match)
        if match is not None and match.status == Match.Status.FINISHED:
            extra["payouts"] = {seat: payout for seat, payout in match.match_players.values_list("seat", "payout")
                                if payout is not None}
        if table.status == Table.Status.LOBBY:
            extra["lobby_note"] = (f"Staked table: taking a seat holds {table.stake:,} coins from your wallet; "
                                   "leaving gives them back. The winners share the pot.")
    elif table.game == PASS_GAME and table.status == Table.Status.LOBBY:
        extra["lobby_note"] = "Each player's seat reserves one game pass; it is used when the game starts."
    if table.game == PASS_GAME and match is not None:
        extra["vote"] = vote_panel(match)
    return extra
