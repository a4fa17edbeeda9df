"""Reads for game reviews (issue 42): the game page's summary, the replay's marks and values,
the profile's accuracy, the JSON of a game's reviews; and what the review run
(``games.services.reviews``) and the practice tables' hints read: a seat's decisions from the
action log, and each decision's generator.

Who may read a player's review is the player's choice (``User.review_visibility``; default: the
players of that game); the filter lives here, once, and every page asks through it. What a
review holds is the seat's own action, the actions it could have played and their values: all
from the seat's view at that decision (RULING P63), so a review never shows another seat's cards.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db.models import Avg, Count, Prefetch
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from accounts.models import User

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser
from accounts.names import public_name
from accounts.selectors import users_named_publicly
from games import catalog
from games.catalog import get_engine
from games.models import Match, MatchEvent, Review, ReviewDecision
from games.selectors import history

COSTLIEST = 3
RECENT_REVIEWS = 20


def may_see(*, owner: User, viewer: User | AnonymousUser | None, match: Match | None = None) -> bool:
    """Whether ``viewer`` may read ``owner``'s reviews (of ``match``; None: across games)."""
    if viewer is not None and viewer.is_authenticated and (viewer.pk == owner.pk or viewer.is_staff):
        return True
    choice = owner.review_visibility
    if choice == User.ReviewVisibility.EVERYONE:
        return True
    if choice == User.ReviewVisibility.PLAYERS and match is not None and viewer is not None:
        return viewer.is_authenticated and match.match_players.filter(user_id=viewer.pk).exists()
    return False


def visible_reviews(*, match: Match, viewer: User | AnonymousUser | None) -> list[Review]:
    return [
        review
        for review in Review.objects.filter(match=match)
        # RULING P54: every name as public lists show it (a player muted site-wide is "Player <id>").
        .prefetch_related(Prefetch("user", queryset=users_named_publicly()))
        .order_by("seat")
        if may_see(owner=review.user, viewer=viewer, match=match)
    ]


def action_text(action: Mapping[str, Any]) -> str:
    """An action in a player's words."""
    kind = action.get("type")
    if kind == "play":
        joker = {"high": _("high"), "low": _("low")}.get(action.get("joker", ""), "")
        card = history.card_text(action["card"])  # 9♣, as the table and the clock's rows show it
        return _("%(card)s (%(joker)s)") % {"card": card, "joker": joker} if joker else card
    if kind == "bid":
        return _("bid %(number)s") % {"number": action["bid"]}
    if kind == "estimate":
        if "trump" in action:
            return _("Super Call %(number)s %(trump)s") % {
                "number": action["value"],
                "trump": history.trump_text(action["trump"]),
            }
        return _("estimate %(number)s") % {"number": action["value"]}
    if kind == "call":
        return _("call %(number)s %(trump)s") % {
            "number": action["tricks"],
            "trump": history.trump_text(action["trump"]),
        }
    if kind == "pass":
        return _("pass")
    if kind == "dash_call":
        return _("Dash Call")
    if kind == "decline":
        return _("no Dash Call")
    if kind == "choose":
        return _("card %(number)s") % {"number": action["card"]}
    if kind == "take_row":
        return _("take row %(number)s") % {"number": action["row"] + 1}
    return str(action)


def why_text(game: str, *, played: str, best: str, loss: float, samples: int) -> str:
    """Why a decision lost points, in a player's words: what the bot's choice scored more on
    average over the sampled deals (the other hands dealt afresh, consistent with what the player
    saw). An average over deals like this one, not what this one deal gave: an action that came
    off this time may still lose on average (RULING P64)."""
    amounts = {"best": best, "played": played, "amount": number_format(loss, 1), "count": number_format(samples)}
    if catalog.get(game).numbered_cards:
        return (
            _(
                "With these cards, %(best)s took about %(amount)s fewer penalty points than %(played)s "
                "on average over %(count)s deals like this one."
            )
            % amounts
        )
    return (
        _(
            "With this hand, %(best)s scored about +%(amount)s more than %(played)s on average over "
            "%(count)s deals like this one."
        )
        % amounts
    )


def where_text(game: str, round_number: int, moment: int) -> str:
    if catalog.get(game).numbered_cards:
        return _("Match %(round)s, turn %(moment)s") % {"round": round_number, "moment": moment}
    if moment:
        return _("Round %(round)s, trick %(moment)s") % {"round": round_number, "moment": moment}
    return _("Round %(round)s, before play") % {"round": round_number}


def _decision(item: ReviewDecision, game: str) -> dict:
    played, best = action_text(item.action), action_text(item.best_action)
    return {
        "index": item.index,
        "where": where_text(game, item.round, item.moment),
        "round": item.round,
        "moment": item.moment,
        "played": played,
        "best": best,
        "loss": item.loss,
        "samples": item.samples,
        "why": why_text(game, played=played, best=best, loss=item.loss, samples=item.samples),
        "mistake": item.mistake,
        "blunder": item.blunder,
        "same": item.loss == 0,
    }


def match_review_summary(*, match: Match, viewer: User | AnonymousUser | None) -> list[dict]:
    """Per reviewed player the viewer may see: the figures and their costliest decisions."""
    rows = []
    for review in visible_reviews(match=match, viewer=viewer):
        row = {"review": review, "name": public_name(review.user), "done": review.status == Review.Status.DONE}
        if row["done"]:
            costliest = review.items.filter(loss__gt=0).order_by("-loss", "index")[:COSTLIEST]
            row["costliest"] = [_decision(item, match.game) for item in costliest]
        rows.append(row)
    return rows


