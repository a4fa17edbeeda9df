"""Issue 53: one way to write a figure, right in both directions; the rating on the players' scale."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.display import ratings
from games.models import MatchPlayer
from games.templatetags.card_tags import figure, number, signed
from tests.conftest import make_user
from tests.games.history_helpers import finished_table

# A hyphen right before a digit, at the start of a word: "-12" (Arabic showed it as "12-").
HYPHEN_NUMBER = re.compile(r"(?:^|[\s(>=/:])-\d")
_DROP = re.compile(r"<(script|style)\b.*?</\1>|<!--.*?-->|<svg\b.*?</svg>", re.S)


def test_a_signed_figure_is_isolated_with_a_true_minus_in_every_language() -> None:
    for language, thousands in (("en", "1,234"), ("et", "1\xa0234"), ("ar", "1.234")):
        with translation.override(language):
            assert number(-12) == "\u2066\u221212\u2069"
            assert number(-1234) == f"\u2066\u2212{thousands}\u2069"
            assert number(12) == "12" and number(0) == "0"
            assert signed(3) == "\u2066+3\u2069" and signed(-2) == "\u2066\u22122\u2069" and signed(0) == "0"
    with translation.override("ar"):
        assert number(-3.84) == "\u2066\u22123,8\u2069" and number(-0.04) == "0,0"
    assert figure(2.5, decimals=1, plus=True) == "\u2066+2.5\u2069"


def test_the_rating_reads_1500_for_a_newcomer_and_is_provisional_for_ten_games() -> None:
    assert ratings.shown(0.0) == 1500
    assert ratings.shown(-3.8) == 1348 and ratings.shown(2.25) == 1590
    assert ratings.shown_change(0.0, -3.8) == -152
    assert ratings.provisional(9) and not ratings.provisional(10)


def _text(page: str) -> str:
    page = _DROP.sub(" ", page.split("</title>", 1)[-1])
    return re.sub(r"<[^>]+>", " ", page)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ar", "en"])
def test_no_page_that_prints_totals_writes_a_negative_with_a_hyphen(language: str) -> None:
    player, host = make_user("piet"), make_user("hana")
    table = finished_table(host, "estimation", guests=[player])
    match = table.matches.get()
    # A negative total on every list of places, whatever the deal gave.
    MatchPlayer.objects.filter(match=match, user=player).update(total=-12)
    player.language = language
    player.save()
    client = Client()
    client.force_login(player)
    pages = {
        "game": reverse("match", args=[match.pk]),
        "game over": reverse("table", args=[table.pk]),
        "replay": reverse("match_replay", args=[match.pk]),
        "history": reverse("history") + f"?player={player.username}",
        "profile": reverse("profile", args=[player.username]),
        "offline": reverse("offline"),
        "ratings": reverse("ratings") + "?game=estimation",
        "wallet": reverse("wallet"),
    }
    minus = 0
    for name, url in pages.items():
        text = _text(client.get(url).content.decode())
        found = HYPHEN_NUMBER.search(text)
        assert not found, (name, text[max(0, found.start() - 80) : found.end() + 40])
        minus += text.count("\u2066\u2212")
    assert minus > 0  # the negatives are there, written with the minus
    game = _text(client.get(pages["game"]).content.decode())
    assert "\u2066\u221212\u2069" in game
