"""Finished games for history tests: humans' moves are chosen by the game's own bot.

Also positions far into a game for the browser tests: ``played_on`` plays on move by move
through the services (each move a MatchEvent, as in the pages), ``prepared`` in memory.
"""

from __future__ import annotations

import random

from accounts.models import User
from games.catalog import get_bot
from games.models import Match
from games.records import storage
from tables import clock, matchstore
from tables.errors import TableError
from tables.models import Table
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


def bot_choice(match: Match):
    """``choose(engine, state, seat)`` for ``play_out`` and ``prepared``: the game's bot's action."""
    bot = get_bot(match.game)
    return lambda engine, state, seat: bot(engine.view(state, seat), random.Random(f"{match.pk}:{seat}"))


def finished_match(host: User, game: str, *, humans: tuple[User, ...] = (), options: dict | None = None) -> Match:
    """A game played to its end in memory, its last action through the service (``play_out``)."""
    match = started_match(host, game, humans=humans, options=options)
    return play_out(match, bot_choice(match))


def finished_table(host: User, game: str, guests=(), *, stake: int = 0) -> Table:
    """A table whose game has just ended, its last move through the service (``play_out``)."""
    table, match = start_table(host, game, guests=guests, options=SHORT[game], stake=stake)
    play_out(match, bot_choice(match))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


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
    written(match, state)
    play.match_act(
        match_id=match.pk, user=match.match_players.get(seat=seat).user, action=action, version=match.version
    )
    return Match.objects.get(pk=match.pk)


def prepared(match: Match, choose, *, until) -> Match:
    """The game played on in memory, each seat by ``choose``, until ``until(engine, state)``
    holds, and that state written as the match's own (``written``): a position far into a game
    without a transaction per move. The moves made here are not in its history, nor in the
    actions its fair deal is verified from; a page open on it is not pushed the new state."""
    engine, state = state_of(match)
    while not until(engine, state):
        assert not engine.is_over(state), "the game ended before the position was reached"
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, choose(engine, state, seat))
    written(match, state)
    return Match.objects.get(pk=match.pk)


def written(match: Match, state) -> None:
    """``state`` written as the match's own, at the version it was read at, as moves would
    have left it (without their events)."""
    text, rounds = storage.split(match.game, state)
    rounds_text = storage.rounds_write(0, rounds)[0] or ""
    updated = Match.objects.filter(pk=match.pk, version=match.version).update(state=text, rounds=rounds_text)
    assert updated, "the game moved on while its position was prepared"


def played_on(match: Match, *, until=None, humans: bool = True, looks: int = 5000) -> Match:
    """The game played on move by move through the services, as in the pages, until only humans
    are awaited and ``until(engine, state)`` holds (None: to the end), or the game is over: the
    bots' moves (and the house's, for an away seat) by ``bots_act``, as their task makes them;
    each human's by ``match_act`` with the game's bot's choice. With ``humans=False`` no human
    is played for: a human awaited then fails it.

    Beside the live site (tests/browser/), whose worker moves the bots too, whichever move
    comes second is stale: ``bots_act`` does nothing, ``match_act`` refuses it, and the next
    look reads the new state.
    """
    choose = bot_choice(match)
    for _ in range(looks):
        engine, state = state_of(match)
        if match.status != Match.Status.PLAYING:
            return match
        house = {seat for seat, _, is_bot in matchstore.seating(match) if is_bot} | clock.away_seats(match)
        awaited = engine.to_act(state)
        if house.intersection(awaited):
            play.bots_act(match_id=match.pk, version=match.version)
            continue
        if until is not None and until(engine, state):
            return match
        assert humans, f"seats {awaited} are awaited, and no bot or house plays for them"
        seat = awaited[0]
        try:
            play.match_act(
                match_id=match.pk,
                user=match.match_players.get(seat=seat).user,
                action=choose(engine, state, seat),
                version=match.version,
            )
        except TableError:
            if Match.objects.filter(pk=match.pk, version=match.version).exists():
                raise  # refused, and not because another move came first
    raise AssertionError(f"the game did not reach the position in {looks} looks")
