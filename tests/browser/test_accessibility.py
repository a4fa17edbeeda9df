"""axe-core over every page a player uses (issue 20): no serious or critical violation.

The pages: lobby, new table, each game's table in its lobby and in play, history, a game's
page and its replay, profile (with its data and account-deletion pages), wallet and ratings,
each at the laptop size and on a phone.
"""

from __future__ import annotations

import json

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import ARTIFACTS, in_thread, log_in
from tests.browser.helpers import LAPTOP, PHONE, started_at_my_turn
from tests.conftest import make_user
from tests.games.history_helpers import finished_match
from tests.tables.helpers import open_table

# transactional_db: the site under test (Daphne and a Celery worker, other processes) reads what the tests write.
pytestmark = pytest.mark.browser

SERIOUS = ("serious", "critical")


def _pages() -> list[tuple[str, str]]:
    """Every page to check, with a name for the report; the tables and games they show are real."""
    viewer = make_user("axel")
    pages = [
        ("lobby", "/"),
        ("new-table", "/tables/new/"),
        ("history", "/history/"),
        ("ratings", "/ratings/"),
        ("profile", "/profile/"),
        ("your-data", "/profile/data/"),
        ("delete-account", "/profile/delete/"),
        ("wallet", "/wallet/"),
    ]
    for game in ("sitaratas", "estimation", "sita"):
        waiting = open_table(make_user(f"w{game}"), game)
        pages.append((f"{game}-table-lobby", f"/tables/{waiting.pk}/"))
        playing, _ = started_at_my_turn(game, f"a{game}")
        pages.append((f"{game}-table-playing", f"/tables/{playing.pk}/"))
        done = finished_match(make_user(f"f{game}"), game, humans=(viewer,))
        pages.append((f"{game}-game", f"/games/{done.pk}/"))
        pages.append((f"{game}-replay", f"/games/{done.pk}/replay/?step=3"))
    return pages


def test_no_page_has_a_serious_or_critical_axe_violation(browser, site_url, transactional_db) -> None:
    pages = in_thread(_pages)
    axe = Axe()
    found: dict[str, list] = {}
    for size, options in (("laptop", LAPTOP), ("phone", PHONE)):
        context = browser.new_context(base_url=site_url, bypass_csp=True, **options)
        context.set_default_timeout(15_000)
        page = context.new_page()
        log_in(page, "axel", "a-long-pass-phrase")
        for name, path in pages:
            page.goto(path)
            if path.startswith("/tables/") and path != "/tables/new/":
                page.wait_for_selector("#socket-status:has-text('Connected')")
            results = axe.run(page)
            bad = [v for v in results.response["violations"] if v.get("impact") in SERIOUS]
            if bad:
                found[f"{size} {name}"] = [
                    {
                        "id": v["id"],
                        "impact": v["impact"],
                        "help": v["help"],
                        "nodes": [n["target"] for n in v["nodes"]][:5],
                    }
                    for v in bad
                ]
        context.close()
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "axe-report.json").write_text(json.dumps(found, indent=2))
    assert not found, json.dumps(found, indent=2)
