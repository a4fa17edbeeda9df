"""Reads for history: ended games, a game's page, and replays rebuilt from the record alone.

RULING P2: a finished game's full record is public; a game in progress shows
nothing here (no hands, no state), and its page is not found. Dismissed and
aborted games are listed with how they ended, but their record is not
published: the players' hands of an unfinished round stay unseen.
"""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from django.utils.formats import number_format

from accounts.models import User
from games import charts
from games.engines import get_engine
from games.engines.sita import PENALTY, penalty
from games.models import Match, MatchPlayer, Signature
from games.replay import rebuild_state
from games.services import sitaratas_player
from games.scoresheets import score_sheet

ENDED = [Match.Status.FINISHED, Match.Status.DISMISSED, Match.Status.ABORTED, Match.Status.ABANDONED]
GAMES = {"sitaratas", "estimation", "sita"}


def matches_ended(*, game: str = "", player: User | None = None) -> QuerySet[Match]:
    """Finished, dismissed and aborted games, newest first; ``state`` and ``record`` are never loaded."""
    matches = (
        Match.objects.filter(status__in=ENDED)
        .defer("state", "record")
        .select_related("table", "signature")
        .prefetch_related(Prefetch("match_players", queryset=MatchPlayer.objects.select_related("user").order_by("place", "seat")))
        .order_by("-ended_at", "-pk")
    )
    if game in GAMES:
        matches = matches.filter(game=game)
    if player is not None:
        matches = matches.filter(match_players__user=player).distinct()
    return matches


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
    return (
        Match.objects.filter(pk=match_id, status__in=ENDED).defer("state").select_related("table").first()
    )


def public_record(match: Match) -> dict | None:
    """The record, only for a finished game (RULING P2)."""
    if match.status != Match.Status.FINISHED or not match.record:
        return None
    return match.record


def _signed_decimal(value: float) -> str:
    """+1.5 / -0.3 with the reader's decimal separator (issue 26: +1,5 in Estonian and Arabic)."""
    return ("-" if round(value, 1) < 0 else "+") + number_format(abs(value), 1)


