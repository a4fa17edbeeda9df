"""Reads for history: ended games, a game's page, and replays rebuilt from the record alone.

RULING P2: a finished game's full record is public; a game in progress shows
nothing here (no hands, no state), and its page is not found. Dismissed and
aborted games are listed with how they ended, but their record is not
published: the players' hands of an unfinished round stay unseen.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext

from accounts.models import User
from accounts.names import public_name
from accounts.selectors import users_named_publicly
from games import catalog
from games.catalog import get_engine
from games.display import charts, ratings
from games.display.scoresheets import score_sheet
from games.engines.cards import SUIT_SYMBOL, is_joker, rank_of, suit_of
from games.engines.contract import Record
from games.engines.sita import PENALTY
from games.engines.sitaratas import sitaratas_seat
from games.models import Match, MatchPlayer, Signature

ENDED = [Match.Status.FINISHED, Match.Status.DISMISSED, Match.Status.ABORTED, Match.Status.ABANDONED]


def matches_ended(*, game: str = "", player: User | None = None) -> QuerySet[Match]:
    """Finished, dismissed and aborted games, newest first; ``state`` and ``record`` are never loaded."""
    matches = (
        Match.objects.filter(status__in=ENDED)
        .defer("state", "record")
        .select_related("table", "signature")
        .prefetch_related(
            # RULING P54: the players' names as public lists show them (a muted player's withheld).
            Prefetch(
                "match_players",
                queryset=MatchPlayer.objects.prefetch_related(
                    Prefetch("user", queryset=users_named_publicly())
                ).order_by("place", "seat"),
            )
        )
        .order_by("-ended_at", "-pk")
    )
    if catalog.known(game):
        matches = matches.filter(game=game)
    if player is not None:
        matches = matches.filter(match_players__user=player).distinct()
    return matches


def sitaratas_player(match: Match) -> MatchPlayer | None:
    """The player named the Sitaratas of a finished Sitaratas game (RULING S9), else None.

    From the players' final totals, so it needs no record: the lowest total, and on a tie the
    earliest seat of the original table order.
    """
    if not catalog.get(match.game).signature or match.status != Match.Status.FINISHED:
        return None
    players = sorted(match.match_players.all(), key=lambda player: player.seat)
    if not players or any(player.total is None for player in players):
        return None
    return players[sitaratas_seat([player.total or 0 for player in players])]  # all totals are known here


def mark_sitaratas(matches) -> None:
    """RULINGS S9, S13: give each listed game its Sitaratas (``sitaratas_id``, a user id or None)
    and its signature text, from the prefetched players: no query per game."""
    for match in matches:
        chosen = sitaratas_player(match)
        match.sitaratas_id = chosen.user_id if chosen else None
        signature = getattr(match, "signature", None) if chosen else None
        match.signature_text = signature.text if signature else ""


def match_ended_get(*, match_id: int) -> Match | None:
    """An ended game, or None (unknown or still being played: RULING P2)."""
    return Match.objects.filter(pk=match_id, status__in=ENDED).defer("state").select_related("table").first()


def public_record(match: Match) -> Record[Any] | None:
    """The record, only for a finished game (RULING P2)."""
    if match.status != Match.Status.FINISHED or not match.record:
        return None
    return match.record


def seated_players(match: Match) -> list[MatchPlayer]:
    """The game's players in seat order, each named as public lists name them (RULING P54: a
    player muted site-wide is "Player <id>")."""
    named = Prefetch("user", queryset=users_named_publicly())
    return list(match.match_players.prefetch_related(named).order_by("seat"))


def match_page(*, match: Match) -> dict:
    """Everything the game page shows: players, places, payouts, the score sheet and its chart."""
    players = seated_players(match)
    names = [public_name(player.user) for player in players]
    for player in players:
        after, before = player.rating_after, player.rating_before
        # Issue 53: on the players' scale (games.display.ratings), as every page shows a rating.
        change = ratings.shown_change(before, after) if after is not None and before is not None else None
        player.rating_change = change  # type: ignore[attr-defined]  # the page's own figure on the row
    record = public_record(match)
    sheet = score_sheet(record) if record else None
    moves = clock_moves(match) if record else []
    if sheet and moves:
        # RULING P11: a round in which the house played for a seat is marked in that seat's cell.
        clocked = {(move["round"], move["seat"]) for move in moves}
        for row in sheet["rows"]:
            for seat, cell in enumerate(row["cells"]):
                cell["by_clock"] = (row["number"], seat) in clocked
    chart = None
    if sheet and sheet["running"]:
        chart = charts.running_totals_svg(
            names=names, running=sheet["running"], title=gettext("Running totals by round")
        )
    return {
        "match": match,
        "game_info": catalog.get(match.game),
        "players": players,
        "standings": sorted(players, key=lambda p: (p.place or 99, p.seat)),
        "names": names,
        "staked": match.table.stake > 0 or any(p.payout is not None for p in players),
        "record": record,
        "sheet": sheet,
        "chart": chart,
        "legend": charts.legend(names),
        "sitaratas_seat": record.get("sitaratas") if record else None,
        "clock_moves": moves,
        "signature": Signature.objects.filter(match=match).first(),
    }


def clock_moves(match: Match) -> list[dict]:
    """Every action the house played for an absent player (RULING P11), with the round it was in.

    The log says which events the clock played; the round comes from replaying the log up to
    each, which only games with such an event pay for.
    """
    events = list(match.events.order_by("version").values_list("version", "seat", "action", "by_clock"))
    if not any(by_clock for *_, by_clock in events):
        return []
    engine = get_engine(match.game)
    state = engine.new_game(match.players, match.options, match.seed)  # the deal, made as the game made it
    moves = []
    for version, seat, action, by_clock in events:
        if by_clock:
            moves.append(
                {
                    "version": version,
                    "seat": seat,
                    "round": engine.view(state, None)["round_number"],
                    "action": action,
                    "label": action_label(action),
                }
            )
        state = engine.apply(state, seat, action)
    return moves


def action_label(action: dict) -> str:
    """An action of any game as a player reads it (issue 37): "bid 1", "played 9♣", "called 5 ♠",
    "took row 3", in the reader's language; cards with their suit symbols, not their codes."""
    kind = action.get("type")
    if kind == "bid":
        return gettext("bid %(bid)s") % {"bid": action["bid"]}
    if kind == "play":
        played = gettext("played %(card)s") % {"card": card_text(action["card"])}
        joker = action.get("joker")
        return f"{played} {joker.upper()}" if joker else played  # HIGH, LOW: as the table shows them
    if kind == "estimate":
        value = gettext("estimated %(value)s") % {"value": action["value"]}
        return f"{value} {trump_text(action['trump'])}" if action.get("trump") else value
    if kind == "call":
        return gettext("called %(tricks)s %(trump)s") % {
            "tricks": action["tricks"],
            "trump": trump_text(action["trump"]),
        }
    if kind == "choose":
        return gettext("chose card %(number)s") % {"number": action["card"]}
    if kind == "take_row":
        return gettext("took row %(number)s") % {"number": action["row"] + 1}
    words = {"pass": gettext("passed"), "decline": gettext("declined a Dash Call"), "dash_call": gettext("Dash Call")}
    return words.get(str(kind), str(kind or "").replace("_", " "))


