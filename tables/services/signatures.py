"""The table page's side of the Sitaratas signature (RULING S13): sign, then show it to all.

The rule lives in ``games.services``; this adds what a table needs: a refusal as a
``TableError`` for the socket, and a broadcast after commit so every seat and spectator
sees the signature on the result panel at once.
"""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from chat.selectors import mute_active, mute_message
from games.models import Signature
from games.services import GameError, signature_add
from tables.errors import TableError
from tables.services.steps import table_changed


def match_sign(*, match_id: int, user: User, text: object) -> Signature:
    # RULING S15: a signature is moderated as chat is; a player muted site-wide may not sign
    # while the mute lasts (it is offered again afterwards).
    mute = mute_active(user_id=user.pk)
    if mute is not None:
        raise TableError(mute_message(mute))
    with transaction.atomic():
        try:
            signature = signature_add(match_id=match_id, user=user, text=text)
        except GameError as error:
            raise TableError(str(error)) from None
        table_changed(signature.match.table_id)
        return signature
