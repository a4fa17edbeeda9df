"""Odd requests get a 400 or 404, never a 500; the security headers are sent (issue 21, F7)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def anonymous() -> Client:
    # raise_request_exception off: a 500 is a response here, as a visitor would see it.
    return Client(raise_request_exception=False)


@pytest.mark.parametrize(
    "url",
    [
        "/?game=%00",
        "/history/?player=%00",
        "/players/%00/",
        "/ratings/?game=a%00b",
        "/history/?%00=x",
        "/history/?player=" + "a" * 5000,
        "/players/" + "x" * 5000 + "/",
    ],
)
def test_a_nul_byte_or_an_overlong_value_is_a_400(anonymous, url) -> None:
    assert anonymous.get(url).status_code == 400


@pytest.mark.parametrize(
    "url",
    ["/games/99999999999999999999/", "/games/99999999999999999999/replay/", "/games/99999999999999999999/record.json"],
)
def test_an_id_too_big_for_the_database_is_a_404(anonymous, url) -> None:
    assert anonymous.get(url).status_code == 404


def test_a_table_id_too_big_is_a_404_for_a_player(anonymous, player) -> None:
    anonymous.force_login(player)
    assert anonymous.get("/tables/99999999999999999999/").status_code == 404


def test_a_nul_byte_in_a_form_is_a_400(anonymous) -> None:
    response = anonymous.post("/accounts/login/", {"login": "piet\x00", "password": "x"})
    assert response.status_code == 400


def test_ordinary_pages_still_answer(anonymous) -> None:
    assert anonymous.get("/?game=sita").status_code == 200
    assert anonymous.get("/history/?player=nobody&page=2").status_code == 200


def test_the_security_headers_are_sent(anonymous) -> None:
    response = anonymous.get("/")
    assert response["Referrer-Policy"] == "same-origin"
    assert "camera=()" in response["Permissions-Policy"]
    policy = response["Content-Security-Policy"]
    script_src = re.search(r"script-src ([^;]*)", policy).group(1)
    assert script_src.strip() == "'self'"
    assert "unsafe-inline" not in script_src and "unsafe-eval" not in script_src
    assert "frame-ancestors 'none'" in policy


def test_no_page_carries_an_inline_script(anonymous, player) -> None:
    """What the policy would block: every <script> has a src (or is data, not code)."""
    anonymous.force_login(player)
    for url in [
        "/",
        "/tables/new/",
        "/history/",
        "/ratings/",
        f"/players/{player.username}/",
        "/wallet/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
    ]:
        html = anonymous.get(url, follow=True).content.decode()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag or "application/json" in tag, (url, tag)
        assert not re.search(r"\son[a-z]+\s*=", html), url
