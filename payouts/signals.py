"""New human accounts get their starting coins and passes (RULINGS P4, P6).

A post_save on User covers every way an account is made (allauth's signup, the admin,
``createsuperuser``); bots get nothing (RULING P1). The rule itself lives in the service.
"""

from __future__ import annotations

from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import User


@receiver(post_save, sender=User, dispatch_uid="payouts_account_open")
def account_opened(sender, instance: User, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw and not instance.is_bot:
        from payouts.services import account_open

        # An admin adding the account says so on the instance (accounts/admin.py), so the grants
        # name them (RULING P19); every other way of making an account leaves these empty.
        account_open(user=instance, by=instance.opened_by, reason=instance.opened_reason)
