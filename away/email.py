"""The e-mail channel: a notification by mail to a player who asked for that kind (RULINGS P69, P76).

Off for every kind unless the player turned it on, and only to a verified address. Written in
the player's own language (their profile's, else the site's), with a link back to the site.

A table sends one player at most one mail an hour, and a player gets at most
``EMAILS_PER_HOUR`` of them in all (RULING P76, ``notifications.services.sent_claim``): the mails are a
fallback, not a transcript.
The channel only queues (``away.tasks.email_channel``); the mail is written and sent by the
``email_send`` task through ``mail_send``, which asks again whether the notification is still
true, and says when the mail server is away so the task tries again later.

Every mail can be unsubscribed from in one click (RFC 8058): it carries a link with a signed token
naming the player and the kind. The link works without logging in: a POST to it (what a mail
program's "Unsubscribe" button sends, with ``List-Unsubscribe=One-Click``) turns that kind's
e-mail off at once (``away.services.email_unsubscribe``); a GET (what a person's click, or a
scanner that follows every link, sends) only shows a page asking to confirm, so a link-following
scanner unsubscribes no one. The token never expires: an old mail's link still works.
"""

from __future__ import annotations

import smtplib

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from core.i18n import supported
from notifications import current, kinds, texts
from notifications.models import Notification, Sent
from notifications.selectors import preference_of
from notifications.services import sent_claim

RETRIES = 5
# The tokens' salt is the one they were first signed with, so the links of every mail sent keep working.
SALT = "notifications.unsubscribe"


class TryLater(Exception):
    """The mail server is away, or answered "try again later"; the cause is the server's error."""


def address_of(notification: Notification) -> str | None:
    user = notification.recipient
    if not preference_of(user_id=user.pk, kind=notification.kind).email:
        return None
    row = EmailAddress.objects.filter(user=user, verified=True).order_by("-primary", "pk").first()
    return row.email if row is not None else None


def _within_limits(notification: Notification) -> bool:
    """RULING P76: one mail per table per hour, and EMAILS_PER_HOUR per player."""
    return sent_claim(notification, channel=Sent.Channel.EMAIL, per_hour=settings.EMAILS_PER_HOUR, per_table=1)


def to_send(notification: Notification) -> bool:
    """The channel's choice: the player wants this kind by mail, has a verified address, and the
    hour's limits have room (a place is taken)."""
    return address_of(notification) is not None and _within_limits(notification)


def token_for(*, user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=SALT, compress=True)


def token_read(token: str) -> tuple[int, str] | None:
    """(user id, kind) from an unsubscribe token this site signed, else None."""
    try:
        value = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("u"), int) or not kinds.known(value.get("k")):
        return None
    return value["u"], value["k"]


def message_of(notification: Notification, address: str) -> EmailMessage:
    site = settings.SITE_URL.rstrip("/")
    token = token_for(user_id=notification.recipient_id, kind=notification.kind)
    unsubscribe_url = site + reverse("email_unsubscribe", args=[token])
    language = supported(notification.recipient.language) or settings.LANGUAGE_CODE
    with translation.override(language):
        sentence = texts.text(notification)
        body = "\n\n".join(
            [
                sentence,
                site + texts.link(notification),
                _("You get this e-mail because you asked for it. Choose which notifications come by e-mail: %(url)s")
                % {"url": site + reverse("notification_settings")},
                _("Stop these e-mails: %(url)s") % {"url": unsubscribe_url},
            ]
        )
        subject = f"{settings.SITE_NAME}: {sentence}"
    # RFC 2369 and RFC 8058: a mail program's one-click "Unsubscribe" posts to this address.
    headers = {"List-Unsubscribe": f"<{unsubscribe_url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    return EmailMessage(subject, body, None, [address], headers=headers)


def mail_send(*, notification_id: int) -> bool:
    """Write and send the mail, if the notification is still there, still true and still wanted.
    TryLater when the server is away or asks for later; any other refusal is raised as it is."""
    notification = Notification.objects.filter(pk=notification_id).select_related("recipient", "actor").first()
    if notification is None or not current.is_current(notification):
        return False
    address = address_of(notification)
    if address is None:
        return False
    try:
        message_of(notification, address).send()
    except (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError, TimeoutError, ConnectionError) as error:
        raise TryLater from error
    except smtplib.SMTPResponseException as error:
        if 400 <= error.smtp_code < 500:  # the server's "try again later"
            raise TryLater from error
        raise
    return True
