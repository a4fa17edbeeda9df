"""One-click unsubscribe from a kind of notification e-mail (RFC 8058; RULING P76).

Each mail carries a link with a signed token naming the player and the kind. The link works
without logging in: a POST to it (what a mail program's "Unsubscribe" button sends, with
``List-Unsubscribe=One-Click``) turns that kind's e-mail off at once; a GET (what a person's
click, or a scanner that follows every link, sends) only shows a page asking to confirm, so a
link-following scanner unsubscribes no one. The token never expires: an old mail's link still works.
"""

from __future__ import annotations

from django.core import signing
from django.db import transaction

from notifications import kinds
from notifications.models import Preference

SALT = "notifications.unsubscribe"


def token_for(*, user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=SALT, compress=True)


def read(token: str) -> tuple[int, str] | None:
    """(user id, kind) from a token this site signed, else None."""
    try:
        value = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("u"), int) or not kinds.known(value.get("k")):
        return None
    return value["u"], value["k"]


def email_unsubscribe(*, user_id: int, kind: str) -> bool:
    """Turn that kind's e-mail off for the player; twice is once. False if the account is gone."""
    from accounts.models import User

    with transaction.atomic():
        if not User.objects.filter(pk=user_id).exists():
            return False
        Preference.objects.update_or_create(user_id=user_id, kind=kind, defaults={"email": False})
    return True
