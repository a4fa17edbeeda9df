"""The Prometheus endpoint, behind a bearer token (issue 28)."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST

from core.metrics import exposition


@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """``Authorization: Bearer $METRICS_TOKEN``; without a token set the endpoint does not exist."""
    token = settings.METRICS_TOKEN
    if not token:
        raise Http404
    offered = request.headers.get("Authorization", "").removeprefix("Bearer ")
    if not hmac.compare_digest(offered.encode(), token.encode()):
        return HttpResponse("A valid metrics token is required.\n", status=401, content_type="text/plain")
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)
