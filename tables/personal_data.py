"""What tables keep about a player, for the data export and the deletion (RULINGS P23, P55)."""

from __future__ import annotations

from accounts.models import User
from accounts.personal_data import PersonalData
from tables.models import QuickPlayChoice, RematchAnswer, TableInvite
from tables.services.personal import tables_personal_erase


def tables_export(user: User) -> dict:
    """The invitations the player received, their "Play now" choices and their rematch answers."""
    return {
        "invitations": [
            {
                "table": invite.table_id,
                "from": invite.invited_by.username if invite.invited_by else None,
                "at": invite.created_at.isoformat(),
            }
            for invite in TableInvite.objects.filter(user=user).select_related("invited_by").order_by("pk")
        ],
        "quick_play": [
            {"game": choice.game, "seats": choice.seat_count, "options": choice.options, "bot_wait": choice.wait}
            for choice in QuickPlayChoice.objects.filter(user=user).order_by("game")
        ],
        "rematch_answers": [
            {"table": answer.rematch.table_id, "after": answer.rematch.source_id, "answer": answer.answer}
            for answer in RematchAnswer.objects.filter(user=user).select_related("rematch").order_by("pk")
        ],
    }


PERSONAL_DATA = (
    PersonalData(
        "tables",
        models=("tables.TableInvite", "tables.QuickPlayChoice", "tables.SeatAddress", "tables.RematchAnswer"),
        export=tables_export,
        erase=tables_personal_erase,
        kept="A rematch's answers stay with the rematch (one still waiting is declined first).",
    ),
    PersonalData(
        "table_records",
        models=("tables.Table", "tables.Seat", "tables.DismissalVote"),
        kept=(
            "The hosts, seats and dismissal votes of finished and closed tables are their games' record and "
            "stay under the anonymous name (RULING P23); an account seated at an open table is not deleted."
        ),
    ),
)
