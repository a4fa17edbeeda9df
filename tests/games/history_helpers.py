"""Finished games for history tests: humans' moves are chosen by the game's own bot."""

from __future__ import annotations

import random

from accounts.models import User
from games import storage
from games.bots import get_bot
from games.models import Match
from tables.services import play
from tests.tables.helpers import play_bots_until_human, start_table, state_of

SHORT = {
    "sitaratas": {"deck": "classic", "order": "up_down"},
    "estimation": {"length": "micro"},
    "sita": {"matches": 2},
}


def started_match(host: User, game: str, *, humans: tuple[User, ...] = (), options: dict | None = None) -> Match:
    return start_table(host, game, guests=humans, options=options if options is not None else SHORT[game])[1]


def play_to_end(match: Match, *, stop_after: int | None = None) -> Match:
    """Play every seat (bots through the service, humans with the bot's choice) to the end."""
    moves = 0
    while True:
        match = play_bots_until_human(match)
        if match.status != Match.Status.PLAYING or (stop_after is not None and moves >= stop_after):
            return match
        engine, state = state_of(match)
        seat = engine.to_act(state)[0]
        user = match.match_players.get(seat=seat).user
        action = get_bot(match.game)(engine.view(state, seat), random.Random(match.version))
        play.match_act(match_id=match.pk, user=user, action=action, version=match.version)
        moves += 1


def finished_match(host: User, game: str, *, humans: tuple[User, ...] = (), options: dict | None = None) -> Match:
    """A game played to its end in memory, its last action through the service (``play_out``)."""
    match = started_match(host, game, humans=humans, options=options)
    return play_out(
        match,
        lambda engine, state, seat: get_bot(match.game)(engine.view(state, seat), random.Random(f"{match.pk}:{seat}")),
    )


def play_out(match: Match, choose) -> Match:
    """The game played in memory up to its last action, which is played through ``match_act``,
    so the settle path (places, totals, payouts, ratings) is the real one.

    Per-move transactions would make a whole Sitaratas take minutes: the state before the last
    action is written as the match's own, as moves would have left it (without their events).
    ``choose(engine, state, seat)`` gives a seat's action.
    """
    engine, state = state_of(match)
    while True:
        seat = engine.to_act(state)[0]
        action = choose(engine, state, seat)
        after = engine.apply(state, seat, action)
        if engine.is_over(after):
            break
        state = after
    text, rounds = storage.split(match.game, state)
    Match.objects.filter(pk=match.pk).update(state=text, rounds=storage.rounds_write(0, rounds)[0] or "")
    play.match_act(
        match_id=match.pk, user=match.match_players.get(seat=seat).user, action=action, version=match.version
    )
    return Match.objects.get(pk=match.pk)
