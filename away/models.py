"""A player's devices that asked for Web Push: one row per browser subscription (issue 40).

The endpoint is the push service's address for that one browser; ``p256dh`` and ``auth`` are
the browser's keys that the payload is encrypted to (RFC 8291). A row is removed when the push
service answers that the subscription is gone (404, 410), or when the player removes the device.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Device(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices", verbose_name=_("player")
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("public key"), max_length=100)
    auth = models.CharField(_("auth secret"), max_length=40)
    name = models.CharField(_("name"), max_length=80, blank=True, help_text=_("The browser, as it named itself."))
    created_at = models.DateTimeField(_("added at"))
    last_push_at = models.DateTimeField(_("last notice at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("push device")
        verbose_name_plural = _("push devices")

    def __str__(self) -> str:
        return gettext("%(name)s of %(user)s") % {"name": self.name or gettext("A device"), "user": self.user_id}
