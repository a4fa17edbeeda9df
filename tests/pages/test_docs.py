"""The repository stands on its own, and the site's rules pages render its docs (RULING P20)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from games.engines import estimation, sita, sitaratas
from pages import docs

ROOT = Path(__file__).resolve().parents[2]
# What the tools write while the suite runs (hypothesis keeps constants it read from the code).
SKIP_DIRS = {".git", ".venv", ".local", ".hypothesis", ".pytest_cache", "node_modules", "test-artifacts", "__pycache__"}
TEXT_SUFFIXES = {".py", ".html", ".js", ".css", ".md", ".txt", ".ini", ".cfg", ".toml", ".yml", ".yaml", ""}
ID = r"[A-Z]\d+"
CITATION = re.compile(rf"RULINGS?\s+((?:{ID}(?:\s*[–-]\s*[A-Z]?\d+)?)(?:\s*(?:,|and)\s*{ID}(?:\s*[–-]\s*[A-Z]?\d+)?)*)")


def project_files() -> list[Path]:
    files = []
    for path in ROOT.rglob("*"):
        if any(part in SKIP_DIRS for part in path.relative_to(ROOT).parts):
            continue
        if path.is_file() and path.suffix in TEXT_SUFFIXES and path.stat().st_size < 2_000_000:
            files.append(path)
    return files


def cited_ids(text: str) -> set[str]:
    """Every ruling id a ``RULING``/``RULINGS`` citation names, ranges (``P4–P8``) spelled out."""
    ids: set[str] = set()
    for group in CITATION.findall(text):
        for part in re.split(r"\s*(?:,|and)\s*", group):
            found = re.fullmatch(r"([A-Z])(\d+)(?:\s*[–-]\s*([A-Z])?(\d+))?", part.strip())
            if not found:
                continue
            letter, first, _, last = found.groups()
            ids.update(f"{letter}{n}" for n in range(int(first), int(last or first) + 1))
    return ids


def test_the_citation_reader_spells_out_lists_and_ranges() -> None:
    assert cited_ids("# RULING S4") == {"S4"}
    assert cited_ids("(RULINGS P4–P6, S12)") == {"P4", "P5", "P6", "S12"}
    assert cited_ids("rulings E1-E13") == set()  # only the capitalised citation counts
    assert cited_ids("RULINGS S9 and S13") == {"S9", "S13"}


def test_every_ruling_cited_in_code_tests_and_templates_is_a_heading_in_docs_rules() -> None:
    headings = docs.ruling_ids()
    cited: dict[str, list[str]] = {}
    for path in project_files():
        for ruling in cited_ids(path.read_text(encoding="utf-8", errors="replace")):
            cited.setdefault(ruling, []).append(str(path.relative_to(ROOT)))
    assert len(cited) > 40, "the scan found too few citations to be looking in the right place"
    missing = {ruling: where[:3] for ruling, where in cited.items() if ruling not in headings}
    assert not missing, f"cited but not a heading in docs/rules/: {missing}"


def test_the_rule_books_headings_are_well_formed_and_unique() -> None:
    seen: dict[str, str] = {}
    for path in sorted((ROOT / "docs" / "rules").glob("*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("### "):
                found = re.fullmatch(r"### ([A-Z]\d+) — \S.*", line)
                assert found, f"{path.name}: a ruling heading must read '### S4 — Short title': {line!r}"
                assert found.group(1) not in seen, f"{found.group(1)} is in both {seen[found.group(1)]} and {path.name}"
                seen[found.group(1)] = path.name
    for ruling in [
        *(f"S{n}" for n in range(1, 16)),
        *(f"E{n}" for n in range(1, 14)),
        *(f"T{n}" for n in range(1, 7)),
        *(f"P{n}" for n in range(1, 9)),
    ]:
        assert ruling in seen, f"{ruling} keeps its number and must stay in docs/rules/"


def test_nothing_in_the_repository_points_outside_it() -> None:
    outside = re.compile(r"\.\./shared|/work/shared|RULINGS\.md|DESIGN\.md|STYLE\.md")
    offenders = [
        str(path.relative_to(ROOT))
        for path in project_files()
        if path.name != Path(__file__).name and outside.search(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert offenders == []


# --- the pages ------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "game, example, card_html",
    [
        ("sitaratas", "Worked example: a trick with a HIGH joker", 'title="Red joker"'),
        (
            "estimation",
            "Worked example: a call round scored line by line",
            '<span class="card red suit-H small" title="2♥"',
        ),
        ("sita", "Worked example: a turn with a card too low", '<span class="card sita p1 small" title="9 (1 point)">'),
    ],
)
def test_each_games_rules_page_renders_its_doc_with_cards_drawn_as_on_the_table(game, example, card_html) -> None:
    html = Client().get(f"/rules/{game}/").content.decode()
    assert example in html and card_html in html
    assert "[[" not in html  # every card code became a card
    source = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    for ruling, _title in docs.RULING_HEADING.findall(source):
        assert f'<h3 id="{ruling.lower()}">{ruling} — ' in html  # anchored: /rules/<game>/#s4
    assert 'href="/terms/"' in html  # the link to platform.md points at its page


@pytest.mark.django_db
def test_the_sitaratas_page_says_a_table_short_of_humans_cannot_dismiss() -> None:
    # RULING S12
    html = Client().get("/rules/sitaratas/").content.decode()
    assert "2 of 3, 3 of 4, 3 of 5, 4 of 6" in html and "<strong>cannot dismiss</strong>" in html


@pytest.mark.django_db
def test_an_unknown_game_has_no_rules_page() -> None:
    assert Client().get("/rules/chess/").status_code == 404


@pytest.mark.django_db
def test_terms_render_the_platform_rules_and_privacy_says_what_is_kept() -> None:
    terms = Client().get("/terms/").content.decode()
    assert "no cash value" in terms and '<h3 id="p6">P6 — Game passes</h3>' in terms
    assert '<h3 id="p24">P24 — Conduct and moderation</h3>' in terms
    privacy = Client().get("/privacy/").content.decode()
    assert "deleted-&lt;number&gt;" in privacy and "two weeks" in privacy


@pytest.mark.django_db
def test_the_pages_link_to_the_rules_terms_and_privacy(host) -> None:
    client = Client()
    lobby = client.get("/").content.decode()
    for url in ("/rules/sitaratas/", "/rules/estimation/", "/rules/sita/", "/terms/", "/privacy/"):
        assert f'href="{url}"' in lobby
    signup = client.get("/accounts/signup/").content.decode()
    assert 'href="/terms/"' in signup and 'href="/privacy/"' in signup
    client.force_login(host)
    new = client.get("/tables/new/").content.decode()
    assert new.count('class="small how-to-play"') == 3 and 'href="/rules/estimation/"' in new
    from tests.tables.helpers import open_table

    table = open_table(host, "sita")
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert '<a href="/rules/sita/" target="_blank" rel="noopener">How to play SITA</a>' in page


# --- the worked examples are what the engines do ---------------------------------------------


def test_the_high_joker_example_is_what_the_engine_decides() -> None:
    # RULING S8, with seats 1..4 of the page as 0..3.
    plays = [
        sitaratas.Play(1, "BJ", "low"),
        sitaratas.Play(2, "KS", None),
        sitaratas.Play(3, "RJ", "high"),
        sitaratas.Play(0, "9H", None),
    ]
    assert sitaratas.trick_winner(plays, "H") == 3
    assert sitaratas.trick_winner([*plays[:2], sitaratas.Play(3, "RJ", "low"), plays[3]], "H") == 0
    assert sitaratas.trick_winner([*plays[:2], sitaratas.Play(3, "RJ", "low"), sitaratas.Play(0, "9C", None)], "H") == 2


def test_the_estimation_example_scores_as_the_engine_does() -> None:
    # RULINGS E5, E10: seats 1..4 of the page as 0..3; seat 2 (index 1) estimated last.
    scored = estimation.score_round(
        estimate=[0, 2, 6, 3],
        tricks_won=[1, 2, 6, 4],
        dash_call=[True, False, False, False],
        caller=2,
        last_estimator=1,
    )
    assert scored["points"] == [-33, 22, 26, -1]
    assert scored["over_under"] == "under" and scored["risk"] == {"seat": 1, "level": 1}
    alone = estimation.score_round(
        estimate=[0, 2, 6, 3],
        tricks_won=[1, 3, 6, 3],
        dash_call=[True, False, False, False],
        caller=2,
        last_estimator=1,
    )
    assert alone["points"][2] == 26  # two made it (seats 3 and 4), so no only-player bonus


def test_the_sita_example_plays_as_the_engine_does() -> None:
    # RULINGS T3, T4
    state = sita.scenario([[9], [40], [68], [89]], [[23], [31, 38], [50, 51, 60, 62, 67], [88]])
    for seat, card in enumerate([9, 40, 68, 89]):
        state = sita.apply(state, seat, {"type": "choose", "card": card})
    assert sita.to_act(state) == [0]  # placing waits for the too-low card's owner
    cheapest = sita.apply(state, 0, {"type": "take_row", "row": 0})
    assert sita.penalties(cheapest) == [1, 0, 9, 0]
    dearer = sita.apply(state, 0, {"type": "take_row", "row": 3})  # any row may be taken (T4)
    assert sita.penalties(dearer) == [5, 0, 9, 0]
