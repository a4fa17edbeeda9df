"""The site behind the real nginx, configured as production is (issue 43: deploy/nginx/).

A site of its own (tests/faults/stack.py) with two Daphne processes and a worker, and nginx
rendered from deploy/nginx/sitaratas.conf in front; the site trusts the address nginx passes on
(``DJANGO_BEHIND_PROXY=1``). Clients come from loopback addresses of their own (127.0.0.x): nginx
sees each one's source address, as it would a real client's.

- a game played through nginx: both seats' sockets land on one Daphne by the hash of the table's
  path, a socket that reconnects lands there again, and when that process is killed they
  reconnect through nginx to the other and the game goes on, nothing lost or doubled;
- a flood of socket openings from one address is refused first by the site (close code 4429,
  RULING P51) and then by nginx itself (HTTP 429), while another address still gets in: the site
  counts each client's own address, not the proxy's;
- sign-ups past the site's per-address limit (allauth, 20 an hour) are refused by the site
  (its 429 page), another address still signs up, and a flood of the login page is refused by
  nginx (its 429).
"""

from __future__ import annotations

import asyncio
import http.client
import re
import time
import urllib.parse
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
import websockets

from config import proxy
from tables.live.guard import HANDSHAKE_BURST
from tests.faults.helpers import ReconnectingPlayer, check_log_and_ledgers, scene
from tests.faults.stack import Stack, say
from tests.helpers import needs_tool
from tests.tables.multiprocess_helpers import Game

pytestmark = [
    pytest.mark.slow,
    needs_tool(proxy.nginx_binary(), "nginx is not installed (apt-get install nginx)"),
]

BEHIND_NGINX = {"DJANGO_BEHIND_PROXY": "1"}
SOCKET_LINE = re.compile(r'^(\S+) \[[^]]*\] "GET (/ws/tables/\d+/) HTTP/1.1" (\d+) \d+ upstream=([^ ,]+(?:, [^ ,]+)*) ')


def socket_log(front: proxy.LocalProxy, path: str) -> list[tuple[str, int, str]]:
    """Each socket of ``path`` nginx logged (it logs one when it closes): (client, status, the
    Daphne it ended on)."""
    if not front.access_log.exists():
        return []
    found = []
    for line in front.access_log.read_text().splitlines():
        match = SOCKET_LINE.match(line)
        if match and match.group(2) == path:
            found.append((match.group(1), int(match.group(3)), match.group(4).split(", ")[-1]))
    return found


