"""Pages in the reader's language (issue 26): from the browser, the switcher or the profile;
Arabic right to left; rules documents per language with English as the fallback."""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

import pytest
from django.test import Client

from accounts.models import User
from pages import docs

pytestmark = pytest.mark.django_db


def test_a_browser_without_a_language_gets_english() -> None:
    html = Client().get("/").content.decode()
    assert '<html lang="en" dir="ltr">' in html
    assert "<h1>Lobby</h1>" in html


def test_the_browser_language_picks_arabic_right_to_left() -> None:
    html = Client(HTTP_ACCEPT_LANGUAGE="ar,en;q=0.5").get("/").content.decode()
    assert '<html lang="ar" dir="rtl">' in html
    assert "<h1>الصالة</h1>" in html


def test_the_switcher_sets_the_language_and_remembers_it_on_the_profile(host: User) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="ar")
    client.force_login(host)
    response = client.post("/language/", {"language": "et", "next": "/"})
    assert response.status_code == 302
    host.refresh_from_db()
    assert host.language == "et"
    # The profile wins over the browser and over a cookie, in a fresh session too.
    other = Client(HTTP_ACCEPT_LANGUAGE="ar")
    other.force_login(host)
    assert "<h1>Ooteruum</h1>" in other.get("/").content.decode()


def test_the_switcher_refuses_a_language_the_site_does_not_speak(host: User) -> None:
    client = Client()
    client.force_login(host)
    client.post("/language/", {"language": "xx", "next": "/"})
    host.refresh_from_db()
    assert host.language == ""


@pytest.fixture
def docs_tree(tmp_path: Path, monkeypatch) -> Path:
    rules = tmp_path / "rules"
    (rules / "et").mkdir(parents=True)
    (rules / "sitaratas.md").write_text("# Sitaratas rules\n\n### S1 — Players\n\nThree to six.\n", encoding="utf-8")
    (rules / "et" / "sitaratas.md").write_text(
        "# Sitaratase reeglid\n\n### S1 — Mängijad\n\nKolm kuni kuus.\n", encoding="utf-8"
    )
    (rules / "et" / "extra.md").write_text("### Z9 — Only a translation\n", encoding="utf-8")
    monkeypatch.setattr(docs, "docs_dir", lambda: tmp_path)
    return tmp_path


def test_a_rules_page_is_read_in_the_reader_language(docs_tree: Path) -> None:
    html = Client(HTTP_ACCEPT_LANGUAGE="et").get("/rules/sitaratas/").content.decode()
    assert "Kolm kuni kuus." in html and 'id="s1"' in html
    assert "docs/rules/et/sitaratas.md" in html


def test_a_missing_translation_falls_back_to_english(docs_tree: Path) -> None:
    html = Client(HTTP_ACCEPT_LANGUAGE="ar").get("/rules/sitaratas/").content.decode()
    assert "Three to six." in html and "docs/rules/sitaratas.md" in html


def test_ruling_ids_come_from_the_english_documents_only(docs_tree: Path) -> None:
    assert docs.ruling_ids() == {"S1"}


@pytest.mark.parametrize(
    "stored, estonian, arabic",
    [
        ("Finished.", "Lõppenud.", "انتهت."),
        ("Aborted by Ann: spam: again", "Katkestas Ann: spam: again", "أوقفها Ann: spam: again"),
        ("Abandoned: no move for 24 hours.", "Hüljatud: 24 tundi ilma käiguta.", "مهجورة: لا حركة منذ 24 ساعة."),
        ("Closed after 2 hours without activity.", "Suletud pärast 2 tundi tegevuseta.", "أُغلقت بعد ساعتين بلا نشاط."),
        ("Closed by the host, Ann.", "Sulges võõrustaja Ann.", "أغلقها المضيف Ann."),
        ("An older wording.", "An older wording.", "An older wording."),
    ],
)
def test_why_a_game_ended_is_read_in_the_reader_language(stored: str, estonian: str, arabic: str) -> None:
    from django.utils import translation

    from games.display.endings import ending_text

    assert ending_text(stored) == stored  # English as stored, old rows included
    with translation.override("et"):
        assert ending_text(stored) == estonian
    with translation.override("ar"):
        assert ending_text(stored) == arabic


