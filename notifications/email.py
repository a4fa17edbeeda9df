"""The e-mail channel: a notification by mail to a player who asked for that kind (RULING P69).

Off for every kind unless the player turned it on, and only to a verified address. Written in
the player's own language (their profile's, else the site's), with a link back to the site.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from config.i18n import supported
from notifications import texts
from notifications.models import Notification
from notifications.selectors import preference_of


def address_of(notification: Notification) -> str | None:
    user = notification.recipient
    if not preference_of(user_id=user.pk, kind=notification.kind).email:
        return None
    row = EmailAddress.objects.filter(user=user, verified=True).order_by("-primary", "pk").first()
    return row.email if row is not None else None


def deliver(notification: Notification) -> None:
    address = address_of(notification)
    if address is None:
        return
    language = supported(notification.recipient.language) or settings.LANGUAGE_CODE
    with translation.override(language):
        sentence = texts.text(notification)
        url = settings.SITE_URL.rstrip("/") + texts.link(notification)
        body = "\n\n".join(
            [
                sentence,
                url,
                _("You get this e-mail because you asked for it. Choose which notifications come by e-mail: %(url)s")
                % {"url": settings.SITE_URL.rstrip("/") + reverse("notification_settings")},
            ]
        )
        send_mail(f"{settings.SITE_NAME}: {sentence}", body, None, [address])
