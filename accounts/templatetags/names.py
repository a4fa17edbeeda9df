"""``{% load names %}`` … ``{{ user|player_name }}``: a player's name on a page (RULING P54).

Takes a user (their public name: see ``accounts.names.public_name``) or a name already looked up
(the score sheets' and replays' lists of names), and wraps it in ``<bdi>``. The live fragment's
Jinja2 templates have the same filter (tables/render/templates.py), from the same function.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from accounts.names import player_name_html

register = template.Library()


@register.filter
def player_name(who: object) -> SafeString:
    return player_name_html(who)