@pytest.mark.parametrize("stack", [BEHIND_NGINX], indirect=True)
def test_a_game_through_nginx_keeps_a_tables_sockets_on_one_daphne(stack: Stack) -> None:
    stack.start_daphne()
    stack.start_daphne()
    stack.start_worker()
    front = stack.start_front()
    found = scene(stack)
    path = f"/ws/tables/{found['table']}/"
    game = Game(found["table"], found["sessions"], [front.port], target=10**9, player_class=ReconnectingPlayer)
    for seat, player in enumerate(game.players):
        player.local_address = f"127.0.0.{seat + 2}"
    events: dict[str, object] = {}

    def on_version(version: int) -> None:
        # Each player's page reconnects once (a closed laptop lid), one after the other.
        for seat, at in ((0, 4), (1, 8)):
            if version >= at and f"reconnected{seat}" not in events and game.players[seat].ws is not None:
                events[f"reconnected{seat}"] = version
                asyncio.ensure_future(game.players[seat].ws.close())
        if version >= 12 and "killing" not in events:
            events["killing"] = asyncio.get_running_loop().run_in_executor(None, kill_the_tables_daphne, version)
        if "killed" in events and game.target == 10**9:
            game.target = version + 10

    def kill_the_tables_daphne(version: int) -> None:
        deadline = time.monotonic() + 10
        while len(socket_log(front, path)) < 2:  # the two reconnected sockets' first ones, once closed
            assert time.monotonic() < deadline, "nginx logged no closed socket of the table"
            time.sleep(0.1)
        serving = {upstream for _, _, upstream in socket_log(front, path)}
        assert len(serving) == 1, f"the table's sockets went to several processes: {serving}"
        events["upstream"] = upstream = serving.pop()
        index = stack.ports.index(int(upstream.rsplit(":", 1)[1]))
        events["logged_before"] = len(socket_log(front, path))
        stack.kill_daphne(index)
        say(f"at version {version}: SIGKILLed the Daphne that held the table's sockets ({upstream})")
        events["killed"] = version

    game.on_version = on_version
    asyncio.run(game.play(timeout=90))
    assert "killed" in events

    time.sleep(0.5)  # nginx logs a socket as it closes
    logged = socket_log(front, path)
    before, after = logged[: events["logged_before"]], logged[events["logged_before"] :]
    served_before = {upstream for _, _, upstream in before}
    # Until the kill: both players' first sockets and their reconnections, all on one process
    # (101: a socket that opened; 499: an opening its client gave up waiting for, on a busy machine).
    on_the_first = [entry for entry in logged if entry[2] == events["upstream"]]
    assert len(on_the_first) >= 4 and all(status in (101, 499) for _, status, _ in on_the_first), logged
    assert all(upstream == events["upstream"] for _, _, upstream in before), before
    say(
        f"checked: {len(on_the_first)} sockets of the table (both seats, each reconnected once) all went to "
        f"{served_before.pop()} by the hash of {path}"
    )
    others = {upstream for _, _, upstream in after if upstream != events["upstream"]}
    assert len(others) == 1, after
    assert {client for client, _, _ in logged} == {"127.0.0.2", "127.0.0.3"}
    say(f"checked: after the kill both seats reconnected through nginx to {others.pop()} and played on")
    for player in game.players:
        assert max(player.seen) >= events["killed"] + 5
    check_log_and_ledgers(stack, found)


async def open_socket(port: int, path: str, client: str, session: str | None = None) -> int | str:
    """Open a socket from ``client`` and say how it went: the HTTP status if it was refused at the
    opening (nginx's 429, or the site's 403: past the address's openings, RULING P51, or to a
    visitor without a login), the close code if the site closed it within 2 s, or "open"."""
    try:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}{path}",
            origin=f"http://127.0.0.1:{port}",
            local_addr=(client, 0),
            open_timeout=5,
            additional_headers={"Cookie": f"sessionid={session}"} if session else {},
        ) as ws:
            try:
                async with asyncio.timeout(2):
                    async for _ in ws:
                        pass
            except TimeoutError:
                return "open"
            except websockets.ConnectionClosed:
                pass
            return ws.close_code
    except websockets.InvalidStatus as refused:
        return refused.response.status_code


