"""The e-mail channel: a notification by mail to a player who asked for that kind (RULINGS P69, P76).

Off for every kind unless the player turned it on, and only to a verified address. Written in
the player's own language (their profile's, else the site's), with a link back to the site.

A table sends one player at most one mail an hour, and a player gets at most
``EMAILS_PER_HOUR`` of them in all (RULING P76, ``notifications.limits``): the mails are a
fallback, not a transcript.
The channel only queues; the mail is written and sent by ``email_send``, which asks again
whether the notification is still true, and tries again later if the mail server is away.
Every mail can be unsubscribed from in one click (``notifications.unsubscribe``).
"""

from __future__ import annotations

import smtplib

from allauth.account.models import EmailAddress
from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from core.i18n import supported
from notifications import current, limits, texts, unsubscribe
from notifications.models import Notification, Sent
from notifications.selectors import preference_of

RETRIES = 5


def address_of(notification: Notification) -> str | None:
    user = notification.recipient
    if not preference_of(user_id=user.pk, kind=notification.kind).email:
        return None
    row = EmailAddress.objects.filter(user=user, verified=True).order_by("-primary", "pk").first()
    return row.email if row is not None else None


def _within_limits(notification: Notification) -> bool:
    """RULING P76: one mail per table per hour, and EMAILS_PER_HOUR per player."""
    return limits.claim(notification, channel=Sent.Channel.EMAIL, per_hour=settings.EMAILS_PER_HOUR, per_table=1)


def deliver(notification: Notification) -> None:
    if address_of(notification) is None or not _within_limits(notification):
        return
    email_send.delay(notification.pk)


def message_of(notification: Notification, address: str) -> EmailMessage:
    site = settings.SITE_URL.rstrip("/")
    token = unsubscribe.token_for(user_id=notification.recipient_id, kind=notification.kind)
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


@shared_task(bind=True, max_retries=RETRIES, acks_late=True)
def email_send(self, notification_id: int) -> bool:
    """Write and send the mail, if the notification is still there, still true and still wanted."""
    notification = Notification.objects.filter(pk=notification_id).select_related("recipient", "actor").first()
    if notification is None or not current.is_current(notification):
        return False
    address = address_of(notification)
    if address is None:
        return False
    try:
        message_of(notification, address).send()
    except (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError, TimeoutError, ConnectionError) as error:
        raise self.retry(exc=error, countdown=2 ** (self.request.retries + 1)) from None
    except smtplib.SMTPResponseException as error:
        if 400 <= error.smtp_code < 500:  # the server's "try again later"
            raise self.retry(exc=error, countdown=2 ** (self.request.retries + 1)) from None
        raise
    return True
