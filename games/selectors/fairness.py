"""Fair deals on the game page (docs/fairness.md, RULINGS P33–P34): what the "Verify this deal"
panel shows and the server's deal check. Reads only the stored record: the site adds its
``fairness`` key when the game ends (``tables.selectors.fairness.with_fairness``).
"""

from __future__ import annotations

from accounts.names import public_name
from games import catalog
from games.models import Match
from games.records import fairness
from games.selectors import history


def fairness_panel(match: Match, viewer: object = None) -> dict:
    """The panel of an ended game (only those have a page, RULING P2); ``legacy`` when it was
    dealt before fair deals. Nothing here shows a card: a dismissed game's hands stay private.

    ``viewer_seat`` and ``viewer_account``: where the signed-in viewer sat, so that their browser
    checks its value at their own seat, under their own account (fair-v2 binds both)."""
    fair = (match.record or {}).get("fairness")
    if not fair:
        return {"legacy": True}
    players = history.seated_players(match)
    names = {player.seat: public_name(player.user) for player in players}
    users = {player.seat: player.user_id for player in players}
    viewer_id = getattr(viewer, "pk", None)
    mine = next((player.seat for player in players if viewer_id is not None and player.user_id == viewer_id), None)
    return {
        "viewer_seat": mine,
        "viewer_account": viewer_id if mine is not None else None,
        "attempt": fair.get("attempt"),
        "legacy": False,
        "version": fair["version"],
        "commitment": fair["commitment"],
        "secret": fair["secret"],
        "table": fair["table"],
        "hmac": fair["hmac"],
        "seed": fair["seed"],
        # No player sent a value (every seat the house's from the start): the site's secret alone.
        "site_alone": not any(entry.get("by") == "player" for entry in fair["values"]),
        "values": [
            {**entry, "name": names.get(entry["seat"], ""), "user_id": users.get(entry["seat"])}
            for entry in fair["values"]
        ],
    }


def fairness_checks(match: Match) -> dict:
    """RULING P34: the engine replays the game's actions from the seed the inputs give, and says
    which rounds' hands match the record. Only ✓/✗ per round leaves: no hand is shown."""
    try:
        checks = fairness.check_record(match.record, engines=catalog.ENGINES)
    except fairness.NotVerifiable as error:
        return {"verifiable": False, "message": str(error), "checks": []}
    return {
        "verifiable": True,
        "ok": all(check.ok is not False for check in checks),  # a note (None) is not a failure
        "checks": [check.as_dict() for check in checks],
    }
