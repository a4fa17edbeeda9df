"""What a notification says and where it leads, in the reader's language at the time of reading.

Stored notifications keep codes and ids only (``kind``, ``data``); the sentence is made when it is
shown, so a player who changes language reads their old notifications in the new one.
"""

from __future__ import annotations

from django.urls import NoReverseMatch, reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from accounts.names import public_name, with_names
from games import catalog
from notifications import kinds
from notifications.models import Notification

_SENTENCES = {
    kinds.FRIEND_REQUEST: lambda: _("%(name)s asks to be your friend."),
    kinds.FRIEND_ACCEPTED: lambda: _("%(name)s accepted your friend request."),
    kinds.INVITE: lambda: _("%(name)s invites you to a %(game)s table (#%(table)s)."),
    kinds.REMATCH_OFFER: lambda: _("%(name)s offers a rematch of %(game)s."),
    kinds.TABLE_STARTING: lambda: _("Your %(game)s table (#%(table)s) is starting."),
    kinds.TOURNAMENT_STARTING: lambda: _("The tournament %(title)s starts in %(minutes)s min."),
    kinds.ROUND_READY: lambda: _("Round %(round)s of %(title)s: your table is ready."),
    kinds.YOUR_TURN: lambda: _("It is your turn at the %(game)s table (#%(table)s)."),
}


def _params(notification: Notification) -> dict[str, object]:
    data = notification.data or {}
    game = data.get("game")
    title: object = ""
    if isinstance(game, str) and catalog.known(game):
        title = catalog.get(game).title
    return {
        "game": title,
        "table": notification.table_id or "",
        "title": data.get("title", ""),
        "round": data.get("round", ""),
        "minutes": data.get("minutes", ""),
    }


def _actor_name(notification: Notification) -> str:
    return public_name(notification.actor) if notification.actor_id else ""


def text(notification: Notification) -> str:
    """The sentence as plain text (a socket frame, an e-mail)."""
    sentence = _SENTENCES.get(notification.kind, lambda: _("%(name)s sent you a notification."))()
    return sentence % {"name": _actor_name(notification), **_params(notification)}


def html(notification: Notification) -> SafeString:
    """The sentence for a page: escaped, the actor's name and a tournament's title (chosen by a
    player) isolated in ``<bdi>``."""
    sentence = _SENTENCES.get(notification.kind, lambda: _("%(name)s sent you a notification."))()
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
