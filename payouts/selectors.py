"""Reads of the coin and pass ledgers (docs/style.md §5): balances, pots and a player's history."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction

from django.db.models import Count, Q, Sum
from django.utils.formats import number_format
from django.utils.translation import ngettext

from accounts.models import User
from games.models import Match
from payouts.memos import memo_text, pot_share_of
from payouts.models import Account, Asset, Entry, Transfer
from payouts.owners import TABLE, Place, TableRef, places_of
from payouts.split import SHARES

Kind = Account.Kind
PASS_KINDS = (Kind.PASSES_FREE, Kind.PASSES_HELD, Kind.PASSES_RESTORED, Kind.PASSES_USED, Kind.TOURNAMENT_PASSES)


@dataclass(frozen=True)
class Movement:
    transfer: Transfer
    amount: int
    balance_after: int | None
    # RULING P43 (P7): a stake's whole story, not only what touched the wallet. ``story``
    # rows move no coins of the wallet (the stake going into the pot, a stake lost); the pass
    # rows say how each of free, reserved and used changed.
    story: str = ""
    reserved: int = 0
    lost: bool = False  # a story row: the stake stayed in the pot
    used: int = 0
    # Issue 37: a payout's share of its pot ("60 % of a pot of 30 coins"); a stake whose game was
    # aborted or abandoned, refunded.
    detail: str = ""
    refunded: bool = False
    # Issue 53: the owner that is not a table (a tournament), named by its app (payouts/owners.py).
    place: Place | None = None
    # The pass list's free, reserved and used passes after the movement (issue 53).
    after: tuple[int, int, int] | None = None

    @property
    def memo(self) -> str:
        """The transfer's memo in the reader's language (payouts/memos.py)."""
        return memo_text(self.transfer.memo)

    @property
    def by_name(self) -> str:
        """The admin who caused the row, unless its memo names them already ("Aborted by boss: …")."""
        by = self.transfer.by
        if by is None or f"by {by.name}:" in (self.transfer.memo or ""):
            return ""
        return by.name

    @property
    def pass_deltas(self) -> tuple[int, int, int]:
        return self.amount, self.reserved, self.used

    @property
    def pass_steps(self) -> list[tuple[int, int | None]]:
        """Each of free, reserved and used: the change and the count after it."""
        after = self.after or (None, None, None)
        return list(zip(self.pass_deltas, after, strict=True))


def coin_balance(*, user: User) -> int:
    return _sum(Account.objects.filter(kind=Kind.WALLET, user=user))


def pass_counts(*, user: User) -> dict[str, int]:
    """Free, reserved (held or restored at a table) and used passes."""
    rows = dict(
        Account.objects.filter(user=user, kind__in=PASS_KINDS)
        .values("kind")
        .annotate(total=Sum("balance"))
        .values_list("kind", "total")
    )
    return {
        "free": rows.get(Kind.PASSES_FREE, 0),
        "reserved": rows.get(Kind.PASSES_HELD, 0)
        + rows.get(Kind.PASSES_RESTORED, 0)
        + rows.get(Kind.TOURNAMENT_PASSES, 0),
        "used": rows.get(Kind.PASSES_USED, 0),
    }


def stakes_held(*, user: User) -> int:
    return _sum(Account.objects.filter(kind=Kind.STAKE_HELD, user=user))


def fees_held(*, user: User) -> int:
    """RULING P83: coins of entry fees held for tournaments not yet started."""
    return _sum(Account.objects.filter(kind=Kind.ENTRY_HELD, user=user))


def fees_in_pots(*, user: User) -> int:
    """RULING P83: the player's entry fees in the pots of tournaments still going (a pot paid out
    or refunded holds nothing)."""
    going = Account.objects.filter(kind=Kind.TOURNAMENT_POT, balance__gt=0).values_list("pk", flat=True)
    entries = Entry.objects.filter(
        transfer__reason=Transfer.Reason.ENTRY_COLLECT, transfer__user=user, amount__gt=0, account__in=going
    )
    return entries.aggregate(total=Sum("amount"))["total"] or 0


def stakes_in_play(*, user: User) -> int:
    """Coins of the player's stakes now in the pots of games in play (they left the hold at the start)."""
    entries = Entry.objects.filter(
        transfer__reason=Transfer.Reason.POT_COLLECT,
        transfer__user=user,
        amount__gt=0,
        transfer__match__status=Match.Status.PLAYING,
    )
    return entries.aggregate(total=Sum("amount"))["total"] or 0