@pytest.mark.parametrize("stack", [BEHIND_NGINX], indirect=True)
def test_per_address_limits_through_nginx(stack: Stack) -> None:
    stack.start_daphne()
    stack.start_daphne()
    front = stack.start_front()
    found = stack.scenario("start", "estimation", "2", "2")
    path = f"/ws/tables/{found['table']}/"

    async def flood() -> list[int | str]:
        return await asyncio.gather(*(open_socket(front.port, path, "127.0.0.20") for _ in range(70)))

    outcomes = asyncio.run(flood())
    counted = Counter(outcomes)
    say(f"70 socket openings at once from 127.0.0.20, without a login: {dict(counted)}")
    assert counted[429] >= 20, "nginx refused too few of the flood's openings (limit_req: burst 40)"
    assert set(counted) <= {429, 403}, "every opening refused at its handshake: none accepted to be told"
    # RULING P51: past its burst the site refused at the handshake, and tells the page why.
    status, answer = get(front.port, "127.0.0.20", "/tables/sockets/refused/")
    assert status == 200 and "Too many table windows opened from your network" in answer["_body"], answer
    say(
        f"checked: nginx refused {counted[429]} with HTTP 429 before any Daphne saw them; the site refused "
        f"the rest at the handshake (403), past its burst of {HANDSHAKE_BURST} by the address's limit, which "
        "/tables/sockets/refused/ then tells the page"
    )
    elsewhere = asyncio.run(open_socket(front.port, path, "127.0.0.21", session=found["sessions"][0]))
    assert elsewhere == "open"
    say("checked: a player's socket from 127.0.0.21 meanwhile opened: the site counts each client's own address")

    started = time.monotonic()
    signups = [sign_up(front.port, "127.0.0.30", f"flood{number}") for number in range(21)]
    assert signups[:20] == [302] * 20 and signups[20] == (429, "site"), signups
    say(
        f"checked: from 127.0.0.30, 20 sign-ups went through and the 21st was refused by the site (allauth's 429), "
        f"in {time.monotonic() - started:.0f} s"
    )
    assert sign_up(front.port, "127.0.0.31", "elsewhere") == 302
    say("checked: a sign-up from 127.0.0.31 meanwhile went through")

    # A script posting the login form as fast as it can (without even its CSRF token: the site
    # answers 403 to what nginx lets through, at no password hash's cost).
    with ThreadPoolExecutor(8) as pool:
        logins = Counter(pool.map(lambda _: post_login(front.port, "127.0.0.40"), range(60)))
    say(f"60 logins posted at once from 127.0.0.40: {dict(logins)}")
    assert logins[(429, "nginx")] >= 20 and logins[403] >= 20, logins
    assert log_in(front.port, "127.0.0.41", "nobody") == 200
    say(
        f"checked: nginx refused {logins[(429, 'nginx')]} of them with its 429 before the site saw them; "
        "a login from 127.0.0.41 meanwhile was answered (wrong password: the form again)"
    )


def get(port: int, client: str, path: str, headers: dict | None = None) -> tuple[int | tuple[int, str], dict]:
    """A GET from ``client``: its status (a 429 says who refused: "nginx" or "site") and cookies."""
    return request(port, client, "GET", path, headers=headers or {})


def request(port: int, client: str, method: str, path: str, *, headers: dict, body: str = ""):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(client, 0))
    try:
        connection.request(method, path, body=body, headers={"Host": f"127.0.0.1:{port}", **headers})
        response = connection.getresponse()
        text = response.read()
        set_cookies = [value for name, value in response.getheaders() if name.lower() == "set-cookie"]
        cookies = dict(value.split(";", 1)[0].split("=", 1) for value in set_cookies)
        status = response.status
        if status == 429:
            return (429, "nginx" if b"<center>nginx" in text else "site"), cookies
        return status, {**cookies, "_body": text.decode("utf-8", "replace")}
    finally:
        connection.close()


def send_form(port: int, client: str, path: str, fields: dict[str, str]) -> int | tuple[int, str]:
    """Load the form at ``path`` from ``client`` and send it with ``fields``: the answer's status."""
    status, page = get(port, client, path)
    assert status == 200, status
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page["_body"]).group(1)
    status, _ = request(
        port,
        client,
        "POST",
        path,
        headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={page['csrftoken']}"},
        body=urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}),
    )
    return status


def sign_up(port: int, client: str, name: str) -> int | tuple[int, str]:
    """Sign up as ``name``: 302 when the account was made."""
    password = "a long enough password 1"
    fields = {"username": name, "email": f"{name}@example.com", "password1": password, "password2": password}
    return send_form(port, client, "/accounts/signup/", fields)


def post_login(port: int, client: str) -> int | tuple[int, str]:
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    return request(port, client, "POST", "/accounts/login/", headers=headers, body="login=x&password=y")[0]


def log_in(port: int, client: str, name: str) -> int | tuple[int, str]:
    """A login with a wrong password: 200 (the form again, with its error) unless refused."""
    return send_form(port, client, "/accounts/login/", {"login": name, "password": "not the password"})
