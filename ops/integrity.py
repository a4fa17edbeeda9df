"""The integrity check behind ``manage.py verify_matches`` and its nightly task (issue 28).

The event log is the truth (games/models.py): every match's state must be what its seed and
its MatchEvents give when replayed through its engine, and a finished match's record, places
and totals what the replayed game says. The ledgers are double-entry: every transfer's entries,
and so every asset's accounts, sum to zero, every account's balance is the sum of its entries,
and a finished staked game paid exactly what the split function (``payouts.split``) gives for
the coins its stakers put in and the places the replayed game gave them.

Read-only: it reports differences and changes nothing. Each check is a plain read, so it can
run on a live site, a restored backup or the benchmark's database alike.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Q, Sum

from games import catalog
from games.catalog import get_engine
from games.models import Match, MatchEvent, MatchPlayer
from games.records import fairness, storage
from games.records.places import places_from_groups
from payouts.models import Account, Entry, Transfer
from payouts.split import split_pot


@dataclass
class Report:
    matches: int = 0
    events: int = 0
    transfers: int = 0
    differences: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences

    def summary(self) -> str:
        verdict = "OK" if self.ok else f"{len(self.differences)} difference(s)"
        return (
            f"verify_matches: {self.matches} match(es), {self.events} event(s), {self.transfers} transfer(s) "
            f"checked: {verdict}"
        )


def verify(*, since: datetime | None = None) -> Report:
    """Replay every match started or ended since ``since`` (all when None) and check the ledgers."""
    report = Report()
    matches = Match.objects.order_by("pk")
    if since is not None:
        matches = matches.filter(Q(started_at__gte=since) | Q(ended_at__gte=since))
    for match in matches.iterator(chunk_size=200):
        report.matches += 1
        for difference in _match_differences(match, report):
            report.differences.append(f"match {match.pk} (table {match.table_id}, {match.game}): {difference}")
    report.differences.extend(_ledger_differences(report, since))
    return report


def _match_differences(match: Match, report: Report) -> Iterator[str]:
    engine = get_engine(match.game)
    state = engine.new_game(match.players, match.options, match.seed)
    expected_version = 0
    for version, seat, action in (
        MatchEvent.objects.filter(match=match)
        .order_by("version")
        .values_list("version", "seat", "action")
        .iterator(chunk_size=2000)
    ):
        report.events += 1
        expected_version += 1
        if version != expected_version:
            yield f"event log has version {version} where {expected_version} was expected (a move lost or doubled)"
            return
        try:
            state = engine.apply(state, seat, action)
        except Exception as error:  # noqa: BLE001  (any refusal means the log and the engine disagree)
            yield f"event {version} (seat {seat + 1}) does not replay: {error}"
            return
    if expected_version != match.version:
        yield f"stored version {match.version}, but the event log ends at {expected_version}"
        return
    if engine.dumps(state) != storage.full_text(match):  # the finished rounds joined in (games/records/storage.py)
        yield "stored state differs from the state its events replay to"
    over = engine.is_over(state)
    if match.status == Match.Status.FINISHED and not over:
        yield "marked finished, but its events do not end the game"
    if match.status == Match.Status.PLAYING and over:
        yield "still playing, but its events end the game"
    if match.record is not None:
        # The site keeps its fair-deal data beside the engine's record (RULING P33): the engine's
        # part must be what the events replay to, and the fair-deal part must verify.
        stored = {key: value for key, value in match.record.items() if key != "fairness"}
        if _normal(engine.record(state)) != _normal(stored):
            yield "stored record differs from the replayed game's record"
        if "fairness" in match.record:
            try:
                checks = fairness.check_record(match.record, engines=catalog.ENGINES)
            except fairness.NotVerifiable as error:
                yield f"fair deal check failed: {error}"
                checks = []
            for check in checks:
                if check.ok is False:  # None: what a record alone cannot prove, not a failure
                    yield f"fair deal check failed: {check.line()}"
    if match.status == Match.Status.FINISHED and over:
        record = engine.record(state)
        places = places_from_groups(record["placements"])
        for seat, place, total in MatchPlayer.objects.filter(match=match).values_list("seat", "place", "total"):
            if place != places[seat] or total != record["totals"][seat]:
                yield (
                    f"seat {seat + 1} stored place {place} and total {total}, replayed place {places[seat]} "
                    f"and total {record['totals'][seat]}"
                )
        yield from _split_differences(match, places)


def _split_differences(match: Match, places: dict[int, int]) -> Iterator[str]:
    """A finished staked game paid its pot by the split function over its stakers' replayed places."""
    collected = dict(
        Transfer.objects.filter(match=match, reason=Transfer.Reason.POT_COLLECT, entries__amount__gt=0).values_list(
            "user_id", "entries__amount"
        )
    )
    if not collected:
        return
    seats = {user_id: seat for seat, user_id in MatchPlayer.objects.filter(match=match).values_list("seat", "user_id")}
    # RULING P50: the stakers who forfeited their share are left out of the split (their stake stays).
    forfeited = set(
        Transfer.objects.filter(match=match, reason=Transfer.Reason.POT_FORFEIT).values_list("user_id", flat=True)
    )
    sharing = [user_id for user_id in collected if user_id not in forfeited]
    if not sharing:
        # RULING P50: every staker forfeited, so every stake went back to its staker.
        refunded = dict(
            Transfer.objects.filter(match=match, reason=Transfer.Reason.POT_REFUND, entries__amount__gt=0).values_list(
                "user_id", "entries__amount"
            )
        )
        if refunded != collected:
            yield f"every staker forfeited; refunded {_by_user(refunded)}, staked {_by_user(collected)}"
        return
    shares = split_pot(sum(collected.values()), [(places[seats[user_id]], seats[user_id]) for user_id in sharing])
    expected = {user_id: shares[seats[user_id]] for user_id in sharing if shares[seats[user_id]]}
    paid = dict(
        Transfer.objects.filter(match=match, reason=Transfer.Reason.POT_PAYOUT, entries__amount__gt=0).values_list(
            "user_id", "entries__amount"
        )
    )
    if paid != expected:
        yield f"pot paid {_by_user(paid)}, the split gives {_by_user(expected)}"
    recorded = {
        user_id: payout
        for user_id, payout in MatchPlayer.objects.filter(match=match).values_list("user_id", "payout")
        if payout
    }
    if recorded != expected:
        yield f"players' recorded payouts {_by_user(recorded)}, the split gives {_by_user(expected)}"