def table_pot(*, table: TableRef, match: Match | None) -> int:
    """The pot a table page shows: stakes held in the lobby, the game's collected stakes once started."""
    if match is None:
        return _sum(Account.objects.filter(kind=Kind.STAKE_HELD, owner_kind=TABLE, owner_id=table.pk))
    collected = Entry.objects.filter(transfer__match=match, transfer__reason=Transfer.Reason.POT_COLLECT, amount__gt=0)
    return collected.aggregate(total=Sum("amount"))["total"] or 0


def forfeits(*, match: Match) -> dict[int, str]:
    """RULING P50: each staker of ``match`` who took no share, and why (user id → the stored memo,
    worded by ``memos.memo_text`` in the reader's language)."""
    rows = Transfer.objects.filter(match=match, reason=Transfer.Reason.POT_FORFEIT).values_list("user_id", "memo")
    return {user_id: memo for user_id, memo in rows if user_id is not None}


def passes_restored(*, match: Match) -> int:
    """How many passes an approved dismissal of ``match`` gave back (RULING P6: none for a restart's)."""
    return Transfer.objects.filter(match=match, reason=Transfer.Reason.PASS_RESTORE).count()


def given_back_at_close(*, table: TableRef) -> dict[int, dict[str, int]]:
    """What each player got back when the table closed before its start or its game was aborted
    (RULINGS P5, P6, P8): ``{user_id: {"coins": n, "passes": n}}``, for the closed table's page."""
    Reason = Transfer.Reason
    before_start = "Table closed before the start:"
    closed = Q(reason__in=[Reason.STAKE_RELEASE, Reason.PASS_RELEASE], memo__startswith=before_start)
    rows = (
        Transfer.objects.filter(table_id=table.pk)
        .filter(Q(reason__in=[Reason.POT_REFUND, Reason.PASS_REFUND]) | closed)
        .annotate(moved=Sum("entries__amount", filter=Q(entries__amount__gt=0)))
        .values_list("user_id", "asset", "moved")
    )
    given: dict[int, dict[str, int]] = {}
    for user_id, asset, moved in rows:
        entry = given.setdefault(user_id, {"coins": 0, "passes": 0})
        entry["coins" if asset == Asset.COINS else "passes"] += moved or 0
    return given


def coin_movements(*, user: User, limit: int = 200) -> list[Movement]:
    """Every movement in and out of the player's wallet, newest first, with the balance after it,
    and the steps of each stake that do not touch the wallet: into the pot, and lost."""
    moves = _movements(Entry.objects.filter(account__kind=Kind.WALLET, account__user=user), limit=limit, running=True)
    moves = _with_pot_shares(moves)
    stories = _stake_stories(user, limit) + _fee_stories(user, limit)
    if not stories:
        return _with_places(moves)
    merged = sorted(moves + stories, key=lambda m: (m.transfer.created_at, m.transfer.pk, bool(m.story)), reverse=True)
    # A story row moves nothing: it shows the balance of the wallet movement before it in time.
    balance = None
    for index in range(len(merged) - 1, -1, -1):
        move = merged[index]
        if move.story:
            merged[index] = replace(move, amount=0, balance_after=balance)
        else:
            balance = move.balance_after
    return _with_places(merged[:limit])


def _with_places(moves: list[Movement]) -> list[Movement]:
    """Each movement of an owner other than a table (a tournament's fee, pot or prize) with that
    owner's name and page, read in one query for all of them (issue 53)."""
    ids = {m.transfer.pk for m in moves if m.transfer.owner_id is not None and m.transfer.table_id is None}
    if not ids:
        return moves
    owner_of: dict[int, tuple[str, int]] = {
        transfer_id: (kind, owner_id)
        for transfer_id, kind, owner_id in Entry.objects.filter(transfer_id__in=ids)
        .exclude(account__owner_kind="")
        .values_list("transfer_id", "account__owner_kind", "account__owner_id")
        if owner_id is not None
    }
    places = places_of(set(owner_of.values()))
    return [
        replace(move, place=places.get(owner_of.get(move.transfer.pk, ("", 0)))) if move.transfer.pk in ids else move
        for move in moves
    ]


def _fee_stories(user: User, limit: int) -> list[Movement]:
    """RULING P83: a tournament's entry fee going from its hold into the pot, which leaves the
    wallet untouched, shown as a stake's step is (RULING P43)."""
    collects = (
        Transfer.objects.filter(user=user, reason=Transfer.Reason.ENTRY_COLLECT)
        .annotate(coins=Sum("entries__amount", filter=Q(entries__amount__gt=0)))
        .order_by("-created_at")[:limit]
    )
    return [
        Movement(
            collect,
            0,
            None,
            ngettext(
                "%(coins)s held coin went into the tournament's pot.",
                "%(coins)s held coins went into the tournament's pot.",
                collect.coins,
            )
            % {"coins": number_format(collect.coins, force_grouping=True)},
        )
        for collect in collects
    ]