def step_of(steps: list[dict], round_number: int, moment: int) -> int | None:
    """The replay step showing that round's trick or turn (0: its deal)."""
    for index, step in enumerate(steps):
        if step["round"]["number"] == round_number and step.get("trick_number", step.get("turn_number")) == moment:
            return index
    return None


def replay_review(*, match: Match, viewer: User | AnonymousUser | None, steps: list[dict], step: int) -> dict:
    """The replay's review: a mark for each visible mistake and blunder (with its step), and for
    this step every visible decision with the values of its actions."""
    reviews = [review for review in visible_reviews(match=match, viewer=viewer) if review.status == Review.Status.DONE]
    names = {review.pk: public_name(review.user) for review in reviews}
    seats = {review.pk: review.seat for review in reviews}
    marks, here = [], []
    lower = catalog.get(match.game).numbered_cards
    for item in ReviewDecision.objects.filter(review__in=reviews).order_by("version"):
        at = step_of(steps, item.round, item.moment)
        shown = {**_decision(item, match.game), "name": names[item.review_id], "seat": seats[item.review_id]}
        if item.mistake or item.blunder:
            marks.append({**shown, "step": at})
        if at == step:
            shown["values"] = [
                {
                    "action": action_text(row["action"]),
                    "points": row["points"],
                    "first": row["first"],
                    "played": row["action"] == item.action,
                    "best": index == 0,
                }
                for index, row in enumerate(item.values)
            ]
            here.append(shown)
    return {"reviewed": bool(reviews), "marks": marks, "decisions": here, "lower_is_better": lower}


def reviews_json(*, match: Match, viewer: User | AnonymousUser | None) -> list[dict]:
    """The visible reviews of a game as plain data: figures and every decision with its values."""
    out = []
    for review in visible_reviews(match=match, viewer=viewer):
        items = review.items.order_by("index") if review.status == Review.Status.DONE else []
        out.append(
            {
                "seat": review.seat,
                "player": public_name(review.user),
                "status": review.status,
                "accuracy": review.accuracy,
                "average_loss": review.average_loss,
                "mistakes": review.mistakes,
                "blunders": review.blunders,
                "decisions": [
                    {
                        "index": item.index,
                        "round": item.round,
                        "moment": item.moment,
                        "action": item.action,
                        "value": item.value,
                        "best_action": item.best_action,
                        "best_value": item.best_value,
                        "loss": item.loss,
                        "mistake": item.mistake,
                        "blunder": item.blunder,
                        "values": item.values,
                    }
                    for item in items
                ],
            }
        )
    return out


def accuracy_by_game(*, player: User, viewer: User | AnonymousUser | None) -> list[dict]:
    """The profile's figure: per game, the average accuracy over the player's latest reviewed
    games (at most ``RECENT_REVIEWS`` of each). Only if the viewer may see across games."""
    if not may_see(owner=player, viewer=viewer):
        return []
    rows = []
    for game in catalog.GAMES:
        latest = Review.objects.filter(
            user=player, match__game=game.name, status=Review.Status.DONE, accuracy__isnull=False
        ).order_by("-match__ended_at")[:RECENT_REVIEWS]
        figures = Review.objects.filter(pk__in=latest.values("pk")).aggregate(
            accuracy=Avg("accuracy"), games=Count("id"), mistakes=Avg("mistakes"), blunders=Avg("blunders")
        )
        if figures["games"]:
            rows.append({"game": game.name, "label": game.title, **figures})
    return rows


@dataclass(frozen=True)
class Decision:
    """One of a seat's decisions with a choice: the view it was made on, and what was played."""

    version: int
    view: dict
    action: dict
    # The version at which the decision opened (``Match.turn_version`` then): the others' SITA
    # choices locked in before this one's move change it not, so neither do they its generator.
    opened: int = 0


def decisions_of(match: Match, seat: int, user_id: int) -> list[Decision]:
    """The seat's own decisions with more than one legal action, each with the seat's view at
    that moment, from the game's seed and action log (the log is the truth). Moves the house
    made for an absent player (RULING P11) are not the player's."""
    engine = get_engine(match.game)
    state = engine.new_game(match.players, match.options, match.seed)
    awaited, opened = set(engine.to_act(state)), 0
    found: list[Decision] = []
    for event in (
        MatchEvent.objects.filter(match=match)
        .order_by("version")
        .only("version", "seat", "user_id", "action", "by_clock")
    ):
        if (
            event.seat == seat
            and event.user_id == user_id
            and not event.by_clock
            and len(engine.legal_actions(state, seat)) > 1
        ):
            found.append(Decision(event.version, engine.view(state, seat), event.action, opened))
        state = engine.apply(state, event.seat, event.action)
        now_awaited = set(engine.to_act(state))
        if not now_awaited <= awaited:
            opened = event.version  # someone new is awaited: a new turn opens (as tables/services/steps.py counts)
        awaited = now_awaited
    return found


def secret_rng(purpose: str, match_id: int, seat: int, version: int) -> random.Random:
    """A decision's generator for a review or a hint: from the server's secret, never from the
    deal's seed, so nobody can work the samples out; the same for the same decision."""
    key = settings.SECRET_KEY.encode()
    digest = hmac.new(key, f"{purpose}:{match_id}:{seat}:{version}".encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))