def _ledger_differences(report: Report, since: datetime | None) -> Iterator[str]:
    transfers = Transfer.objects.all() if since is None else Transfer.objects.filter(created_at__gte=since)
    report.transfers = transfers.count()
    # A transfer without entries moves nothing (RULING P50's forfeit): balanced by definition.
    unbalanced = (
        transfers.annotate(total=Sum("entries__amount"))
        .filter(total__isnull=False)
        .exclude(total=0)
        .values_list("pk", "reason", "total")
    )
    for pk, reason, total in unbalanced:
        yield f"transfer {pk} ({reason}) entries sum to {total}, not 0"
    # The whole ledger, whatever ``since`` is: one bad entry anywhere breaks every balance.
    for asset, total in Account.objects.values("asset").annotate(total=Sum("balance")).values_list("asset", "total"):
        if total != 0:
            yield f"{asset} accounts sum to {total}, not 0"
    sums: dict[int, int] = defaultdict(int)
    for account_id, amount in (
        Entry.objects.values("account_id").annotate(total=Sum("amount")).values_list("account_id", "total")
    ):
        sums[account_id] = amount
    for pk, key, balance in Account.objects.values_list("pk", "key", "balance").iterator(chunk_size=2000):
        if balance != sums.get(pk, 0):
            yield f"account {key} balance {balance}, its entries sum to {sums.get(pk, 0)}"


def _normal(value: object) -> object:
    """JSON as stored: tuples become lists and integer keys strings, as the JSON column does."""
    return json.loads(json.dumps(value, sort_keys=True))


def _by_user(amounts: dict[int, int]) -> str:
    return "{" + ", ".join(f"user {user_id}: {amount}" for user_id, amount in sorted(amounts.items())) + "}"