def _with_pot_shares(moves: list[Movement]) -> list[Movement]:
    """Each payout with the pot it came from and its share of it, in one query for all of them."""
    matches = {m.transfer.match_id for m in moves if m.transfer.reason == Transfer.Reason.POT_PAYOUT}
    if not matches:
        return moves
    pots = dict(
        Entry.objects.filter(transfer__match__in=matches, transfer__reason=Transfer.Reason.POT_COLLECT, amount__gt=0)
        .values("transfer__match")
        .annotate(total=Sum("amount"))
        .values_list("transfer__match", "total")
    )
    # Tied stakers' payouts carry the same memo (the same rank and place): how many share it.
    tied: Counter[tuple[int | None, str]] = Counter(
        {
            (match_id, memo): count
            for match_id, memo, count in Transfer.objects.filter(
                match__in=matches, reason=Transfer.Reason.POT_PAYOUT, memo__startswith="Pot share: tied"
            )
            .values("match", "memo")
            .annotate(count=Count("pk"))
            .values_list("match", "memo", "count")
        }
    )
    shared = []
    for move in moves:
        paid_out = move.transfer.reason == Transfer.Reason.POT_PAYOUT and move.transfer.match_id is not None
        pot = pots.get(move.transfer.match_id) if paid_out else None  # type: ignore[arg-type]
        if pot:
            group = tied[(move.transfer.match_id, move.transfer.memo)] or 1
            move = replace(move, detail=share_detail(move.amount, pot, move.transfer.memo, group))
        shared.append(move)
    return shared


def _decimal(value: Fraction) -> str:
    """A share as a player reads it: 60, 16.8, 22.5, 33.33 (at most two decimals, in the active language)."""
    for places in (0, 1, 2):
        if value * 10**places == int(value * 10**places) or places == 2:
            return number_format(round(float(value), places), decimal_pos=places, force_grouping=True)
    raise AssertionError("unreachable")


def share_detail(amount: int, pot: int, memo: str, tied: int = 1) -> str:
    """Issue 53: a payout's share of its pot as the lobby promised it (RULING P5's 60 / 30 / 10),
    and where it is not a whole number of coins, the rounding down and the spare coin the
    best-placed recipients take, so "61 % of a pot of 28" never reads as a broken promise."""
    share = pot_share_of(memo)
    if share is None:
        percent = Fraction(100 * amount, pot)
    else:
        rank, count, _is_tied = share
        spanned = SHARES.get(count, (100,))[rank - 1 : rank - 1 + tied]
        percent = Fraction(sum(spanned), tied)
    exact = pot * percent / 100
    floor = int(exact)
    spare = amount - floor
    values = {
        "percent": _decimal(percent),
        "pot": number_format(pot, force_grouping=True),
        "exact": _decimal(exact),
        "floor": number_format(floor, force_grouping=True),
        "spare": spare,
    }
    if exact == amount or share is None:
        return (
            ngettext("%(percent)s%% of a pot of %(pot)s coin.", "%(percent)s%% of a pot of %(pot)s coins.", pot)
            % values
        )
    if spare <= 0:
        return (
            ngettext(
                "%(percent)s%% of a pot of %(pot)s coin is %(exact)s, rounded down to %(floor)s (shares are paid in "
                "whole coins; the coins left over go one each to the best placed).",
                "%(percent)s%% of a pot of %(pot)s coins is %(exact)s, rounded down to %(floor)s (shares are paid in "
                "whole coins; the coins left over go one each to the best placed).",
                pot,
            )
            % values
        )
    return (
        ngettext(
            "%(percent)s%% of a pot of %(pot)s coins is %(exact)s, rounded down to %(floor)s, plus %(spare)s "
            "coin left over from the rounding (the coins left over go one each to the best placed).",
            "%(percent)s%% of a pot of %(pot)s coins is %(exact)s, rounded down to %(floor)s, plus %(spare)s "
            "coins left over from the rounding (the coins left over go one each to the best placed).",
            spare,
        )
        % values
    )


