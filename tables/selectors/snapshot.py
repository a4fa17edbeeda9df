"""What the table's live view is made of, read once per change: the table, its seats or its
match's players, and what the page shows beside the game (the pot, the vote, the fair deal, the
rematch...). tables/render/fragment.py renders it for each viewer; nothing here renders or writes."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.db.models import Prefetch

from accounts.names import public_name
from accounts.selectors import users_named_publicly
from core.connections import retry_on_dead_connection
from games import catalog
from games.models import Match, Review, Signature
from payouts import selectors as payout_selectors
from tables import matchstore
from tables.models import Table
from tables.selectors import (
    clock_public,
    collusion,
    costs_pass,
    fairness_panel,
    last_dismissal,
    privacy,
    quick_lobby,
    rematch_lobby,
    rematch_panel,
    vote_panel,
)
from tables.selectors.invites import invited_answers


@dataclass(frozen=True)
class SeatInfo:
    position: int
    user_id: int | None
    name: str
    username: str
    is_bot: bool
    is_ready: bool
    bot_level: str = ""  # RULING P45: shown on the seat


@dataclass(frozen=True)
class Snapshot:
    table_id: int
    game: str
    status: str
    options: dict
    seat_count: int
    stake: int
    host_id: int
    host_name: str
    closed_reason: str
    seats: tuple[SeatInfo, ...]
    match_id: int | None = None
    seed: int | None = None  # the match's: tells one match's shared blocks from another's
    match_status: str | None = None
    version: int = 0
    state: str | None = None
    extra: dict = field(default_factory=dict)
    turn_clock: int = 0  # the table's clock setting (seconds; 0 = off)
    clock: dict | None = None  # the match's clock: tables.selectors.clock_public
    private: bool = False  # RULING P66: who sits decides who may watch (tables/selectors/privacy.py)
    access_version: int = 0  # the table's, when read (tables/services/privacy.py access_recheck)

    def with_state(self, *, version: int, state: str, clock: dict | None = None) -> Snapshot:
        return replace(self, version=version, state=state, clock=clock)


@retry_on_dead_connection
def load_snapshot(table_id: int) -> Snapshot | None:
    # RULING P54: every name as public lists show it (a player muted site-wide is "Player <id>").
    users = users_named_publicly()
    named = Prefetch("user", queryset=users)
    table = Table.objects.prefetch_related(Prefetch("host", queryset=users)).filter(pk=table_id).first()
    if table is None:
        return None
    # The finished rounds only if this process has no copy of them (tables/matchstore.py).
    match = table.matches.defer("rounds").order_by("-attempt").first()
    if match is not None and table.status in (Table.Status.PLAYING, Table.Status.FINISHED):
        # Parsed here, off the event loop, with any finished rounds it needs: the render finds it.
        matchstore.loaded(match.game, match.pk, match.version, match.state)
        # In a game the seats are the match's players; in the lobby, the table's seats.
        players = {mp.seat: mp.user for mp in match.match_players.prefetch_related(named)}
        seats = tuple(
            SeatInfo(seat, user.pk, public_name(user), user.username, user.is_bot, True, user.bot_level)
            for seat, user in sorted(players.items())
        )
    else:
        match = None
        seats = tuple(
            SeatInfo(
                seat.position,
                seat.user_id,
                public_name(seat.user) if seat.user else "",
                seat.user.username if seat.user else "",
                bool(seat.user and seat.user.is_bot),
                seat.is_ready,
                seat.user.bot_level if seat.user else "",
            )
            for seat in table.seats.prefetch_related(named).order_by("position")
        )
    return Snapshot(
        table_id=table.pk,
        game=table.game,
        status=table.status,
        options=table.options,
        seat_count=table.seat_count,
        stake=table.stake,
        host_id=table.host_id,
        host_name=public_name(table.host),
        closed_reason=table.closed_reason,
        seats=seats,
        match_id=match.pk if match else None,
        seed=match.seed if match else None,
        match_status=match.status if match else None,
        version=match.version if match else 0,
        state=match.state if match else None,
        extra=_extra(table=table, match=match),
        turn_clock=table.clock,
        clock=clock_public(match),
        private=table.private,
        access_version=table.access_version,
    )


def _extra(*, table: Table, match: Match | None) -> dict:
    """Extra context for the table page: the pot, payouts, the lobby note and the vote."""
    extra: dict = {}
    if table.stake:
        extra["pot"] = payout_selectors.table_pot(table=table, match=match)
        if match is not None and match.status == Match.Status.FINISHED:
            seats = dict(match.match_players.values_list("user_id", "seat"))
            extra["payouts"] = {
                seat: payout for seat, payout in match.match_players.values_list("seat", "payout") if payout is not None
            }
            # RULING P50: why a staker took no share, in the stored words (worded per viewer).
            extra["forfeits"] = {
                seats[user_id]: memo
                for user_id, memo in payout_selectors.forfeits(match=match).items()
                if user_id in seats
            }
        if table.status == Table.Status.LOBBY:
            extra["lobby_note"] = "stake"  # worded by the template in each viewer's language
    elif costs_pass(table.game) and table.status == Table.Status.LOBBY:
        extra["lobby_note"] = "pass"
    if catalog.get(table.game).dismissal_vote and match is not None:
        extra["vote"] = vote_panel(match)
    extra["fairness"] = fairness_panel(table=table, match=match)  # RULINGS P30-P33
    if match is not None and catalog.get(match.game).signature and match.status == Match.Status.FINISHED:
        # RULING S13: the Sitaratas' signature, shown with the result (None until signed).
        extra["signature"] = Signature.objects.filter(match=match).values("text").first()
    if match is not None and match.status == Match.Status.FINISHED:
        # Issue 55: the game-over panel links to each player's review once it is ready.
        extra["reviews"] = dict(Review.objects.filter(match=match).values_list("user_id", "status"))
    if table.practice:
        extra["practice"] = True  # RULING P65: the Hint button
    if table.status == Table.Status.LOBBY:
        # Issue 53: a tournament round's table (the tournaments app's row names it): leaving the
        # seat only makes its player absent, so the page offers withdrawing from the tournament.
        tournament = (
            Table.objects.filter(pk=table.pk, tournament_table__isnull=False)
            .values_list("tournament_table__round__tournament_id", flat=True)
            .first()
        )
        if tournament is not None:
            extra["tournament"] = tournament
        extra["last_dismissal"] = last_dismissal(table)  # issue 20: say a dismissal happened
        extra["rematch_lobby"] = rematch_lobby(table)  # RULING P70: seats kept for an answer
        extra["quick_lobby"] = quick_lobby(table)  # RULING P73: the countdown to the bots
        if table.private:
            extra["sitters"] = privacy.sitters(table)  # RULING P66: "Sit here" only for whom it seats
            extra["invited"] = invited_answers(table)  # issue 53: who is invited, who answered
    if table.status == Table.Status.FINISHED:
        extra["rematch"] = rematch_panel(table)  # RULING P70: who accepted, live
    if table.stake:
        extra["collusion"] = collusion.badges(table=table, seated=_humans(table, match))  # RULING P72
    if table.status == Table.Status.CLOSED:
        # Issue 37: the players of a closed lobby or an aborted game are told what came back.
        given = payout_selectors.given_back_at_close(table=table)
        last = table.matches.order_by("-attempt").only("pk", "status").first()
        if last is not None and last.status == Match.Status.ABORTED:
            for user_id in last.match_players.values_list("user_id", flat=True):
                given.setdefault(user_id, {"coins": 0, "passes": 0})
        extra["given_back"] = given
    return extra


def _humans(table: Table, match: Match | None) -> dict[int, int]:
    """Position -> user id of each human seat: the match's players in a game, the seats in the lobby."""
    if match is not None:
        return dict(match.match_players.filter(user__is_bot=False).values_list("seat", "user_id"))
    return dict(table.seats.filter(user__isnull=False, user__is_bot=False).values_list("position", "user_id"))
