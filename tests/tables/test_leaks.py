"""No hidden card ever reaches another seat or a spectator (issue 6, RULING P2).

Whole games of each engine are played through the real sockets: two humans, the
rest bots, and a spectator. Every fragment each socket receives is scanned for
the cards it mentions; whatever is neither that seat's own hand nor in the
public (spectator) view at that version must not be any other seat's card.
The players and the spectator chat as they play (issue 23), and the chat frames
are scanned too: chat carries only what people typed.
"""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.catalog import get_engine
from games.engines.cards import SUIT_SYMBOL
from games.models import Match, MatchEvent
from notifications import kinds
from notifications.services import notify
from tables.models import DealCommitment
from tests.tables.helpers import start_table
from tests.tables.socket_helpers import connect, drain, receive_until_version, version_of

# Transactional: the consumer works on Channels' threads, on connections of their own.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

SYMBOL_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOL.items()}
CODE = re.compile(r"(?<![A-Za-z0-9])(10|[2-9JQKA])([SHDC])(?![A-Za-z0-9])")
LABEL = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
JOKERS = {"RJ": re.compile(r"\bRJ\b|Red joker"), "BJ": re.compile(r"\bBJ\b|Black joker")}
SITA_NUMBER = re.compile(r'class="number">(\d+)<|name="card" value="(\d+)"')


def cards_mentioned(text: str, game: str) -> set:
    if game == "sita":
        return {int(a or b) for a, b in SITA_NUMBER.findall(text)}
    found = {rank + suit for rank, suit in CODE.findall(text)}
    found |= {rank + SYMBOL_SUIT[symbol] for rank, symbol in LABEL.findall(text)}
    found |= {joker for joker, pattern in JOKERS.items() if pattern.search(text)}
    return found


def public_cards(view: dict, game: str) -> set:
    text = json.dumps(view, ensure_ascii=False)
    if game == "sita":
        return {int(n) for n in re.findall(r"\d+", text)}
    return cards_mentioned(text, game)


class StateLog:
    """The game state at every version, rebuilt from the seed and the event log as it grows."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.engine = get_engine(match.game)
        self.states = [self.engine.new_game(match.players, match.options, match.seed)]
        self.secret = DealCommitment.objects.get(match=match).secret  # RULING P33: hidden until the end
        self.seen: dict[tuple, tuple[set, set]] = {}

    def cards_for(self, version: int, seat: int | None) -> tuple[set, set]:
        """What ``seat`` may see at ``version`` (the public view and its own hand) and what the
        other seats hold; every socket hears each version, so each is worked out once."""
        key = (version, seat)
        if key not in self.seen:
            engine, state, game = self.engine, self.at(version), self.match.game
            allowed = public_cards(engine.view(state, None), game)
            if seat is not None:
                allowed |= set(engine.view(state, seat)["hand"] or [])
            others = set()
            for other in range(self.match.players):
                if other != seat:
                    others |= set(engine.view(state, other)["hand"] or [])
            self.seen[key] = (allowed, others)
        return self.seen[key]

    def at(self, version: int):
        if version >= len(self.states):
            for event in MatchEvent.objects.filter(match=self.match, version__gte=len(self.states)).order_by("version"):
                self.states.append(self.engine.apply(self.states[-1], event.seat, event.action))
        return self.states[version]


def check_no_leak(text: str, seat: int | None, log: StateLog) -> None:
    if text.startswith(('{"chat"', '{"bell"')):
        # A chat frame (issue 23) or a notification's (RULING P69) has no version: it is checked
        # against the game as it is now, and holds the seed and the secret at no point of the game.
        log.match.refresh_from_db()
        check_cards(text, seat, log, log.match.version, where="in a chat or bell frame")
        assert str(log.match.seed) not in text, f"seat {seat} was shown the seed in a chat or bell frame"
        assert log.secret not in text, f"seat {seat} was shown the secret in a chat or bell frame"
        return
    version = version_of(text)
    if log.secret in text:  # RULING P33: in no frame, page or error before the game is over
        assert version is not None and log.engine.is_over(log.at(version)), f"seat {seat} was shown the secret"
    if version is None:
        return
    state = check_cards(text, seat, log, version, where=f"at version {version}")
    # RULING P2: nor the shuffle seed, which the live snapshot carries for its shared blocks.
    if not log.engine.is_over(state):
        assert str(log.match.seed) not in text, f"seat {seat} was shown the seed at version {version}"


def check_cards(text: str, seat: int | None, log: StateLog, version: int, *, where: str):
    """No card that is neither public nor this seat's own at ``version`` and is another seat's."""
    allowed, others = log.cards_for(version, seat)
    leaked = (cards_mentioned(text, log.match.game) - allowed) & others
    assert not leaked, f"seat {seat} was shown {sorted(leaked)} {where}"
    return log.at(version)


CHAT = {0: ("players", "Good luck"), 1: ("players", "Well played"), None: ("spectators", "Nice game to watch")}


def notify_everyone(match: Match, users: dict) -> None:
    """Notifications about the table while it plays (RULING P69): each socket's bell frame is scanned."""
    kind = {0: kinds.YOUR_TURN, 1: kinds.TABLE_STARTING, None: kinds.INVITE}
    for seat, user in users.items():
        notify(
            user=user, kind=kind[seat], table=match.table, actor=users[0] if seat else None, data={"game": match.game}
        )


