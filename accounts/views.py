from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from accounts import services
from accounts.forms import ProfileForm
from accounts.models import User
from config.i18n import supported


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
            form.save()
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
