"""The site survives its parts failing mid-game (issue 28).

Each test runs a whole site of its own (tests/faults/stack.py: PostgreSQL, Redis, Daphne, a
Celery worker with beat), seats two players who play over WebSockets by pressing the buttons
the server pushes (the clients of tests/tables/multiprocess_helpers.py, reconnecting as the page
does: a random wait up to a doubling ceiling) and two bots, breaks one part mid-game, and
plays on. Afterwards ``manage.py verify_matches`` replays the game's event log against its
stored state and checks the pass ledger: no move lost, none applied twice, nothing
half-written. Each prints what it did and what it checked.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from tests.faults.helpers import check_log_and_ledgers, current_version, play, scene
from tests.faults.stack import Stack, say

pytestmark = pytest.mark.slow


def bot_moves_after(stack: Stack, found: dict, version: int) -> int:
    return stack.sql(
        "SELECT count(*) FROM games_matchevent e JOIN accounts_user u ON u.id = e.user_id "
        "WHERE e.match_id = %s AND e.version > %s AND u.is_bot",
        found["match"],
        version,
    )[0][0]


def test_redis_restarted_mid_game(stack) -> None:
    stack.start_daphne()
    stack.start_worker()
    found = scene(stack)
    back = {}

    def restart_redis() -> None:
        stack.stop_redis()
        say("killed Redis (channel layer and broker) mid-game")
        time.sleep(2)
        stack.start_redis()
        back["at"], back["version"] = time.monotonic(), current_version(stack, found)
        say(f"started Redis again on the same port, empty; the game stood at version {back['version']}")

    game = play(stack, found, fault_at=8, fault=restart_redis, moves_after=16)

    for player in game.players:
        healed = next(
            (when for when, version in player.views if when >= back["at"] and version >= back["version"]), None
        )
        assert healed is not None and healed - back["at"] <= 10, f"seat {player.seat} was not whole again in 10 s"
        say(f"checked: seat {player.seat + 1}'s view was whole again {healed - back['at']:.1f} s after Redis was back")
    assert bot_moves_after(stack, found, back["version"]) > 0
    say(f"checked: the bots moved {bot_moves_after(stack, found, back['version'])} time(s) after the restart")
    check_log_and_ledgers(stack, found)


def awaited(stack: Stack, found: dict) -> tuple[int, list[int]]:
    """The match's version and the seats it waits for, from its stored state (engines are plain Python)."""
    from games.catalog import get_engine

    game, version, text = stack.sql("SELECT game, version, state FROM games_match WHERE id = %s", found["match"])[0]
    engine = get_engine(game)
    return version, list(engine.to_act(engine.loads(text)))


def test_postgres_restarted_mid_game(stack) -> None:
    stack.start_daphne()
    stack.start_worker()
    found = scene(stack, "sitaratas")  # RULING P6: each player's pass is used at the start
    state = {}

    async def break_before_a_move(game, player) -> None:
        # The fault comes between a player's click and its arrival: the move is in flight while
        # PostgreSQL is down.
        if game.fault_version is None and max(player.seen) >= 8:
            game.fault_version = max(player.seen)
            await asyncio.get_running_loop().run_in_executor(None, stack.stop_postgres)
            say(
                f"stopped PostgreSQL (immediate shutdown: every connection cut) as seat {player.seat + 1} "
                f"pressed a button at version {game.fault_version}"
            )

            def start_again() -> None:
                time.sleep(3)
                stack.start_postgres()
                state["back"] = time.monotonic()
                say("started PostgreSQL again after 3 s")
                game.fault_done.set()

            threading.Thread(target=start_again, daemon=True).start()

    game = play(stack, found, fault_at=8, fault=None, moves_after=16, before_press=break_before_a_move)

    retried = sum(player.retried for player in game.players)
    # The two allowed outcomes: the move in flight was refused with a message and pressed
    # again, or it had committed before the stop and is applied once (checked below in the log).
    if retried:
        say(
            f"checked: the move in flight was refused with a message ({retried} time(s) while the database was "
            "down) and pressed again by its player"
        )
    else:
        say("the move in flight had committed before the stop: it must be in the log exactly once (below)")
    version = game.fault_version
    assert bot_moves_after(stack, found, version) > 0
    say(f"checked: the bots moved {bot_moves_after(stack, found, version)} time(s) after the restart")
    passes = dict(
        stack.sql("SELECT reason, count(*) FROM payouts_transfer WHERE match_id = %s GROUP BY reason", found["match"])
    )
    assert passes == {"pass_use": 2}
    say(f"checked: the game's ledger holds each player's pass used once: {passes}")
    check_log_and_ledgers(stack, found)


