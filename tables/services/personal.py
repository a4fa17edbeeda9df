"""A deleted account's rows at tables that are not a game's record (RULING P23).

Runs in the deletion's transaction (accounts/services.py), after the account has been refused
while it sits at a table that is waiting or playing, so no seat of an open table is touched here:
the seats, hosts and votes of finished and closed tables are their record and stay.
"""

from __future__ import annotations

from accounts.models import User
from tables.models import QuickPlayChoice, RematchAnswer, SeatAddress, TableInvite
from tables.services import rematch


def tables_personal_erase(user: User) -> None:
    # RULING P66: the invitations the person received go; those they sent stay the invited
    # players' way in, no longer naming who sent them.
    TableInvite.objects.filter(user=user).delete()
    TableInvite.objects.filter(invited_by=user).update(invited_by=None)
    QuickPlayChoice.objects.filter(user=user).delete()
    # RULING P72: where their seats were taken from (a keyed digest of the address) goes.
    SeatAddress.objects.filter(user=user).delete()
    # RULING P70: a rematch waiting for their answer would hold their seat for ever: declined, as
    # they could have declined it themselves, so the others' rematch can start without them.
    pending = RematchAnswer.objects.filter(user=user, answer=RematchAnswer.Answer.PENDING)
    for source_id in list(pending.values_list("rematch__source_id", flat=True)):
        rematch.rematch_decline(table_id=source_id, user=user)
