"""Reads for the profile page: per game, what a player has played and how it went."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import GAME_CHOICES, Match, MatchPlayer, Rating

RECENT = 10


def profile_stats(*, player: User) -> dict:
    """``games``: one summary per game played; ``recent``: the latest ended games."""
    finished = list(
        MatchPlayer.objects.filter(user=player, match__status=Match.Status.FINISHED)
        .select_related("match").order_by("-match__ended_at")
    )
    ratings = {rating.game: rating for rating in Rating.objects.filter(user=player)}
    summaries = []
    for game, label in GAME_CHOICES:
        mine = [mp for mp in finished if mp.match.game == game]
        if not mine:
            continue
        summaries.append({"game": game, "label": label, "rating": ratings.get(game),
                          **_summary(mine), "figures": FIGURES[game](mine)})
    recent = (
        MatchPlayer.objects.filter(user=player, match__status__in=[Match.Status.FINISHED, Match.Status.DISMISSED,
                                                                    Match.Status.ABORTED])
        .select_related("match").defer("match__state", "match__record").order_by("-match__ended_at")[:RECENT]
    )
    return {"game_stats": summaries, "recent_games": list(recent)}


def _summary(mine: list[MatchPlayer]) -> dict:
    places: dict[int, int] = {}
    for mp in mine:
        places[mp.place] = places.get(mp.place, 0) + 1
    totals = [mp.total for mp in mine if mp.total is not None]
    return {
        "played": len(mine),
        "wins": places.get(1, 0),
        "placements": sorted(places.items()),
        "average": sum(totals) / len(totals) if totals else None,
    }


def _rate(hits: int, tries: int) -> str:
    if not tries:
        return "—"
    return _("%(percent)s%% (%(hits)s/%(tries)s)") % {"percent": number_format(round(100 * hits / tries)),
                                                       "hits": number_format(hits), "tries": number_format(tries)}


def _sitaratas(mine: list[MatchPlayer]) -> list[tuple[str, str]]:
    exact = rounds = sitaratas = 0
    for mp in mine:
        record = mp.match.record
        sitaratas += record.get("sitaratas") == mp.seat
        for round_record in record["rounds"]:
            bid = next((b["bid"] for b in round_record["bids"] if b["seat"] == mp.seat), None)
            if bid is not None and round_record.get("points"):
                rounds += 1
                exact += bid == round_record["tricks_won"][mp.seat]
    return [(_("Exact bids"), _rate(exact, rounds)), (_("Times Sitaratas"), number_format(sitaratas))]


def _estimation(mine: list[MatchPlayer]) -> list[tuple[str, str]]:
    made = rounds = calls_made = calls = dash_made = dashes = 0
    for mp in mine:
        for round_record in mp.match.record["rounds"]:
            if not round_record.get("made"):
                continue
            hit = round_record["made"][mp.seat]
            rounds += 1
            made += hit
            if round_record["caller"] == mp.seat:
                calls += 1
                calls_made += hit
            if round_record["dash_call"][mp.seat]:
                dashes += 1
                dash_made += hit
    return [(_("Made"), _rate(made, rounds)), (_("Caller success"), _rate(calls_made, calls)),
            (_("Dash Call success"), _rate(dash_made, dashes))]


def _sita(mine: list[MatchPlayer]) -> list[tuple[str, str]]:
    penalties = [r["penalties"][mp.seat] for mp in mine for r in mp.match.record["rounds"] if r.get("penalties")]
    average = number_format(sum(penalties) / len(penalties), 1) if penalties else "—"
    return [(_("Average penalty per match"), average), (_("Matches"), number_format(len(penalties)))]


FIGURES = {"sitaratas": _sitaratas, "estimation": _estimation, "sita": _sita}
