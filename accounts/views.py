from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from accounts.forms import ProfileForm
from accounts.models import User
from accounts.selectors import profile_stats


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
            messages.success(request, "Profile saved.")
            return redirect("profile", username=player.username)
    context = {"player": player, "own": own, "form": form, **profile_stats(player=player)}
    return render(request, "accounts/profile.html", context)
