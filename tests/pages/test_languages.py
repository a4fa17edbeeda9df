"""Pages in the reader's language (issue 26): from the browser, the switcher or the profile;
Arabic right to left; rules documents per language with English as the fallback."""

from __future__ import annotations

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
    (rules / "et" / "sitaratas.md").write_text("# Sitaratase reeglid\n\n### S1 — Mängijad\n\nKolm kuni kuus.\n",
                                               encoding="utf-8")
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