def test_history_shows_dates_numbers_and_endings_in_the_reader_language(host: User) -> None:
    from datetime import datetime

    from games.models import Match
    from tests.games.history_helpers import finished_match

    match = finished_match(host, "sita")
    Match.objects.filter(pk=match.pk).update(ended_at=datetime(2026, 12, 1, 20, 5, tzinfo=UTC))
    match.match_players.filter(seat=0).update(total=1234)
    pages = {language: Client(HTTP_ACCEPT_LANGUAGE=language) for language in ("en", "et", "ar")}
    history = {language: client.get("/history/").content.decode() for language, client in pages.items()}
    game = {language: client.get(f"/games/{match.pk}/").content.decode() for language, client in pages.items()}
    assert "1 Dec 2026, 20:05" in history["en"] and f"game #{match.pk} · table {match.table_id}" in history["en"]
    assert (
        "1. detsember 2026, 20:05" in history["et"] and f"mäng nr {match.pk} · laud {match.table_id}" in history["et"]
    )
    assert "1 ديسمبر، 2026، 8:05 م" in history["ar"]
    assert "1,234" in game["en"] and "1\xa0234" in game["et"] and "1.234" in game["ar"]
    assert "Finished." in game["en"] and "Lõppenud." in game["et"] and "انتهت." in game["ar"]


def test_the_admin_speaks_the_admin_language(host: User) -> None:
    from tests.games.history_helpers import finished_match
    from tests.tables.helpers import open_table

    finished_match(host, "sita")
    open_table(host, "estimation")  # a lobby: the list offers its actions only when it has rows
    host.is_staff = host.is_superuser = True
    host.language = "et"
    host.save()
    client = Client()
    client.force_login(host)
    html = client.get("/admin/games/match/").content.decode()
    assert "Katkesta mäng (panused tagastatakse, pääsmed vabastatakse)" in html  # the action's label
    assert "algas" in html.lower()  # a column's title: the field's verbose name
    html = client.get("/admin/tables/table/").content.decode()
    assert "Sulge ootesaal" in html and "viimane tegevus" in html.lower()


def test_a_live_render_reads_each_text_once_from_its_language_catalogue() -> None:
    # core/i18n.py: the same answers as Django's, without asking Django per seat and move.
    from django.utils import translation

    from core import i18n
    from tables.render.presenters.estimation import OVER_UNDER, PHASES

    for language in ("en", "et", "ar"):
        catalogue = i18n.catalogue(language)
        with translation.override(language):
            assert catalogue.gettext("Your turn to play.") == translation.gettext("Your turn to play.")
            assert catalogue.text(PHASES["auction"]) == str(PHASES["auction"])
            assert catalogue.text(OVER_UNDER["over"]) == str(OVER_UNDER["over"])  # pgettext_lazy
            assert catalogue.ngettext("%(num)s point", "%(num)s points", 2) == translation.ngettext(
                "%(num)s point", "%(num)s points", 2
            )
    rendering = i18n.RENDERING.set(i18n.catalogue("et"))
    try:
        assert (i18n.gettext("Round"), i18n.text(PHASES["auction"]), i18n.language()) == ("Voor", "Oksjon", "et")
    finally:
        i18n.RENDERING.reset(rendering)
    assert (i18n.gettext("Round"), i18n.language()) == ("Round", "en")  # outside a render: Django's own


@pytest.mark.parametrize("language", ["et", "ar"])
@pytest.mark.parametrize("game", ["sitaratas", "estimation"])
def test_the_site_and_the_rules_call_a_trick_by_one_name(language: str, game: str) -> None:
    # Estonian "tihi", not "tõstmine" (the cut); Arabic "أكلة" on the site as in the rules, the
    # Levant's "لمّة" named once in the rules as the other usual word.
    from django.utils import translation

    with translation.override(language):
        trick, last_trick = translation.gettext("Trick"), translation.gettext("Last trick")
    rules = (docs.docs_dir() / "rules" / language / f"{game}.md").read_text()
    stem = trick.lower().removeprefix("ال")
    assert stem in rules.lower() and stem in last_trick.lower()
