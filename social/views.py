"""Friend and block actions: small POST forms from the friends page and the profiles.

Each calls one service, says what happened (or why not), and goes back where it came from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from social import services
from social.services import SocialError

if TYPE_CHECKING:
    from accounts.requests import AuthenticatedRequest


def _back(request: HttpRequest) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False):
        return redirect(target)
    return redirect("friends")


def _act(request: HttpRequest, action: Callable[[], object], done: str) -> HttpResponse:
    try:
        action()
    except SocialError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, done)
    return _back(request)


@login_required
@require_POST
def friend_request_send(request: AuthenticatedRequest) -> HttpResponse:
    who = request.POST.get("user") or ""
    if not who.isdigit():
        named = User.objects.filter(username__iexact=request.POST.get("username", "").strip(), is_bot=False).first()
        if named is None:
            messages.error(request, _("There is no player with that user name."))
            return _back(request)
        who = str(named.pk)
    return _act(
        request,
        lambda: services.friend_request_send(sender=request.user, recipient_id=who),
        _("Friend request sent."),
    )


@login_required
@require_POST
def friend_request_accept(request: AuthenticatedRequest, request_id: int) -> HttpResponse:
    return _act(
        request,
        lambda: services.friend_request_accept(user=request.user, request_id=request_id),
        _("You are friends now."),
    )


@login_required
@require_POST
def friend_request_decline(request: AuthenticatedRequest, request_id: int) -> HttpResponse:
    return _act(
        request,
        lambda: services.friend_request_decline(user=request.user, request_id=request_id),
        _("Friend request declined."),
    )


@login_required
@require_POST
def friend_request_cancel(request: AuthenticatedRequest, request_id: int) -> HttpResponse:
    return _act(
        request,
        lambda: services.friend_request_cancel(user=request.user, request_id=request_id),
        _("Friend request withdrawn."),
    )


@login_required
@require_POST
def friend_remove(request: AuthenticatedRequest, user_id: int) -> HttpResponse:
    return _act(
        request, lambda: services.friend_remove(user=request.user, friend_id=user_id), _("You are no longer friends.")
    )


@login_required
@require_POST
def block(request: AuthenticatedRequest, user_id: int) -> HttpResponse:
    return _act(request, lambda: services.block(user=request.user, blocked_id=user_id), _("Player blocked."))


@login_required
@require_POST
def unblock(request: AuthenticatedRequest, user_id: int) -> HttpResponse:
    return _act(request, lambda: services.unblock(user=request.user, blocked_id=user_id), _("Player unblocked."))
