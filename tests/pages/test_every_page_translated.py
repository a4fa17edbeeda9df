"""Issue 53: every page, in Estonian and in Arabic, holds none of the catalogue's English texts.

The catalogue's test (tests/config/test_catalogues.py) holds that every text is translated; this
one reads the pages a player meets as they are rendered, so that a text shown without passing
through a translation (a stored English memo or ending, a call the extraction missed) shows.
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tables.services import lobby
from tests.conftest import make_user
from tests.games.history_helpers import finished_table
from tests.tables.helpers import open_table, seat_guests

pytestmark = pytest.mark.django_db

# Texts that read the same in every language: game names and the English game terms shown as a
# tooltip beside the translated ones (tests/config/test_catalogues.py, ALLOWED_LITERALS).
SAME_IN_EVERY_LANGUAGE = {"Dash Call", "Super Call", "Sa'aydeh"}
_PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%[sd]|<[^>]+>|\{[^}]*\}")
_DROP = re.compile(r"<(script|style)\b.*?</\1>|<!--.*?-->", re.S)
_TAG = re.compile(r"<[^>]+>")
_ATTRIBUTE = re.compile(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"')


@cache
def english_texts(language: str) -> frozenset[str]:
    """The catalogue's English texts a reader of ``language`` must never see: each text's pieces
    between its placeholders, of two words or more, where the translation differs."""
    catalogue = polib.pofile(str(Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.po"))
    found = set()
    for entry in catalogue:
        if entry.obsolete:
            continue
        translations = [entry.msgstr, *entry.msgstr_plural.values()]
        for english in (entry.msgid, entry.msgid_plural):
            for piece in _PLACEHOLDER.split(english or ""):
                piece = " ".join(piece.split()).strip(" .,:;·—–-()")
                if len(piece.split()) < 2 or len(piece) < 7 or piece in SAME_IN_EVERY_LANGUAGE:
                    continue
                if any(piece in text for text in translations):
                    continue  # the translation keeps it (a term, a code)
                found.add(piece)
    return frozenset(found)


def shown_text(page: str) -> str:
    """What a reader sees of a page: its text and its tooltips and labels, whitespace folded."""
    page = _DROP.sub(" ", page)
    body = page.split("</title>", 1)[-1]
    texts = [_TAG.sub(" ", body), *_ATTRIBUTE.findall(body)]
    return " ".join(html.unescape(" ".join(texts)).split())


def _pages(player: User, host: User) -> dict[str, str]:
    """A page of every kind the player meets, with something in it: a finished game of theirs, a
    table they wait at as its host (its empty seat offers "Add bot"), a wallet memo of a closed table."""
    finished = finished_table(player, "estimation")
    match = finished.matches.get()
    closed = open_table(host, "estimation", stake=3, options={"length": "micro"})
    seat_guests(closed, [player])
    lobby.table_close(table_id=closed.pk, by=host)
    waiting = open_table(player, "sitaratas", seat_count=3)
    return {
        "lobby": reverse("lobby"),
        "new table": reverse("table_new"),
        "table": reverse("table", args=[waiting.pk]),
        "finished table": reverse("table", args=[finished.pk]),
        "game": reverse("match", args=[match.pk]),
        "replay": reverse("match_replay", args=[match.pk]),
        "history": reverse("history") + f"?player={player.username}",
        "ratings": reverse("ratings"),
        "profile": reverse("profile", args=[player.username]),
        "wallet": reverse("wallet"),
        "offline": reverse("offline"),
        "friends": reverse("friends"),
        "notifications": reverse("notifications"),
        "notification settings": reverse("notification_settings"),
        "tournaments": reverse("tournaments"),
        "new tournament": reverse("tournament_new"),
        "rules": reverse("rules_index"),
    }


@pytest.mark.parametrize("language", ["et", "ar"])
def test_no_page_shows_an_english_text_of_the_catalogue(language: str) -> None:
    player, host = make_user("piet"), make_user("hana")
    urls = _pages(player, host)
    player.language = language
    player.save()
    client = Client()
    client.force_login(player)
    english = english_texts(language)
    found = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, name
        text = shown_text(response.content.decode())
        leaks = sorted(piece for piece in english if piece in text)
        if leaks:
            found[name] = leaks
    assert found == {}


def test_the_check_finds_an_english_text_on_a_page() -> None:
    assert "Closed by the host" in english_texts("ar")
    page = '<p title="x">Laud suleti enne algust: Closed by the host, Ann.</p><script>var a = "Add bot";</script>'
    assert "Closed by the host" in shown_text(page) and "Add bot" not in shown_text(page)
