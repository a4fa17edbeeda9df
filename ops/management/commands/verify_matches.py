"""``manage.py verify_matches [--since DATE]``: replay every match and check the ledgers (issue 28)."""

from __future__ import annotations

from datetime import UTC, datetime, time

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from ops.integrity import verify


def since_argument(text: str) -> datetime:
    """A date (from its midnight, UTC) or an ISO date and time."""
    moment = parse_datetime(text)
    if moment is None:
        day = parse_date(text)
        if day is None:
            raise ValueError(text)
        moment = datetime.combine(day, time.min)
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment, UTC)


class Command(BaseCommand):
    help = (
        "Replay every match's event log through its engine and compare it with the stored state and record; "
        "check that the coin and pass ledgers sum to zero and that every finished staked game paid its split. "
        "Exits with status 1 on any difference."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--since",
            type=since_argument,
            default=None,
            metavar="DATE",
            help="only matches started or ended since DATE (YYYY-MM-DD or ISO date and time, UTC); "
            "the ledger totals are always checked whole",
        )

    def handle(self, *args, since: datetime | None, **options) -> None:
        report = verify(since=since)
        for difference in report.differences:
            self.stderr.write(f"DIFFERENCE {difference}")
        if not report.ok:
            raise CommandError(report.summary())
        self.stdout.write(report.summary())
