"""A table socket follows its own session across a password change (issue 34, RULING P58).

Changing one's own password keeps that browser signed in under a new session key; its sockets
stay open, and every other session of the account ends, its sockets closed as logged out.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from accounts import sessions
from tables.live import guard
from tables.services import lobby
from tests.tables.helpers import open_table
from tests.tables.socket_helpers import closed_with, connect, connect_with_cookie, drain, nothing_before, still_open

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "Kolm-Kaardi-Trikk-9"


def signed_in_browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def cookie_of(client: Client) -> str:
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def change_password(client: Client) -> str:
    """Through allauth's own page, as the player would; returns the browser's session key after."""
    before = client.cookies[settings.SESSION_COOKIE_NAME].value
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": "a-long-pass-phrase", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    after = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert after != before  # Django rotates the key of the session that changed it
    return after


async def no_logout_notice(socket: WebsocketCommunicator, table, host) -> None:
    """The socket was not told it is logged out: a lobby change made after the password change
    is pushed to it with no such notice before it (the notice would have come first)."""
    bot_add = database_sync_to_async(lobby.bot_add)
    await nothing_before(
        socket, 'id="live', cause=bot_add(table_id=table.pk, host=host, position=1), unwanted="logged out"
    )


# Transactional: the consumer works on Channels' threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
async def test_the_browser_that_changed_its_password_keeps_its_socket_and_the_others_close(host, player) -> None:
    table = await database_sync_to_async(open_table)(host, "sita")
    browser = await database_sync_to_async(signed_in_browser)(player)
    here, connected = await connect_with_cookie(table.pk, cookie_of(browser))
    assert connected
    elsewhere, _ = await connect(table.pk, player)  # the same player signed in on another device
    await drain(here)
    await drain(elsewhere)

    await database_sync_to_async(change_password)(browser)

    assert "logged out" in await elsewhere.receive_from()
    assert await closed_with(elsewhere) == guard.CLOSE_LOGGED_OUT
    await no_logout_notice(here, table, host)
    assert await still_open(here)
    await here.disconnect()


# Transactional: the consumer works on Channels' threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
async def test_after_the_change_a_logout_on_that_browser_still_closes_its_socket(host, player) -> None:
    # The socket now knows its session by the new key, which the logout announces.
    table = await database_sync_to_async(open_table)(host, "sita")
    browser = await database_sync_to_async(signed_in_browser)(player)
    here, _ = await connect_with_cookie(table.pk, cookie_of(browser))
    await drain(here)
    await database_sync_to_async(change_password)(browser)
    await no_logout_notice(here, table, host)

    response = await database_sync_to_async(browser.post)("/accounts/logout/")
    assert response.status_code == 302
    assert "logged out" in await here.receive_from()
    assert await closed_with(here) == guard.CLOSE_LOGGED_OUT


def test_a_session_is_followed_only_to_where_it_rotated_while_signed_in(player) -> None:
    browser = signed_in_browser(player)
    old = browser.cookies[settings.SESSION_COOKIE_NAME].value
    new = change_password(browser)

    assert sessions.rotated_to(old) == new
    assert guard.session_now(old, player.pk) == new
    # Another of the player's sessions is not carried along: the new password ended it.
    other = signed_in_browser(player)
    other_key = other.cookies[settings.SESSION_COOKIE_NAME].value
    player.set_password("yet-another-long-phrase")
    player.save()
    assert guard.session_now(other_key, player.pk) is None
    assert guard.session_now(old, player.pk) is None  # the changing browser's too, by this later change
    # A signed-out session is not remembered when its key changes (as a login's own rotation does).
    anonymous = sessions.SessionStore()
    anonymous["language"] = "et"
    anonymous.create()
    before = anonymous.session_key
    anonymous.cycle_key()
    assert sessions.rotated_to(before) is None


def test_a_socket_reading_its_session_between_the_rotation_and_the_response_holds(player) -> None:
    # allauth announces the change (and mails the player) after the key rotated but before the
    # response saves the new key's session with the new password's hash: a socket told of it then
    # reads the new key with the old hash, and must not close.
    browser = signed_in_browser(player)
    old = browser.cookies[settings.SESSION_COOKIE_NAME].value
    session = sessions.SessionStore(old)
    player.set_password(NEW_PASSWORD)
    sessions.rotation_expect(old, auth_hash=player.get_session_auth_hash())  # as the account adapter does
    player.save()
    session.cycle_key()  # as update_session_auth_hash does; the middleware has not saved it yet

    assert guard.session_now(old, player.pk) == session.session_key
