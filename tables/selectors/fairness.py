"""Fair deals at a table, the reads (protocol in ``games.records.fairness``; docs/fairness.md;
RULINGS P30–P34): a browser's value checked, the bots' generator from the attempt's secret, and
an ended attempt's record with its fairness data. The secret is read only to seed the bots'
moves (under its own label) and, once the game is over, to reveal it; nothing that renders a page
or a socket frame gets it before then (``tables.selectors.fairness_panel``, ``match_panel``).
The writes (the commitment, the values, the seed's freeze) are ``tables.services.fairness``.
"""

from __future__ import annotations

import random
import secrets

from django.utils.translation import gettext_lazy as _

from core.i18n import refusal
from games.models import Match, MatchEvent
from games.records import fairness as protocol
from tables.errors import TableError
from tables.models import DealCommitment


def player_value(raw: object) -> str:
    """RULING P31: the value a browser sends with "ready" or "start"; refused when missing or malformed."""
    if raw is None or raw == "":
        raise TableError(
            _(
                "Your browser sent no random value with this (it must send 32 hex digits); "
                "reload the page and try again."
            )
        )
    try:
        return protocol.normalise_value(raw)
    except ValueError as error:
        raise TableError(refusal(error)) from None


def bot_rng(*, match: Match, seat: int, label: str = "bot") -> random.Random:
    """The generator for one bot (or house) move: drawn from the attempt's secret under its own
    label (``protocol.bot_seed``), never from the match's seed, so no bot can replay a deal's
    shuffle. The same move gets the same generator, so a retried task makes the same move. A
    game dealt before fair deals has no secret: its bots draw from ``secrets``."""
    secret = DealCommitment.objects.filter(match_id=match.pk).values_list("secret", flat=True).first()
    if secret is None:
        return random.Random(secrets.randbits(128))
    return random.Random(protocol.bot_seed(secret, match.pk, match.version, seat, label))


def with_fairness(match: Match, record: dict) -> dict:
    """RULING P33: the record of an ended attempt, with its fairness data and the secret revealed.

    The engine's record is untouched; the site adds one key beside it. Matches dealt before
    fair deals have no commitment and get no key: they stay "not verifiable".
    """
    commitment = DealCommitment.objects.filter(match=match).first()
    if commitment is None or not commitment.contributions:
        return record
    # Attempts started before fair-v2 froze their values without a version: they stay fair-v1.
    contributions = dict(commitment.contributions)
    version = contributions.pop("version", protocol.V1)
    actions = [
        [seat, action]
        for seat, action in MatchEvent.objects.filter(match=match).order_by("version").values_list("seat", "action")
    ]
    return {
        **record,
        "fairness": {
            "version": version,
            "commitment": commitment.commitment,
            "secret": commitment.secret,
            "table": match.table_id,
            "attempt": match.attempt,
            **contributions,
            "actions": actions,
        },
    }
