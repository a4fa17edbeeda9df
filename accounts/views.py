from __future__ import annotations

import json
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from accounts import services
from accounts.export import user_export
from accounts.forms import AccountDeleteForm, ProfileForm
from accounts.models import User
from core.i18n import supported

if TYPE_CHECKING:
    from accounts.requests import AuthenticatedRequest


@login_required
def my_profile(request: HttpRequest) -> HttpResponse:
    return redirect("profile", username=request.user.username)


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username)
    own = request.user == player
    form = None
    if own:
        form = ProfileForm(request.POST or None, instance=player)
        if request.method == "POST" and form.is_valid():
            services.profile_update(user=player, fields=form.cleaned_data)
            messages.success(request, _("Profile saved."))
            if form.cleaned_data["language"]:
                # The new language shows from this very answer on (the next page, the socket).
                return _redirect_with_language(
                    redirect("profile", username=player.username), form.cleaned_data["language"]
                )
            return redirect("profile", username=player.username)
    context = {"player": player, "own": own, "form": form}  # the games: games' player_games tag
    return render(request, "accounts/profile.html", context)


def _redirect_with_language(response: HttpResponse, language: str) -> HttpResponse:
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE, samesite="Lax")
    return response


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The footer's switcher (issue 26): Django's cookie, and a signed-in player's profile too."""
    language = supported(request.POST.get("language"))
    if language and request.user.is_authenticated:
        services.user_language_set(user_id=request.user.pk, language=language)
    return set_language(request)


@login_required
def my_data(request: HttpRequest) -> HttpResponse:
    """RULING P55: what the download holds, and the button."""
    return render(request, "accounts/data.html", {"nav": "profile"})


@login_required
def my_data_download(request: AuthenticatedRequest) -> HttpResponse:
    document = json.dumps(user_export(user=request.user), cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)
    response = HttpResponse(document, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="sitaratas-{request.user.pk}-data.json"'
    response["Cache-Control"] = "no-store"  # personal data: no proxy or browser cache keeps a copy
    return response


@login_required
def account_delete(request: AuthenticatedRequest) -> HttpResponse:
    """RULING P55: a player deletes their own account (anonymised as RULING P23 says), after
    typing their password again; they are logged out, and their table sockets close."""
    form = AccountDeleteForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            services.account_delete_own(user_id=request.user.id)
        except services.AccountError as error:
            form.add_error(None, str(error))
        else:
            # The service removed every session of the account (and the sockets of the others hear
            # it when the account is saved); this logout tells this browser's sockets at once.
            logout(request)
            messages.success(request, _("Your account has been deleted. Thank you for playing."))
            return redirect("lobby")
    return render(request, "accounts/delete.html", {"form": form, "nav": "profile"})
