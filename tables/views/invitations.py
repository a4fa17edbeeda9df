"""The table's invitation panel (htmx) and the invitation link's landing (RULING P66)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.adapters import RETURN_AFTER_SIGN_UP
from tables.errors import TableError
from tables.selectors import invites as invite_selectors
from tables.services import invites, privacy

if TYPE_CHECKING:
    from accounts.requests import AuthenticatedRequest


def invite_landing(request: HttpRequest, token: str) -> HttpResponse:
    """A newcomer is sent to sign up (or log in) and comes back here after verifying their
    address (accounts/adapters.py); a signed-in player is invited and lands at the table."""
    if not request.user.is_authenticated:
        request.session[RETURN_AFTER_SIGN_UP] = request.get_full_path()
        messages.info(request, _("You are invited to a table. Sign up, or log in, to take your seat."))
        return redirect("account_signup")
    request.session.pop(RETURN_AFTER_SIGN_UP, None)
    try:
        table = invites.link_follow(token=token, user=request.user)
    except TableError as error:
        messages.error(request, str(error))
        return redirect("lobby")
    return redirect("table", table_id=table.pk)


def invite_panel(request: AuthenticatedRequest, table_id: int) -> dict | None:
    """The invitation panel for this viewer, or None; the host's shows the table's link, made on
    first asking."""
    context = invite_selectors.panel(table_id=table_id, user=request.user)
    if context is not None and context["is_host"]:
        context["link"] = invites.link_give(table_id=table_id, host=request.user, request=request)
    return context


def _panel(
    request: AuthenticatedRequest, table_id: int, action: Callable[[], object] | None, done: str = ""
) -> HttpResponse:
    notice, error = "", ""
    if action is not None:
        try:
            action()
        except TableError as refusal:
            error = str(refusal)
        else:
            notice = done
    context = invite_panel(request, table_id)
    return render(request, "tables/_invite_panel.html", {"invite_panel": context, "notice": notice, "error": error})


@login_required
@require_POST
def invite_friend(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    return _panel(
        request,
        table_id,
        lambda: invites.invite_send(table_id=table_id, by=request.user, user_id=request.POST.get("user")),
        _("Invitation sent."),
    )


@login_required
@require_POST
def challenge(request: AuthenticatedRequest, user_id: int) -> HttpResponse:
    """Issue 53: "Challenge" on a friend's row or profile opens a table with the player's last options
    for the game and invites the friend; a refusal is said on the page it came from."""
    try:
        table = invites.challenge(by=request.user, user_id=user_id, game=request.POST.get("game", ""))
    except TableError as error:
        messages.error(request, str(error))
        back = request.headers.get("referer", "")
        return redirect(
            back if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}) else "friends"
        )
    messages.success(request, _("Your friend is invited: the table waits for them."))
    return redirect("table", table_id=table.pk)


@login_required
@require_POST
def invite_link_renew(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    return _panel(
        request,
        table_id,
        lambda: invites.link_renew(table_id=table_id, host=request.user),
        _("A new link: the old one no longer works."),
    )


@login_required
@require_POST
def table_privacy(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    return _panel(
        request,
        table_id,
        lambda: privacy.privacy_set(
            table_id=table_id,
            host=request.user,
            private=request.POST.get("private") == "on",
            spectators=request.POST.get("spectators", ""),
        ),
        _("Saved."),
    )
