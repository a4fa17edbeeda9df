"""Chat reads (docs/style.md §5): what one viewer's chat panel shows, and a finished game's chat."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.names import public_name
from accounts.selectors import users_named_publicly
from chat import rules
from chat.models import Channel, ChatMessage, ChatMute, ChatReport, ChatRoom, PersonalMute, table_model
from games.models import Match
from social.selectors import blocked_ids


def message_payload(message: ChatMessage, *, author_name: str) -> dict:
    """What a browser gets of a message: nothing but what its author typed, and who and when.
    When is an instant, which the browser writes in its reader's zone (static/js/chat.js): one
    message goes to every viewer of the table, whatever their zone (issue 53)."""
    return {
        "id": message.pk,
        "channel": message.channel,
        "author_id": message.author_id,
        "author": author_name,
        "text": message.text,
        "at": message.created_at.astimezone(UTC).isoformat(),
    }


def mute_active(*, user_id: int, now: datetime | None = None) -> ChatMute | None:
    """The site-wide mute in force for this user, the one that ends last, if any."""
    now = now or timezone.now()
    return ChatMute.objects.filter(user_id=user_id, until__gt=now).order_by("-until").first()


def mute_message(mute: ChatMute) -> str:
    until = timezone.localtime(mute.until)
    return _("You are muted from chat until %(until)s %(zone)s. Reason: %(reason)s") % {
        "until": date_format(until, "j M Y, H:i"),
        "zone": until.tzname(),
        "reason": mute.reason,
    }


def viewer_role(*, table: Any, user_id: int) -> tuple[bool, Match | None]:
    """Whether the user is a player at the table now, and the match a message belongs to.

    In a game (or after it) the players are the match's; in the lobby, whoever holds a seat.
    A message said during or after a game belongs to that game, so it shows on its page.
    """
    if table.status in (table.Status.PLAYING, table.Status.FINISHED):
        match = table.matches.order_by("-attempt").first()
        if match is not None:
            return match.match_players.filter(user_id=user_id).exists(), match
    return table.seats.filter(user_id=user_id).exists(), None


def spectator_chat_on(table_id: int) -> bool:
    room = ChatRoom.objects.filter(table_id=table_id).first()
    return room is None or room.spectator_chat


def muted_by(user_id: int) -> set[int]:
    return set(PersonalMute.objects.filter(owner_id=user_id).values_list("muted_id", flat=True))


def unseen_authors(user_id: int) -> set[int]:
    """Whose messages this reader is not shown: those they muted (RULING P28) and those on either
    side of a block with them (RULING P67: neither sees the other's chat)."""
    return muted_by(user_id) | blocked_ids(user_id=user_id)


def muted_actor(recipient_id: int, actor_id: int) -> bool:
    """Whether the recipient muted the actor (RULING P67 drops what the actor sends them)."""
    return PersonalMute.objects.filter(owner_id=recipient_id, muted_id=actor_id).exists()


def panel_state(*, table_id: int, user: User) -> dict | None:
    """Everything the panel needs on (re)connect or after a change of room: the recent messages
    this viewer may see, where they write, and why they cannot, if they cannot."""
    table = table_model().objects.filter(pk=table_id).first()
    if table is None:
        return None
    is_player, _match = viewer_role(table=table, user_id=user.pk)
    spectator_chat = spectator_chat_on(table.pk)
    channels = rules.visible_channels(is_player=is_player, status=table.status, spectator_chat=spectator_chat)
    muted = muted_by(user.pk)
    unseen = muted | blocked_ids(user_id=user.pk)
    write = rules.write_channel(is_player=is_player)
    notice = ""
    mute = mute_active(user_id=user.pk)
    if table.status == table.Status.CLOSED:
        notice = _("This table is closed; its chat is too.")
    elif mute is not None:
        notice = mute_message(mute)
    elif user.is_bot:
        notice = _("Bots do not chat.")
    elif write == Channel.SPECTATORS and not spectator_chat:
        notice = _("The host has turned spectators' chat off at this table.")
    recent = (
        ChatMessage.objects.filter(table=table, channel__in=channels, hidden=False)
        .exclude(author_id__in=unseen)
        .prefetch_related(_authors())
        .order_by("-id")[: rules.HISTORY_LENGTH]
    )
    return {
        "type": "state",
        "messages": [message_payload(message, author_name=public_name(message.author)) for message in reversed(recent)],
        "channels": list(channels),
        "write": write,
        "can_write": not notice,
        "notice": notice,
        "is_host": table.host_id == user.pk,
        "spectator_chat": spectator_chat,
        "me": user.pk,
        "muted": sorted(muted),
        "unseen": sorted(unseen),
        "muted_users": [{"id": pk, "name": name} for pk, name in _names(muted)],
        "phrases": [str(phrase) for phrase in rules.QUICK_PHRASES],
        "max_length": rules.MAX_LENGTH,
    }


def _names(user_ids: set[int]) -> list[tuple[int, str]]:
    users = User.objects.filter(pk__in=user_ids).order_by("username") if user_ids else []
    return [(user.pk, user.name) for user in users]


def match_messages(*, match: Match, user) -> QuerySet[ChatMessage] | None:
    """A game's chat for its own players once it has ended (RULING P25); ``None`` for anyone else."""
    if match.status == Match.Status.PLAYING or not getattr(user, "is_authenticated", False):
        return None
    if not match.match_players.filter(user_id=user.pk).exists():
        return None
    return (
        ChatMessage.objects.filter(match=match, hidden=False)
        .exclude(author_id__in=unseen_authors(user.pk))
        .prefetch_related(_authors())
        .order_by("id")
    )


def _authors() -> Prefetch:
    # RULING P54: an author muted site-wide is shown by a neutral name while the mute lasts.
    return Prefetch("author", queryset=users_named_publicly())


def chat_export(user: User) -> dict:
    """RULING P55: everything the player wrote in chat (hidden messages too, marked), their
    reports, and whom they muted for themselves."""
    messages = ChatMessage.objects.filter(author=user).order_by("pk")
    return {
        "messages": [
            {
                "id": message.pk,
                "at": message.created_at.isoformat(),
                "table": message.table_id,
                "game": message.match_id,
                "channel": message.channel,
                "text": message.text,
                "hidden": message.hidden,
            }
            for message in messages
        ],
        "reports": [
            {"message": report.message_id, "at": report.created_at.isoformat(), "reason": report.reason}
            for report in ChatReport.objects.filter(reporter=user).order_by("pk")
        ],
        "muted_players": sorted(PersonalMute.objects.filter(owner=user).values_list("muted__username", flat=True)),
    }
