"""Sign up, log in, profile and log out through the real allauth views (issue 2)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from tests.accounts.helpers import SIGNUP

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("instant_sign_up")]


def test_a_new_player_signs_up_logs_out_and_logs_back_in(client) -> None:
    response = client.post(reverse("account_signup"), SIGNUP)
    assert response.status_code == 302
    user = User.objects.get(username="mari")
    assert user.email == "mari@example.com"
    assert not user.is_bot

    profile = client.get(reverse("my_profile"), follow=True)
    assert profile.status_code == 200
    assert b"mari" in profile.content and b"joined" in profile.content

    client.post(reverse("account_logout"))
    assert client.get(reverse("my_profile")).status_code == 302  # to the login page

    response = client.post(reverse("account_login"), {"login": "mari", "password": SIGNUP["password1"]})
    assert response.status_code == 302
    assert client.get(reverse("my_profile"), follow=True).context["player"] == user


def test_a_weak_password_is_refused_with_a_clear_error_and_creates_nothing(client) -> None:
    response = client.post(reverse("account_signup"), {**SIGNUP, "password1": "123", "password2": "123"})
    assert response.status_code == 200
    assert b"too short" in response.content or b"too common" in response.content
    assert not User.objects.filter(username="mari").exists()


def test_a_taken_username_is_refused_and_creates_nothing(client, player) -> None:
    before = User.objects.count()
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": player.username})
    assert response.status_code == 200
    assert b"already" in response.content
    assert User.objects.count() == before


def test_a_username_posing_as_a_bot_is_refused(client) -> None:
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": "bot-mari"})
    assert b"reserved" in response.content
    assert not User.objects.filter(username="bot-mari").exists()


def test_bot_accounts_exist_and_cannot_log_in(client) -> None:
    bots = User.objects.filter(is_bot=True)
    assert bots.count() >= 9
    assert not any(bot.has_usable_password() for bot in bots)


def test_a_player_edits_their_display_name(client, player) -> None:
    client.force_login(player)
    response = client.post(reverse("profile", args=[player.username]), {"display_name": "Piet the Bold"}, follow=True)
    assert b"Piet the Bold" in response.content
    player.refresh_from_db()
    assert player.name == "Piet the Bold"


def test_another_players_profile_has_no_edit_form(client, player, outsider) -> None:
    client.force_login(outsider)
    response = client.get(reverse("profile", args=[player.username]))
    assert response.status_code == 200
    assert response.context["form"] is None


def test_a_password_reset_mail_is_in_the_player_own_language(client, player, mailoutbox) -> None:
    # Issue 26: the profile's language, whatever the browser that asked; else the page's language.
    player.email, player.language = "kaia@example.com", "et"
    player.save()
    client.post(reverse("account_reset_password"), {"email": "kaia@example.com"}, HTTP_ACCEPT_LANGUAGE="en")
    client.post(reverse("account_reset_password"), {"email": "nobody@example.com"}, HTTP_ACCEPT_LANGUAGE="ar")
    assert "Salasõna taasseadmine" in mailoutbox[0].subject
    assert mailoutbox[1].to == ["nobody@example.com"] and "حساب غير معروف" in mailoutbox[1].subject
