"""The installable app's parts served by the site: manifest, service worker, offline page (issue 40)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from tests.games.history_helpers import finished_match

pytestmark = pytest.mark.django_db


def test_the_manifest_has_what_browsers_need_to_install_the_site(client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] and manifest["short_name"]
    assert manifest["start_url"] == reverse("lobby") and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert {icon["purpose"] for icon in manifest["icons"]} == {"any", "maskable"}


@pytest.mark.parametrize("size", [192, 512])
def test_each_icon_is_a_png_of_the_size_it_claims(size) -> None:
    data = Path(finders.find(f"icons/icon-{size}.png")).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (size, size)


def test_the_worker_is_served_from_the_root_for_the_whole_site(client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    text = response.content.decode()
    assert "&quot;" not in text and '"/offline/"' in text


def test_the_worker_keeps_static_files_and_the_offline_page_only(client) -> None:
    text = client.get("/sw.js").content.decode()
    # What it stores: the static files, and the one offline page (kept per account).
    puts = re.findall(r"cache\.put\(([^,]+),", text)
    assert sorted(set(puts)) == ["ANONYMOUS_OFFLINE", "OFFLINE_URL", "OWNER_KEY", "request"]
    assert "url.pathname.startsWith(STATIC_PREFIX)" in text  # the only requests cached as they pass


def test_the_offline_page_lists_the_players_own_games_and_is_never_stored_by_the_http_caches(
    client, host, outsider
) -> None:
    match = finished_match(host, "sitaratas")
    client.force_login(host)
    response = client.get("/offline/")
    assert "private" in response["Cache-Control"] and "no-store" in response["Cache-Control"]
    assert response.context["games"] == [match]
    client.force_login(outsider)
    assert client.get("/offline/").context["games"] == []


def test_every_page_names_its_account_for_the_worker_and_links_the_manifest(client, host) -> None:
    assert b'data-account=""' in client.get("/").content
    client.force_login(host)
    page = client.get("/").content.decode()
    assert f'data-account="{host.pk}"' in page
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert 'id="install-app"' in page and "hidden" in page


def test_the_offline_page_gives_each_last_game_its_places_and_scores_readable_offline(client, host) -> None:
    # Issue 53: it read "1. 1Boris (bot)": a numbered list around a place badge whose style
    # (history.css) the worker never keeps, and no scores.
    from pages.pwa import PRECACHE

    match = finished_match(host, "sitaratas")
    client.force_login(host)
    page = client.get("/offline/").content.decode()
    places = page[page.index('class="grid offline-places"') :].split("</table>", 1)[0]
    rows = places.split("<tbody>", 1)[1].split("</tr>")[:-1]
    assert len(rows) == match.match_players.count()
    for mp in match.match_players.select_related("user"):
        row = next(row for row in rows if f">{mp.user.name}<" in row)
        assert f'<td class="num">{mp.place}</td>' in row and f'<td class="num">{mp.total}</td>' in row
    assert "<ol" not in places
    # Every stylesheet the page links is one the worker keeps for it.
    kept = {f"/static/{name}" for name in PRECACHE}
    sheets = re.findall(r'rel="stylesheet" href="([^"]+)"', page)
    assert sheets and all(re.sub(r"\.[0-9a-f]{12}\.css$", ".css", sheet) in kept for sheet in sheets), sheets
    css = Path(finders.find("css/site.css")).read_text()
    assert ".offline-places" in css
