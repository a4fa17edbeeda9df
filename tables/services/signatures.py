"""The table page's side of the Sitaratas signature (RULING S13): sign, then show it to all.

The rule lives in ``games.services``; this adds what a table needs: a refusal as a
``TableError`` for the socket, and a broadcast after commit so every seat and spectator
sees the signature on the result panel at once.
"""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from games.models import Signature
from games.services import GameError, signature_add
from tables.errors import TableError
from tables.live.broadcast import table_changed_on_commit


def match_sign(*, match_id: int, user: User, text: object) -> Signature:
    with transaction.atomic():
        try:
            signature = signature_add(match_id=match_id, user=user, text=text)
        except GameError as error:
            raise TableError(str(error)) from None
        table_changed_on_commit(signature.match.table_id, lobby=True)
        return signature
