from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render

from payouts import selectors

if TYPE_CHECKING:
    from accounts.requests import AuthenticatedRequest


@login_required
def wallet(request: AuthenticatedRequest) -> HttpResponse:
    """RULING P7: the player's own coins and passes, and every movement of them."""
    user = request.user
    context = {
        "nav": "wallet",
        "balance": selectors.coin_balance(user=user),
        # RULINGS P43, P83: a tournament's fee held or in its pot counts as a stake's does.
        "held": selectors.stakes_held(user=user) + selectors.fees_held(user=user),
        "in_play": selectors.stakes_in_play(user=user) + selectors.fees_in_pots(user=user),
        "passes": selectors.pass_counts(user=user),
        "coin_moves": selectors.coin_movements(user=user),
        "pass_moves": selectors.pass_movements(user=user),
    }
    return render(request, "payouts/wallet.html", context)