def match_page(*, match: Match) -> dict:
    """Everything the game page shows: players, places, payouts, the score sheet and its chart."""
    players = list(match.match_players.select_related("user").order_by("seat"))
    names = [player.user.name for player in players]
    for player in players:
        rated = player.rating_after is not None and player.rating_before is not None
        player.rating_change = _signed_decimal(player.rating_after - player.rating_before) if rated else ""
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
        chart = charts.running_totals_svg(names=names, running=sheet["running"], title="Running totals by round")
    return {
        "match": match,
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
    state = rebuild_state(match, upto=0)  # the deal, made as the game made it
    moves = []
    for version, seat, action, by_clock in events:
        if by_clock:
            moves.append({"version": version, "seat": seat, "round": engine.view(state, None)["round_number"],
                          "action": action, "label": action_label(action)})
        state = engine.apply(state, seat, action)
    return moves


def action_label(action: dict) -> str:
    """A short text for an action of any game: its type and its values."""
    values = [f"{key} {value}" for key, value in action.items() if key != "type"]
    return " ".join([str(action.get("type", "")).replace("_", " "), *values]).strip()


# --- replay -------------------------------------------------------------------------------


def replay_steps(record: dict) -> list[dict]:
    """Every step of a game: per round a deal, then one step per trick (or per SITA turn)."""
    if record["game"] == "sita":
        return _sita_steps(record)
    return _trick_steps(record)


def _trick_steps(record: dict) -> list[dict]:
    steps: list[dict] = []
    seats = len(record["totals"])
    totals = [0] * seats
    for round_record in record["rounds"]:
        if record["game"] == "estimation":
            deal = round_record["deals"][-1] if round_record["deals"] else {"hands": [[] for _ in range(seats)]}
            hands = [list(hand) for hand in deal["hands"]]
            declared = round_record["estimate"]
        else:
            hands = [list(hand) for hand in round_record["hands"]]
            bids = {entry["seat"]: entry["bid"] for entry in round_record["bids"]}
            declared = [bids.get(seat) for seat in range(seats)]
        common = {"round": round_record, "declared": declared, "totals_before": list(totals)}
        won = [0] * seats
        steps.append({**common, "kind": "deal", "hands": [sorted_hand(h) for h in hands], "trick": None,
                      "trick_number": 0, "won": list(won)})
        tricks = round_record["tricks"]
        for number, trick in enumerate(tricks, start=1):
            held = [sorted_hand(h) for h in hands]
            for play in trick["plays"]:
                hands[play["seat"]].remove(play["card"])
            if trick.get("winner") is not None:
                won[trick["winner"]] += 1
            played = {play["seat"]: play["card"] for play in trick["plays"]}
            last = number == len(tricks) and _complete(round_record.get("points"))
            steps.append({**common, "kind": "trick", "hands": held, "played": played, "trick": trick,
                          "trick_number": number, "trick_count": len(tricks), "won": list(won),
                          "points": round_record["points"] if last else None})
        if _complete(round_record.get("points")):
            totals = [t + p for t, p in zip(totals, round_record["points"])]
    return steps


def _sita_steps(record: dict) -> list[dict]:
    steps: list[dict] = []
    seats = len(record["totals"])
    totals = [0] * seats
    for round_record in record["rounds"]:
        hands = [sorted(hand) for hand in round_record["hands"]]
        taken = [0] * seats
        common = {"round": round_record, "totals_before": list(totals)}
        steps.append({**common, "kind": "deal", "hands": [list(h) for h in hands], "rows": round_record["rows"],
                      "turn": None, "turn_number": 0, "taken": list(taken)})
        rows_before = round_record["rows"]
        for number, turn in enumerate(round_record["turns"], start=1):
            held = [list(h) for h in hands]
            for seat, card in enumerate(turn["chosen"]):
                if card is not None and card in hands[seat]:
                    hands[seat].remove(card)
            for placement in turn["placements"]:
                taken[placement["seat"]] += sum(penalty(card) for card in placement["took"])
            steps.append({**common, "kind": "turn", "hands": held, "rows_before": rows_before, "rows": turn["rows"],
                          "turn": turn, "turn_number": number, "turn_count": len(round_record["turns"]),
                          "taken": list(taken)})
            rows_before = turn["rows"]
        if _complete(round_record.get("penalties")):
            totals = [t + p for t, p in zip(totals, round_record["penalties"])]
    return steps


def _complete(points: list | None) -> bool:
    return isinstance(points, list) and all(isinstance(p, int) for p in points)


SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3}
RANK_ORDER = {rank: index for index, rank in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])}


def sorted_hand(cards: list[str]) -> list[str]:
    """Jokers first, then by suit (alternating colours) and rank, high to low."""
    def key(card: str) -> tuple[int, int]:
        if card in ("RJ", "BJ"):
            return (-1, 0 if card == "RJ" else 1)
        return (SUIT_ORDER[card[-1]], -RANK_ORDER[card[:-1]])

    return sorted(cards, key=key)


def replay_frame(*, match: Match, step: int) -> dict | None:
    """The replay at one step (clamped to the game), or None when there is no public record."""
    record = public_record(match)
    if record is None:
        return None
    steps = replay_steps(record)
    step = max(0, min(step, len(steps) - 1))
    names = [player.user.name for player in match.match_players.select_related("user").order_by("seat")]
    return {"match": match, "record": record, "names": names, "frame": steps[step], "step": step,
            "clocked_seats": _clocked_seats(steps[step], clock_moves(match)),
            "count": len(steps), "previous": step - 1 if step > 0 else None,
            "next": step + 1 if step + 1 < len(steps) else None, "penalties": PENALTY}


def _clocked_seats(frame: dict, moves: list[dict]) -> list[int]:
    """The seats whose card in this replay step the house played for them (RULING P11)."""
    cards = {(move["round"], move["seat"], move["action"].get("card")) for move in moves}
    number = frame["round"]["number"]
    if frame.get("trick"):
        return [play["seat"] for play in frame["trick"]["plays"] if (number, play["seat"], play["card"]) in cards]
    if frame.get("turn"):
        return [seat for seat, card in enumerate(frame["turn"]["chosen"]) if (number, seat, card) in cards]
    return []