def check_pages(match: Match, users: dict, log: StateLog) -> None:
    """The table page of each viewer, and the game page and its checks (not found while playing)."""
    for seat, user in users.items():
        client = Client()
        client.force_login(user)
        check_no_leak(client.get(f"/tables/{match.table_id}/").content.decode(), seat, log)
        for url in ("/notifications/", "/notifications/bell/"):
            check_cards(client.get(url).content.decode(), seat, log, log.match.version, where=f"on {url}")
        for url in (f"/games/{match.pk}/", f"/games/{match.pk}/fairness.json", f"/games/{match.pk}/record.json"):
            response = client.get(url)
            assert response.status_code == 404 and log.secret not in response.content.decode()


@pytest.fixture
def unthrottled(monkeypatch):
    """This test sends moves as fast as the server answers; the socket limits (RULING P15,
    tests/tables/test_abuse_sockets.py) are not what it is about."""
    from tables.live import guard

    for name in ("BURST", "RATE", "USER_BURST", "USER_RATE"):
        monkeypatch.setattr(guard, name, 10_000)


@database_sync_to_async
def start(game: str, host, player, options: dict, seat_count: int):
    return start_table(host, game, seat_count=seat_count, options=options, guests=[player])


@pytest.mark.parametrize(
    ("game", "options", "seat_count"),
    [
        ("sitaratas", {"deck": "jokers", "order": "down_up"}, 6),
        ("estimation", {"length": "micro"}, 4),
        ("sita", {"matches": 1}, 4),
    ],
)
async def test_no_fragment_ever_shows_another_seats_cards(
    game, options, seat_count, host, player, outsider, eager_bots, unthrottled
) -> None:
    table, match = await start(game, host, player, options, seat_count)
    pages = database_sync_to_async(check_pages)
    sockets = {
        0: (await connect(table.pk, host))[0],
        1: (await connect(table.pk, player))[0],
        None: (await connect(table.pk, outsider))[0],
    }
    users = {0: host, 1: player}
    log = await database_sync_to_async(StateLog)(match)
    check = database_sync_to_async(check_no_leak)
    rng = random.Random(7)
    received = moves = chat_received = bell_received = 0
    for socket in sockets.values():
        await socket.send_json_to({"command": "chat_sync"})
    rounds = 0
    while True:
        if rounds % 4 == 0:  # everyone says something now and then (issue 23), and is notified
            for seat, (channel, phrase) in CHAT.items():
                said = {"command": "chat_send", "channel": channel, "text": f"{phrase} {rounds}"}
                await sockets[seat].send_json_to(said)
            await database_sync_to_async(notify_everyone)(match, {0: host, 1: player, None: outsider})
        rounds += 1
        # The three sockets drained side by side: each drain waits out its quiet time.
        drained = await asyncio.gather(*(drain(socket, quiet=0.05) for socket in sockets.values()))
        for seat, texts in zip(sockets, drained):
            for text in texts:
                await check(text, seat, log)
                received += 1
                chat_received += text.startswith('{"chat"')
                bell_received += text.startswith('{"bell"')
        match = await database_sync_to_async(Match.objects.get)(pk=match.pk)
        if match.status != Match.Status.PLAYING:
            break
        moves += 1
        if moves % 7 == 1:  # the pages a viewer can load mid-game, and an error sent back
            await pages(match, {0: host, 1: player, None: outsider}, log)
            await sockets[1].send_json_to({"command": "start", "entropy": "zz"})
        state = await database_sync_to_async(log.at)(match.version)
        humans = [seat for seat in log.engine.to_act(state) if seat in users]
        assert humans, "only humans can be awaited once the eager bots have moved"
        seat = humans[0]
        action = rng.choice(log.engine.legal_actions(state, seat))
        await sockets[seat].send_json_to({"command": "act", "action": action, "version": match.version})
        for text in await receive_until_version(sockets[seat], match.version + 1):
            await check(text, seat, log)
    assert received > 20
    assert chat_received > 6
    assert bell_received >= 3
    game_page = await database_sync_to_async(lambda: Client().get(f"/games/{match.pk}/").content.decode())()
    assert log.secret in game_page, "the secret is revealed once the game is over"
    for socket in sockets.values():
        await socket.disconnect()