@pytest.mark.parametrize("stack", [{"BOT_DELAY_SECONDS": "2", "DISMISSAL_VOTE_SECONDS": "2"}], indirect=True)
def test_celery_worker_killed_while_it_holds_a_bot_task(stack) -> None:
    stack.start_daphne()
    stack.start_worker()
    found = stack.scenario("start", "sitaratas", "2", "1")
    say(f"started table {found['table']}: Sitaratas, two players on WebSockets and a bot whose task waits 2 s")
    bot_seat = 2
    checked = {}

    def kill_while_the_bot_waits() -> None:
        deadline = time.monotonic() + 30
        while bot_seat not in awaited(stack, found)[1]:
            assert time.monotonic() < deadline, "the bot was never awaited"
            time.sleep(0.05)
        version = awaited(stack, found)[0]
        time.sleep(0.8)  # the worker has taken the task; it runs at its countdown, late-acknowledged
        stack.kill_worker()
        checked["version"] = version
        say(f"SIGKILLed the Celery worker holding the bot's task for version {version} (the bot was awaited)")
        vote = stack.scenario("vote", str(found["match"]))
        say(f"a player proposed a dismissal vote with no worker running; its deadline is {vote['deadline']}")
        time.sleep(4)
        status = stack.sql("SELECT status, deadline < now() FROM tables_dismissalvote WHERE id = %s", vote["vote"])[0]
        assert awaited(stack, found)[0] == version and status == ("open", True)
        say("checked: 4 s later, with no worker, the bot had not moved and the vote was open past its deadline")
        stack.start_worker()
        say("started a new worker (with beat)")
        started = time.monotonic()
        while stack.sql("SELECT status FROM tables_dismissalvote WHERE id = %s", vote["vote"])[0][0] == "open":
            assert time.monotonic() - started < 30, "the vote's deadline was not enforced"
            time.sleep(0.2)
        say(f"checked: the new worker closed the overdue vote {time.monotonic() - started:.1f} s after it started")
        while awaited(stack, found)[0] == version:
            assert time.monotonic() - started < 30, "the bot never moved"
            time.sleep(0.2)
        bot_events = stack.sql(
            "SELECT seat FROM games_matchevent WHERE match_id = %s AND version = %s", found["match"], version + 1
        )
        assert bot_events == [(bot_seat,)]
        say(f"checked: the bot made the move of version {version + 1}, once")

    game = play(stack, found, fault_at=2, fault=kill_while_the_bot_waits, moves_after=8, timeout=110)
    assert game.fault_done.is_set() and "version" in checked
    check_log_and_ledgers(stack, found)


def test_a_daphne_killed_and_another_restarted_while_the_others_run(stack) -> None:
    stack.start_daphne()
    stack.start_daphne()
    stack.start_worker()
    found = scene(stack)

    def kill_one_restart_it_and_kill_the_other() -> None:
        stack.kill_daphne(0)
        say("SIGKILLed Daphne 1 of 2 mid-game: its players reconnect to Daphne 2")
        time.sleep(3)
        stack.start_daphne(0)
        say("started Daphne 1 again on its port")
        time.sleep(2)
        stack.kill_daphne(1)
        say("SIGKILLed Daphne 2: every player reconnects to the restarted Daphne 1")

    game = play(stack, found, fault_at=8, fault=kill_one_restart_it_and_kill_the_other, moves_after=16)

    for player in game.players:
        assert player.ports_used[-1] == stack.ports[0] and len(player.ports_used) >= 2
    say(
        f"checked: both players reconnected (after random waits) and finished on the restarted Daphne: "
        f"{[len(player.ports_used) - 1 for player in game.players]} reconnection(s)"
    )
    check_log_and_ledgers(stack, found)
