"""Hints at a practice table (issue 42, RULING P65): the strong bot's preferred action for the
asking seat, and one line why, weighed from that seat's own view (games.bots.evaluate).

Only at a practice table (unrated, every other seat a bot), only for its seated player, only
on their turn; anywhere else a hint would help one human against another, or leak nothing
useful, and is refused with the reason. The answer goes back to the asking socket alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from accounts.models import User
from games import catalog
from games.bots.evaluate import Evaluation
from games.catalog import evaluate, get_engine
from games.models import Match
from games.selectors.reviews import action_text, secret_rng
from tables import matchstore
from tables.caching import BoundedCache
from tables.errors import TableError


@dataclass(frozen=True)
class Hint:
    action: Mapping[str, object]
    text: str  # the bot's choice and why, in one line


# The same position gives the same hint (RULING P65): its generator is fixed by the match, the seat
# and the version at which the seat's decision opened (``Match.turn_version``), never the match's
# latest version, so the others locking in their SITA choices meanwhile change no hint. A player
# clicking again is answered from here, not by sampling again on the socket's pool thread.
_EVALUATIONS: BoundedCache[Evaluation] = BoundedCache(256)


def _evaluated(match: Match, seat: int, view: dict) -> Evaluation:
    opened = match.turn_version  # the asking seat is awaited: its decision opened then
    key = (match.pk, match.seed, seat, opened, settings.HINT_SAMPLES)  # the seed: ids restart in tests
    evaluation = _EVALUATIONS.get(key)
    if evaluation is None:
        rng = secret_rng("hint", match.pk, seat, opened)
        evaluation = _EVALUATIONS.put(key, evaluate(view, rng, samples=settings.HINT_SAMPLES))
    return evaluation


def hint_for(*, match_id: int, user: User) -> Hint:
    """The strong bot's preferred action for ``user``'s seat now, or TableError saying why not."""
    match = Match.objects.select_related("table").filter(pk=match_id).first()
    if match is None:
        raise TableError(_("The game has not started."))
    if not match.table.practice:
        raise TableError(_("Hints are given only at practice tables: unrated, with bots in every other seat."))
    seats = {seat: (user_id, is_bot) for seat, user_id, is_bot in matchstore.seating(match)}
    mine = [seat for seat, (user_id, _bot) in seats.items() if user_id == user.pk]
    if not mine:
        raise TableError(_("You are not playing at this table."))
    if any(not is_bot and user_id != user.pk for user_id, is_bot in seats.values()):
        raise TableError(_("Hints are given only when every other seat is a bot."))
    if match.status != Match.Status.PLAYING:
        raise TableError(_("This game is over."))
    seat = mine[0]
    engine = get_engine(match.game)
    state = matchstore.loaded(match.game, match.pk, match.version, match.state)
    if seat not in engine.to_act(state):
        raise TableError(_("A hint is given only on your turn."))
    view = engine.view(state, seat)
    legal = view["legal_actions"]
    if len(legal) == 1:
        return Hint(legal[0], _("%(action)s is your only legal move.") % {"action": action_text(legal[0])})
    evaluation = _evaluated(match, seat, view)
    best = evaluation.best
    if len(evaluation.values) == 1:
        return Hint(best.action, _("The bot would play %(action)s.") % {"action": action_text(best.action)})
    second = evaluation.values[1]
    amounts = {
        "action": action_text(best.action),
        "value": number_format(best.points, 1),
        "other": action_text(second.action),
        "other_value": number_format(second.points, 1),
    }
    if catalog.get(match.game).numbered_cards:
        text = _(
            "The bot would play %(action)s: about %(value)s penalty points expected in all, "
            "against %(other_value)s for %(other)s, the next best."
        )
    else:
        text = _(
            "The bot would play %(action)s: about %(value)s points expected in all, "
            "against %(other_value)s for %(other)s, the next best."
        )
    return Hint(best.action, text % amounts)
