"""Every chat write (docs/style.md §5–7): post, report, hide, mute, and the host's switch.

Each public function is one transaction and raises ``ChatError`` with a message a
person can read; a refused write changes nothing. Moderation (hide, dismiss reports,
mute, lift a mute) writes an admin ``LogEntry`` in the same transaction. What the sockets
must hear goes to the outbox (chat/events.py) and out after commit.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from chat import rules
from chat.events import ChatChanged, MessageHidden, MessagePosted, MuteChanged
from chat.models import Channel, ChatMessage, ChatMute, ChatReport, ChatRoom, PersonalMute, table_model
from chat.selectors import message_payload, mute_active, mute_message, spectator_chat_on, viewer_role
from core import outbox
from core.i18n import lazy_format

REASON_LENGTH = 200
_LOCK_NAMESPACE = 23_0001  # pg_advisory_xact_lock(namespace, user id): one chat writer per user


class ChatError(Exception):
    """A refused chat action; the message is shown to the person as it is."""


def message_post(*, table_id: int, user: User, channel: str, text: object, now: datetime | None = None) -> ChatMessage:
    if isinstance(text, str) and len(text) > 4 * rules.MAX_LENGTH:
        # Refused before any work on it: cleaning could only shorten it so far.
        raise ChatError(
            lazy_format(
                _("A message can be at most %(most)s characters; yours has %(length)s."),
                most=rules.MAX_LENGTH,
                length=len(text),
            )
        )
    text = rules.clean_text(text)
    if not text:
        raise ChatError(_("Type a message first."))
    if len(text) > rules.MAX_LENGTH:
        raise ChatError(
            lazy_format(
                _("A message can be at most %(most)s characters; yours has %(length)s."),
                most=rules.MAX_LENGTH,
                length=len(text),
            )
        )
    if user.is_bot:
        raise ChatError(_("Bots do not chat."))
    with transaction.atomic():
        # Two sockets of one user posting at once must not both slip under the rate limit.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_NAMESPACE, user.pk])
        now = now or timezone.now()
        table = table_model().objects.filter(pk=table_id).first()
        if table is None or table.status == table.Status.CLOSED:
            raise ChatError(_("This table is closed; its chat is too."))
        mute = mute_active(user_id=user.pk, now=now)
        if mute is not None:
            raise ChatError(mute_message(mute))
        is_player, match = viewer_role(table=table, user_id=user.pk)
        allowed = rules.write_channel(is_player=is_player)
        if channel != allowed:
            # RULING P25.
            raise ChatError(
                "Spectators write only in the spectators' chat."
                if not is_player
                else "Players write only in the players' chat."
            )
        if allowed == Channel.SPECTATORS and not spectator_chat_on(table.pk):
            raise ChatError(_("The host has turned spectators' chat off at this table."))  # RULING P26
        _check_rate(user=user, text=text, now=now)
        message = ChatMessage.objects.create(
            table=table, match=match, author=user, channel=allowed, text=text, created_at=now
        )
        outbox.send(MessagePosted(table_id=table.pk, message=message_payload(message, author_name=user.name)))
        return message


def _check_rate(*, user: User, text: str, now: datetime) -> None:
    """RULING P27: at most 5 messages in any 10 seconds, and the same text at most twice."""
    window = timedelta(seconds=rules.RATE_WINDOW_SECONDS)
    recent = list(
        ChatMessage.objects.filter(author=user, created_at__gt=now - window)
        .order_by("created_at")
        .values_list("created_at", "text")
    )
    if len(recent) >= rules.RATE_MAX_MESSAGES:
        wait = max(1, int((recent[-rules.RATE_MAX_MESSAGES][0] + window - now).total_seconds() + 0.999))
        raise ChatError(
            lazy_format(
                _("Slow down: at most %(most)s messages in %(window)s seconds. You can write again in %(wait)s s."),
                most=rules.RATE_MAX_MESSAGES,
                window=rules.RATE_WINDOW_SECONDS,
                wait=wait,
            )
        )
    if sum(1 for _when, said in recent if said.casefold() == text.casefold()) >= rules.RATE_MAX_SAME_TEXT:
        raise ChatError(_("You have just said that. Say something else, or wait a few seconds to repeat it."))


def message_report(*, message_id: int, user: User, reason: object, table_id: int | None = None) -> ChatReport:
    """Anyone who can see a message may report it once, with a reason (RULING P28)."""
    reason = rules.clean_text(reason)[:REASON_LENGTH]
    if not reason:
        raise ChatError(_("Say why you report this message."))
    with transaction.atomic():
        message = ChatMessage.objects.select_related("table").filter(pk=message_id).first()
        if message is None or message.hidden or (table_id is not None and message.table_id != table_id):
            raise ChatError(_("There is no such message."))
        if message.author_id == user.pk:
            raise ChatError(_("You cannot report your own message."))
        is_player, _status = viewer_role(table=message.table, user_id=user.pk)
        if message.channel not in rules.visible_channels(is_player=is_player, status=message.table.status):
            raise ChatError(_("There is no such message."))
        try:
            with transaction.atomic():
                return ChatReport.objects.create(
                    message=message, reporter=user, reason=reason, created_at=timezone.now()
                )
        except IntegrityError:
            raise ChatError(_("You have already reported this message.")) from None


def message_hide(*, message_id: int, by: User, reason: str) -> ChatMessage:
    """Hide a message for everyone, at once on every open table page; its reports are resolved."""
    reason = rules.clean_text(reason)[:REASON_LENGTH]
    if not reason:
        raise ChatError(_("A moderator must say why a message is hidden."))
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise ChatError(_("There is no such message."))
        if message.hidden:
            raise ChatError(_("That message is already hidden."))
        now = timezone.now()
        message.hidden, message.hidden_by, message.hidden_reason, message.hidden_at = True, by, reason, now
        message.save(update_fields=["hidden", "hidden_by", "hidden_reason", "hidden_at"])
        ChatReport.objects.filter(message=message, resolved_at=None).update(resolved_at=now)
        _log(by, message, CHANGE, f"Hid the message: {reason}")
        outbox.send(MessageHidden(table_id=message.table_id, message_id=message.pk))
    return message


def reports_dismiss(*, message_id: int, by: User, reason: str) -> int:
    """The moderator read the reports and keeps the message, saying why (RULING P19); returns how
    many were open."""
    reason = rules.clean_text(reason)[:REASON_LENGTH]
    if not reason:
        raise ChatError(_("A moderator must say why the reports are dismissed."))
    with transaction.atomic():
        message = ChatMessage.objects.filter(pk=message_id).first()
        if message is None:
            raise ChatError(_("There is no such message."))
        count = ChatReport.objects.filter(message=message, resolved_at=None).update(resolved_at=timezone.now())
        if count:
            _log(by, message, CHANGE, f"Dismissed {count} report(s); the message stays: {reason}")
    return count


def mute_create(*, user: User, by: User, reason: str, until: datetime) -> ChatMute:
    """Mute a user from every table's chat until ``until`` (RULING P29)."""
    reason = rules.clean_text(reason)[:REASON_LENGTH]
    if not reason:
        raise ChatError(_("A mute needs a reason; the muted player is shown it."))
    now = timezone.now()
    if until <= now:
        raise ChatError(_("A mute must end in the future."))
    with transaction.atomic():
        mute = ChatMute.objects.create(user=user, reason=reason, until=until, created_by=by, created_at=now)
        _log(by, mute, ADDITION, f"Muted {user.username} from chat until {until:%Y-%m-%d %H:%M %Z}: {reason}")
        outbox.send(MuteChanged(user_id=user.pk))  # the player's open chat panels say so at once
    return mute


