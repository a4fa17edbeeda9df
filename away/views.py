"""The player's push devices (list, add from the browser, remove) and the e-mail unsubscribe pages."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from away import email, selectors, services, vapid
from notifications import kinds

if TYPE_CHECKING:
    from accounts.requests import AuthenticatedRequest


@login_required
@require_http_methods(["GET"])
def devices(request: AuthenticatedRequest) -> HttpResponse:
    context = {
        "devices": selectors.devices_of(user=request.user),
        "vapid_public_key": settings.VAPID_PUBLIC_KEY if vapid.enabled() else "",
        "nav": "profile",
    }
    return render(request, "away/devices.html", context)


@login_required
@require_POST
def device_add(request: AuthenticatedRequest) -> JsonResponse:
    """The browser's ``PushSubscription.toJSON()``, sent by static/js/push.js."""
    try:
        body = json.loads(request.body or b"{}")
        keys = body.get("keys") or {}
        services.device_add(
            user=request.user,
            endpoint=body.get("endpoint", ""),
            p256dh=keys.get("p256dh", ""),
            auth=keys.get("auth", ""),
            name=str(body.get("name", "")),
        )
    except (ValueError, AttributeError, TypeError):
        return JsonResponse({"error": _("This browser sent keys the site cannot use.")}, status=400)
    except services.DeviceError as error:
        return JsonResponse({"error": str(error)}, status=400)
    return JsonResponse({"ok": True, "message": _("This device will be notified.")})


@login_required
@require_POST
def device_remove(request: AuthenticatedRequest, device_id: int) -> HttpResponse:
    if services.device_remove(user=request.user, device_id=device_id):
        messages.success(request, _("The device was removed. It gets no more notices."))
    return redirect("push_devices")


@login_required
@require_POST
def device_forget(request: AuthenticatedRequest) -> HttpResponse:
    """Logging out on a browser forgets its subscription (sent as a beacon by static/js/pwa.js), so
    a shared computer does not go on showing the last player's notices."""
    services.device_remove(user=request.user, endpoint=request.POST.get("endpoint", ""))
    return HttpResponse(status=204)


@csrf_exempt  # RFC 8058: the mail program's one-click POST carries no form token; the signed token is the proof
@require_http_methods(["GET", "POST"])
def email_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """RULING P76: POST unsubscribes (one click, no login); GET only asks to confirm."""
    found = email.token_read(token)
    if found is None:
        return render(request, "away/unsubscribe.html", {"invalid": True}, status=404)
    user_id, kind = found
    context: dict[str, object] = {"kind_label": kinds.get(kind).label, "token": token}
    if request.method == "POST":
        if not services.email_unsubscribe(user_id=user_id, kind=kind):
            return render(request, "away/unsubscribe.html", {"invalid": True}, status=404)
        context["done"] = True
    return render(request, "away/unsubscribe.html", context)
