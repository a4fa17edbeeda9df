"""``{% load social_tags %}`` … ``{% friend_buttons player %}``: add, answer, unfriend and block on a profile."""

from __future__ import annotations

from django import template

from games import catalog
from social.models import Block, FriendRequest, Friendship

register = template.Library()


@register.inclusion_tag("social/_friend_buttons.html", takes_context=True)
def friend_buttons(context: template.Context, player) -> dict:
    viewer = context["request"].user
    shown = viewer.is_authenticated and viewer.pk != player.pk and not player.is_bot
    state = {"player": player, "shown": shown, "next": context["request"].get_full_path()}
    if not shown:
        return state
    state["friends"] = Friendship.objects.filter(user=viewer, friend=player).exists()
    state["challenge_games"] = catalog.titles()  # issue 53: a friend may be challenged from their profile
    state["sent"] = FriendRequest.objects.filter(sender=viewer, recipient=player).first()
    state["received"] = FriendRequest.objects.filter(sender=player, recipient=viewer, quiet=False).first()
    state["blocked"] = Block.objects.filter(blocker=viewer, blocked=player).exists()
    return state