def card_text(code: str) -> str:
    """A card in a line of text: "9♣", "10♥", "Red joker"."""
    if is_joker(code):
        return gettext("Red joker") if code == "RJ" else gettext("Black joker")
    return f"{rank_of(code)}{SUIT_SYMBOL[suit_of(code)]}"


def trump_text(trump: str | None) -> str:
    return SUIT_SYMBOL.get(trump or "", "") or gettext("No trump")


# --- replay -------------------------------------------------------------------------------


def replay_frame(*, match: Match, step: int) -> dict | None:
    """The replay at one step (clamped to the game), or None when there is no public record."""
    record = public_record(match)
    if record is None:
        return None
    steps = replay_steps(record)
    step = max(0, min(step, len(steps) - 1))
    names = [public_name(player.user) for player in seated_players(match)]
    return {
        "match": match,
        "game_info": catalog.get(match.game),
        "record": record,
        "names": names,
        "frame": steps[step],
        "steps": steps,
        "step": step,
        "clocked_seats": _clocked_seats(steps[step], clock_moves(match)),
        "count": len(steps),
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step + 1 < len(steps) else None,
        "penalties": PENALTY,
    }


def _clocked_seats(frame: dict, moves: list[dict]) -> list[int]:
    """The seats whose card in this replay step the house played for them (RULING P11)."""
    cards = {(move["round"], move["seat"], move["action"].get("card")) for move in moves}
    number = frame["round"]["number"]
    if frame.get("trick"):
        return [play["seat"] for play in frame["trick"]["plays"] if (number, play["seat"], play["card"]) in cards]
    if frame.get("turn"):
        return [seat for seat, card in enumerate(frame["turn"]["chosen"]) if (number, seat, card) in cards]
    return []


def replay_steps(record: Record[Any]) -> list[dict]:
    """Every step of a finished game's replay, as its own records module makes them."""
    return catalog.get(record["game"]).records.replay_steps(record)