def mute_lift(*, mute_id: int, by: User, reason: str) -> ChatMute:
    """End a site-wide mute early; like setting one, it says why (RULING P19)."""
    reason = rules.clean_text(reason)[:REASON_LENGTH]
    if not reason:
        raise ChatError(_("Lifting a mute needs a reason."))
    with transaction.atomic():
        mute = ChatMute.objects.select_for_update().filter(pk=mute_id).first()
        if mute is None:
            raise ChatError(_("There is no such mute."))
        now = timezone.now()
        if mute.until <= now:
            raise ChatError(_("That mute has already ended."))
        mute.until = now
        mute.save(update_fields=["until"])
        _log(by, mute, CHANGE, f"Lifted the mute early: {reason}")
        outbox.send(MuteChanged(user_id=mute.user_id))
    return mute


def personal_mute_set(*, owner: User, muted_id: int, on: bool) -> None:
    """RULING P28: a person stops (or starts again) seeing one other person's messages."""
    if muted_id == owner.pk:
        raise ChatError(_("You cannot mute yourself."))
    with transaction.atomic():
        if not User.objects.filter(pk=muted_id).exists():
            raise ChatError(_("There is no such player."))
        if on:
            PersonalMute.objects.get_or_create(owner=owner, muted_id=muted_id)
        else:
            PersonalMute.objects.filter(owner=owner, muted_id=muted_id).delete()


def spectator_chat_set(*, table_id: int, by: User, on: bool) -> None:
    """RULING P26: the host turns spectators' chat off or on again; every socket re-reads the chat."""
    with transaction.atomic():
        table = table_model().objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise ChatError(_("There is no such table."))
        if table.host_id != by.pk:
            raise ChatError(_("Only the host can turn spectators' chat on or off."))
        ChatRoom.objects.update_or_create(table=table, defaults={"spectator_chat": on})
        outbox.send(ChatChanged(table_id=table.pk))


def _log(by: User, obj, flag: int, text: str) -> None:
    LogEntry.objects.log_actions(by.pk, [obj], flag, text, single_object=True)


def personal_mutes_erase(user: User) -> None:
    """RULING P23: whom a deleted account muted goes. Who muted it stays: that is the other
    player's choice, and lifting it would show them again the messages they chose not to see."""
    PersonalMute.objects.filter(owner=user).delete()
