"""The installable app: the web app manifest, the service worker and the offline page (issue 40).

The service worker is served from the site's root so that its scope is the whole site. It keeps
two caches: the static files (their names carry their content's hash, so a cached one is never
stale) and one private page, the offline page, which lists the signed-in player's last games.
That page belongs to one account: the worker stores it with the id of the account it was made
for, and the site's script (static/js/pwa.js) tells the worker on every page who is signed in,
so a logout or another account's login drops it. Nothing else is cached: not the pages, not a
table's live fragments, not any JSON.
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.selectors.history import mark_sitaratas, matches_ended

OFFLINE_GAMES = 10
ICON_SIZES = (192, 512)
THEME_COLOUR = "#0f5132"  # the felt (static/css/site.css --felt)
BACKGROUND_COLOUR = "#f3f1ec"  # the page (--bg)
# The static files a first visit already needs offline: the stylesheet and the scripts every page loads.
PRECACHE = ("css/site.css", "js/site.js", "js/pwa.js", "icons/icon-192.png")


def manifest_data() -> dict:
    """Every member browsers require to offer installation, and the icons at the sizes they ask for."""
    icons = [
        {"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
        for size in ICON_SIZES
        for purpose in ("any", "maskable")
    ]
    return {
        "id": reverse("lobby"),
        "name": settings.SITE_NAME,
        "short_name": settings.SITE_NAME,
        "description": _("Sitaratas, Estimation and SITA, live."),
        "start_url": reverse("lobby"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": icons,
    }


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(json.dumps(manifest_data(), ensure_ascii=False), content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    context = {
        "version": json.dumps(hashlib.sha256(" ".join(static(name) for name in PRECACHE).encode()).hexdigest()[:16]),
        "precache": json.dumps([static(name) for name in PRECACHE]),
        "static_prefix": json.dumps(static("")),
        "offline_url": json.dumps(reverse("offline")),
    }
    response = render(request, "pages/sw.js", context, content_type="text/javascript")
    # The browser checks for a new worker on each navigation; a cached one would keep an old worker alive.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@never_cache
@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the app shows with no network: the player's last games, as they were when it was stored."""
    games = []
    if request.user.is_authenticated:
        games = list(matches_ended(player=request.user)[:OFFLINE_GAMES])
        mark_sitaratas(games)
    response = render(request, "pages/offline.html", {"games": games})
    response["Cache-Control"] = "private, no-store"
    return response