def _stake_stories(user: User, limit: int) -> list[Movement]:
    from games.models import MatchPlayer

    rows = []
    collects = (
        Transfer.objects.filter(user=user, reason=Transfer.Reason.POT_COLLECT)
        .annotate(coins=Sum("entries__amount", filter=Q(entries__amount__gt=0)))
        .select_related("table", "match")
        .order_by("-created_at")[:limit]
    )
    for collect in collects:
        coins = number_format(collect.coins, force_grouping=True)
        rows.append(
            Movement(
                collect,
                0,
                None,
                ngettext(
                    "%(coins)s held coin went into the pot.", "%(coins)s held coins went into the pot.", collect.coins
                )
                % {"coins": coins},
            )
        )
        match = collect.match
        if match is not None and match.status in (Match.Status.ABORTED, Match.Status.ABANDONED):
            rows[-1] = replace(rows[-1], refunded=True)
        if match is None or match.status != Match.Status.FINISHED:
            continue
        player = MatchPlayer.objects.filter(match=match, user=user).only("place", "payout").first()
        if player is not None and not player.payout:
            # Lost: nothing came back from the pot. Dated at the game's end, so it sits after the result.
            lost = Transfer(
                pk=collect.pk,
                asset=collect.asset,
                reason=Transfer.Reason.POT_COLLECT,
                memo="",
                user=user,
                table=collect.table,
                match=match,
                created_at=match.ended_at or collect.created_at,
            )
            story = ngettext(
                "Stake lost: %(coins)s coin stayed in the pot (place %(place)s in the game).",
                "Stake lost: %(coins)s coins stayed in the pot (place %(place)s in the game).",
                collect.coins,
            ) % {"coins": coins, "place": player.place}
            # RULING P50: a forfeited share says why, in the words of its ledger row.
            forfeit = Transfer.objects.filter(user=user, match=match, reason=Transfer.Reason.POT_FORFEIT).first()
            if forfeit is not None:
                story = f"{story} {memo_text(forfeit.memo)}"
            rows.append(Movement(lost, 0, None, story, lost=True))
    return rows


def pass_movements(*, user: User, limit: int = 200) -> list[Movement]:
    """Each pass transfer of the player once, with how it changed their free passes."""
    held = (Kind.PASSES_HELD, Kind.PASSES_RESTORED, Kind.TOURNAMENT_PASSES)
    transfers = (
        Transfer.objects.filter(user=user, asset=Asset.PASSES)
        .annotate(
            free_delta=Sum("entries__amount", filter=Q(entries__account__kind=Kind.PASSES_FREE)),
            reserved_delta=Sum("entries__amount", filter=Q(entries__account__kind__in=held)),
            used_delta=Sum("entries__amount", filter=Q(entries__account__kind=Kind.PASSES_USED)),
        )
        .select_related("table", "match", "by")
        .order_by("-created_at", "-pk")[:limit]
    )
    # Issue 53: the free, reserved and used passes after each movement, walked back from now.
    counts = pass_counts(user=user)
    free, reserved, used = counts["free"], counts["reserved"], counts["used"]
    moves = []
    for transfer in transfers:
        move = Movement(
            transfer=transfer,
            amount=transfer.free_delta or 0,
            balance_after=None,
            reserved=transfer.reserved_delta or 0,
            used=transfer.used_delta or 0,
            after=(free, reserved, used),
        )
        moves.append(move)
        free, reserved, used = free - move.amount, reserved - move.reserved, used - move.used
    return _with_places(moves)


def _movements(entries, *, limit: int, running: bool) -> list[Movement]:
    rows = list(
        entries.select_related("transfer__table", "transfer__match", "transfer__by").order_by(
            "-transfer__created_at", "-pk"
        )[:limit]
    )
    balance = _sum(Account.objects.filter(pk__in={row.account_id for row in rows})) if running else None
    moves = []
    for row in rows:  # newest first: walk the balance back
        moves.append(Movement(transfer=row.transfer, amount=row.amount, balance_after=balance))
        if balance is not None:
            balance -= row.amount
    return moves


def _sum(accounts) -> int:
    return accounts.aggregate(total=Sum("balance"))["total"] or 0


def ledger_export(user: User) -> list[dict]:
    """RULING P55: every ledger row about the player's own coins and passes, with the amount each
    moved on the player's own accounts (a hold or a stake into the pot moves none of their wallet)."""
    own = {account.pk: account.kind for account in Account.objects.filter(user=user)}
    rows = []
    for transfer in Transfer.objects.filter(user=user).select_related("by").prefetch_related("entries").order_by("pk"):
        rows.append(
            {
                "id": transfer.pk,
                "at": transfer.created_at.isoformat(),
                "asset": transfer.asset,
                "reason": transfer.reason,
                "memo": transfer.memo,
                "table": transfer.table_id,
                "game": transfer.match_id,
                "by": transfer.by.username if transfer.by is not None else None,
                "entries": [
                    {"account": own[entry.account_id], "amount": entry.amount}
                    for entry in transfer.entries.all()
                    if entry.account_id in own
                ],
            }
        )
    return rows
