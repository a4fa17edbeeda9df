"""Where the table life cycle meets payouts, votes and ratings.

The table services call these at each step, inside their transaction; each
step's money, passes and ratings live in their own app. A ``PayoutError`` (short
of coins, no free pass) becomes a ``TableError`` so the socket shows it to that
player, and the transaction rolls back: the seat is not taken.
"""

from __future__ import annotations

from contextlib import contextmanager

from accounts.models import User
from games import catalog
from games.models import Match, MatchPlayer, Signature
from games.ratings import ratings_update
from payouts import selectors as payout_selectors
from payouts import services as payouts
from payouts.services import PayoutError
from tables import fairness
from tables.errors import TableError
from tables.models import DismissalVote, Table


def costs_pass(game: str) -> bool:
    """RULING P6: whether a seat at this game reserves a game pass (the catalogue says which)."""
    return catalog.get(game).costs_pass


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
        if costs_pass(table.game):
            payouts.pass_reserve(user=user, table=table)  # RULING P6


def seat_left(*, table: Table, user: User, by: User | None = None,
              memo: str = "Left the table before the start.") -> None:
    """Leaving before the start, or the lobby closing (RULING P8): holds and reservations go back.
    ``memo`` says which (RULING P7): a closed table is not the player leaving. ``by`` is the admin
    who closed the lobby, recorded on each row (RULING P19)."""
    with _as_table_error():
        if table.stake:
            payouts.stake_release(user=user, table=table, memo=memo, by=by)
        if costs_pass(table.game):
            payouts.pass_release(user=user, table=table, memo=memo, by=by)


def match_started(*, table: Table, match: Match, users: list[User]) -> None:
    with _as_table_error():
        if table.stake:
            payouts.pot_collect(table=table, match=match, users=users)
        if costs_pass(table.game):
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
    if costs_pass(table.game):
        payouts.pass_restore(table=table, match=match)  # RULING P6: once per pass.


def match_aborted(*, table: Table, match: Match, by: User | None = None) -> None:
    # RULING P7: the wallet says who aborted and why (match.end_reason names the admin);
    # RULING P19: each refund row names the admin who aborted.
    if table.stake:
        payouts.pot_refund(table=table, match=match, memo=f"{match.end_reason} Stake refunded.", by=by)
    if costs_pass(table.game):
        payouts.pass_refund(table=table, match=match, memo=f"{match.end_reason} Pass returned.", by=by)


def is_paused(match: Match) -> bool:
    """RULING S12: no action and no bot move while a dismissal vote is open."""
    if not catalog.get(match.game).dismissal_vote:  # no query on the moves of a game without votes
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
            coins = f"{table.stake:,} coin{'' if table.stake == 1 else 's'}"
            extra["lobby_note"] = (f"Staked table: taking a seat holds {coins} from your wallet; "
                                   "leaving gives them back. The winners share the pot.")
    elif costs_pass(table.game) and table.status == Table.Status.LOBBY:
        extra["lobby_note"] = "Each player's seat reserves one game pass; it is used when the game starts."
    if catalog.get(table.game).dismissal_vote and match is not None:
        extra["vote"] = vote_panel(match)
    extra["fairness"] = fairness.live_panel(table=table, match=match)  # RULINGS P30-P33
    if match is not None and catalog.get(match.game).signature and match.status == Match.Status.FINISHED:
        # RULING S13: the Sitaratas' signature, shown with the result (None until signed).
        extra["signature"] = Signature.objects.filter(match=match).values("text").first()
    if table.status == Table.Status.LOBBY:
        from tables.play_screen import last_attempt_note

        extra["last_attempt"] = last_attempt_note(table)  # issue 20: say a dismissal happened
    return extra
