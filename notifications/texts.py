"""What a notification says and where it leads, in the reader's language at the time of reading.

Stored notifications keep codes and ids only (``kind``, ``data``); the sentence is made when it is
shown, so a player who changes language reads their old notifications in the new one.
"""

from __future__ import annotations

from django.urls import NoReverseMatch, reverse
from django.utils.formats import number_format
from django.utils.safestring import SafeString
from django.utils.translation import ngettext

from accounts.names import public_name, with_names
from games import catalog
from notifications import kinds
from notifications.models import Notification


def _sentence(notification: Notification) -> str:
    return str(kinds.get(notification.kind).sentence)


def _params(notification: Notification) -> dict[str, object]:
    data = notification.data or {}
    game = data.get("game")
    title: object = ""
    if isinstance(game, str) and catalog.known(game):
        title = catalog.get(game).title
    prize = data.get("prize")
    return {
        "game": title,
        "table": notification.table_id or "",
        "title": data.get("title", ""),
        "round": data.get("round", ""),
        "minutes": data.get("minutes", ""),
        "rank": data.get("rank", ""),
        "players": data.get("players", ""),
        # A tournament's prize (issue 53), as its own sentence; nothing when there is none.
        "prize": (
            ngettext("Your prize: %(coins)s coin.", "Your prize: %(coins)s coins.", prize)
            % {"coins": number_format(prize, force_grouping=True)}
            if isinstance(prize, int) and prize > 0
            else ""
        ),
    }


def _actor_name(notification: Notification) -> str:
    return public_name(notification.actor) if notification.actor_id else ""


def text(notification: Notification) -> str:
    """The sentence as plain text (a socket frame, an e-mail)."""
    return (_sentence(notification) % {"name": _actor_name(notification), **_params(notification)}).strip()


def html(notification: Notification) -> SafeString:
    """The sentence for a page: escaped, the actor's name and a tournament's title (chosen by a
    player) isolated in ``<bdi>``."""
    sentence = _sentence(notification)
    params = _params(notification)
    chosen = {"name": _actor_name(notification), "title": params.pop("title")}
    return with_names(sentence, chosen, **params)


def link(notification: Notification) -> str:
    """Where the notification leads: the sender's own ``data["url"]`` (a path on this site), else
    the table it is about, else the friends page."""
    url = (notification.data or {}).get("url")
    if isinstance(url, str) and url.startswith("/") and not url.startswith("//"):
        return url
    try:
        if notification.table_id:
            return reverse("table", args=[notification.table_id])
        return reverse("friends")
    except NoReverseMatch:
        return "/"
