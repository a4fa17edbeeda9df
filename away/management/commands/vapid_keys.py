"""``manage.py vapid_keys``: a new VAPID key pair, as the two environment lines the site reads."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from away.vapid import key_pair


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push (set both in the environment; keep the private one secret)."

    def handle(self, *args: object, **options: object) -> None:
        private, public = key_pair()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}\nVAPID_PUBLIC_KEY={public}\n")
