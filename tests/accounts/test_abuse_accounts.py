"""Sign-up does not tell who is registered; failed logins lock an account at one address only (issue 21, F5)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User


def confirmed(user: User) -> User:
    """As every account made before mandatory confirmation is (accounts migration 0003)."""
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    return user


pytestmark = pytest.mark.django_db

PASSWORD = "Kolm-Kaardi-Trikk"
# The limits live in the shared cache (Redis) and outlast a test: fresh names and addresses each run.
RUN = uuid.uuid4().hex[:8]


def sign_up(client: Client, username: str, email: str):
    return client.post(
        reverse("account_signup"), {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    )


def test_outside_development_sign_up_confirms_the_address_and_hides_taken_ones() -> None:
    # RULING P18: the default with DEBUG off, as a deployed site starts.
    env = {key: value for key, value in os.environ.items() if key != "ACCOUNT_EMAIL_VERIFICATION"}
    env.update(DJANGO_DEBUG="false", DJANGO_SECRET_KEY="x" * 40)
    code = (
        "import django; django.setup(); from allauth.account import app_settings as a; "
        "print(a.EMAIL_VERIFICATION.value, a.PREVENT_ENUMERATION)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.split() == ["mandatory", "True"], result.stderr


def test_sign_up_with_a_taken_address_looks_like_any_other(settings, player) -> None:
    # RULING P18 (production's default: mandatory verification)
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    fresh = sign_up(Client(), f"neu{RUN}", f"neu{RUN}@example.com")
    taken = sign_up(Client(), "andere", player.email)
    assert fresh.status_code == taken.status_code == 302
    assert fresh["Location"] == taken["Location"]
    assert Client().get(taken["Location"]).content.count(b"already") == 0
    assert not User.objects.filter(username="andere").exists()
    assert f"neu{RUN}@example.com" in [message.to[0] for message in mail.outbox]


def test_a_new_player_confirms_the_address_and_is_logged_in(settings) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    client = Client()
    sign_up(client, f"mari{RUN}", f"mari{RUN}@example.com")
    assert client.get(reverse("my_profile")).status_code == 302  # not logged in yet
    link = re.search(r"https?://[^/]+(/accounts/confirm-email/[^\s]+)", mail.outbox[-1].body).group(1)
    client.post(link)
    assert client.get(reverse("my_profile"), follow=True).context["player"].username == f"mari{RUN}"


def test_failed_logins_lock_one_account_at_one_address_only(player) -> None:
    # RULING P18
    confirmed(player)
    office = {"REMOTE_ADDR": f"203.0.113.{int(RUN, 16) % 250}"}
    attacker = Client(**office)
    for _ in range(5):
        attacker.post(reverse("account_login"), {"login": player.username, "password": "wrong"})
    locked = attacker.post(reverse("account_login"), {"login": player.username, "password": "a-long-pass-phrase"})
    assert locked.status_code == 200 and b"Too many failed login attempts" in locked.content
    # A colleague behind the same address logs in to their own account...
    colleague = confirmed(User.objects.create_user("kati", "kati@example.com", "another-long-pass"))
    for _ in range(6):
        Client(**office).post(reverse("account_login"), {"login": f"ghost{RUN}", "password": "wrong"})
    ok = Client(**office).post(reverse("account_login"), {"login": colleague.username, "password": "another-long-pass"})
    assert ok.status_code == 302 and ok["Location"] == "/"
    # ...and the player, from home, to theirs.
    home = Client(REMOTE_ADDR="198.51.100.2").post(
        reverse("account_login"), {"login": player.username, "password": "a-long-pass-phrase"}
    )
    assert home.status_code == 302 and home["Location"] == "/"


def login(client: Client, text: str, password: str = "wrong"):
    return client.post(reverse("account_login"), {"login": text, "password": password})


def test_guesses_by_username_and_by_email_count_against_one_account(player) -> None:
    # Issue 34, finding 3: five by username and five more by e-mail were ten guesses a window.
    confirmed(player)
    attacker = Client(REMOTE_ADDR=f"203.0.113.{int(RUN, 16) % 250}")
    for text in [player.username] * 3 + [player.email, player.email.upper()]:
        login(attacker, text)
    for text in (player.email, player.username.upper()):
        locked = login(attacker, text, "a-long-pass-phrase")
        assert locked.status_code == 200 and b"Too many failed login attempts" in locked.content


def test_behind_the_proxy_one_players_guesses_lock_only_their_own_address(settings, player) -> None:
    # Issue 34, finding 3: behind the load balancer every player's connection comes from it.
    settings.TRUSTED_PROXIES = 1
    confirmed(player)
    balancer = {"REMOTE_ADDR": "10.0.0.2"}
    attacker = Client(**balancer, HTTP_X_FORWARDED_FOR=f"198.51.100.{int(RUN, 16) % 250}")
    for _ in range(5):
        login(attacker, player.username)
    assert b"Too many failed login attempts" in login(attacker, player.username, "a-long-pass-phrase").content
    # The owner, through the same balancer from their own address, is not locked out; a forged
    # header naming the owner's address does not move the attacker there either.
    owner = Client(**balancer, HTTP_X_FORWARDED_FOR="192.0.2.77")
    assert login(owner, player.username, "a-long-pass-phrase").status_code == 302
    forged = Client(**balancer, HTTP_X_FORWARDED_FOR=f"192.0.2.77, 198.51.100.{int(RUN, 16) % 250}")
    assert b"Too many failed login attempts" in login(forged, player.username, "a-long-pass-phrase").content


def test_a_flood_of_logins_from_one_address_leaves_the_others_behind_the_proxy_alone(settings, player) -> None:
    settings.TRUSTED_PROXIES = 1
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login": "3/m/ip"}
    confirmed(player)
    flood = Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=f"198.51.100.{int(RUN, 16) % 250 + 1}")
    for number in range(3):
        login(flood, f"ghost{number}{RUN}")
    assert login(flood, player.username, "a-long-pass-phrase").status_code == 429
    other = Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=f"192.0.2.{int(RUN, 16) % 250 + 1}")
    assert login(other, player.username, "a-long-pass-phrase").status_code == 302


def test_sign_ups_are_limited_per_address(settings) -> None:
    # RULING P53 (the suite lifts it for every other test: tests/conftest.py).
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "2/h/ip"}
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    farm = {"REMOTE_ADDR": f"198.18.{int(RUN[:2], 16)}.{int(RUN[2:4], 16)}"}
    for number in range(2):
        assert sign_up(Client(**farm), f"farm{number}{RUN}", f"farm{number}{RUN}@example.com").status_code == 302
    refused = sign_up(Client(**farm), f"farm2{RUN}", f"farm2{RUN}@example.com")
    assert refused.status_code == 429
    assert not User.objects.filter(username=f"farm2{RUN}").exists()
    other_address = f"198.19.{int(RUN[4:6], 16)}.{int(RUN[6:], 16)}"
    elsewhere = sign_up(Client(REMOTE_ADDR=other_address), f"else{RUN}", f"else{RUN}@example.com")
    assert elsewhere.status_code == 302
