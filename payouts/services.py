"""Every write to the coin and pass ledgers (docs/style.md §5, §8; RULINGS P4–P8).

Each public function is one transaction (nested inside the caller's when a table
service calls it, so a seat and its hold commit or roll back together). Every
movement is one ``Transfer`` whose entries sum to zero; the database checks that at
commit and keeps balances non-negative. Before debiting an account we lock it
(``select_for_update``) and read its balance under the lock, so two holds on one
wallet at two tables are serialised; we refuse with a ``PayoutError`` a person can
read. The table row is always locked first by the caller, and payouts credit
wallets in user id order, so two settlements never wait on each other in a cycle.

``payouts`` knows nothing of game rules: the table hooks tell it who sat, who
started, and the places they finished in. It refers to no row of an app above it: an
account belongs to an ``Owner`` the app hands in (payouts/owners.py), and the holds, pot
and prizes of an owner other than a table are the generic operations below, from which
that app writes its own money rules (a tournament's: tournaments/pot.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core.i18n import lazy_format
from games.models import Match
from payouts.models import Account, Asset, Entry, Transfer
from payouts.owners import TABLE, Owner, TableRef, table_owner
from payouts.split import split_pot

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # a test-only package: annotations only

Kind = Account.Kind
Reason = Transfer.Reason
# The memos of an account an admin added, followed by the admin's reason (payouts/memos.py reads them).
ADMIN_ADDED_COINS = "Welcome coins. Account added by an admin: "
ADMIN_ADDED_PASSES = "Welcome passes. Account added by an admin: "


def _player(transfer: Transfer) -> User:
    """The player a stake or pass transfer moved for: every such transfer names one."""
    if transfer.user is None:
        raise ValueError(f"Transfer {transfer.pk} names no player.")
    return transfer.user


class PayoutError(Exception):
    """A refused coin or pass movement; the message is shown to the player as it is."""


# --- an owner's holds, pot and prizes ----------------------------------------------------------
# The moves a table's holds below are written with, and an app above payouts writes its own rules
# with, for an owner it names (a tournament's entry fees, pot, prizes and round passes:
# tournaments/pot.py, RULING P83). A player's account of an owner is named by its kind and the owner:
# ``(Kind.ENTRY_HELD, owner)``. Each transfer names the table among the owners it moved between
# (RULING P7's "which table"), and any other owner's id (``Transfer.owner_id``).

Held = tuple[str, Owner]


def hold(
    *,
    user: User,
    into: Held,
    amount: int,
    reason: str,
    memo: str,
    refusal: Callable[[int], StrOrPromise],
    out_of: Held | None = None,
) -> Transfer:
    """Move ``amount`` of the player's coins or passes into their account ``into``: from their wallet
    or free passes, or from their account ``out_of``. Refused with ``refusal(what the source holds)``
    when it holds less."""
    _require_positive(amount)
    kind, owner = into
    asset = _asset(kind)
    with transaction.atomic():
        source = _own(user, asset) if out_of is None else _account(out_of[0], user, out_of[1])
        _lock(source)
        if source.balance < amount:
            raise PayoutError(refusal(source.balance))
        table_id, owner_id = _about(owner, out_of[1] if out_of else None)
        return _move(
            asset,
            reason,
            source=source,
            target=_account(kind, user, owner),
            amount=amount,
            user=user,
            table_id=table_id,
            owner_id=owner_id,
            memo=memo,
        )


def release(
    *, user: User, out_of: Held, reason: str, memo: str, by: User | None = None, into: Held | None = None
) -> int:
    """Whatever the player's account ``out_of`` holds goes back to their wallet or free passes, or
    into their account ``into``. Returns how much moved (0 when it held nothing)."""
    kind, owner = out_of
    with transaction.atomic():
        held = _account(kind, user, owner)
        _lock(held)
        if held.balance <= 0:
            return 0
        table_id, owner_id = _about(owner, into[1] if into else None)
        _move(
            held.asset,
            reason,
            source=held,
            target=_own(user, held.asset) if into is None else _account(into[0], user, into[1]),
            amount=held.balance,
            user=user,
            table_id=table_id,
            owner_id=owner_id,
            by=by,
            memo=memo,
        )
        return held.balance


def collect(*, owner: Owner, users: list[User], held: str, pot: str, reason: str, memo: str) -> int:
    """What each player holds in their account ``held`` of the owner goes into the owner's account
    ``pot``, in user id order. Returns the pot."""
    table_id, owner_id = _about(owner)
    with transaction.atomic():
        into = _account(pot, owner=owner)
        for user in sorted(users, key=lambda u: u.pk):
            account = _account(held, user, owner)
            _lock(account)
            if account.balance > 0:
                _move(
                    account.asset,
                    reason,
                    source=account,
                    target=into,
                    amount=account.balance,
                    user=user,
                    table_id=table_id,
                    owner_id=owner_id,
                    memo=memo,
                )
        _lock(into)
        return into.balance


def pay_out(
    *, owner: Owner, pot: str, amounts: dict[int, int], reason: str, memo: str, memos: dict[int, str] | None = None
) -> None:
    """The owner's whole account ``pot`` paid out as ``amounts`` (user id → coins or passes, summing
    to the pot) to the players' wallets or free passes, in user id order; each row's memo is the
    player's own in ``memos`` (their rank, say), else ``memo``."""
    memos = memos or {}
    table_id, owner_id = _about(owner)
    with transaction.atomic():
        source = _account(pot, owner=owner)
        _lock(source)
        if sum(amounts.values()) != source.balance:
            raise PayoutError(_("The prizes must pay out the whole pot."))
        users = User.objects.in_bulk(list(amounts))
        for user_id, amount in sorted(amounts.items()):
            if amount:
                _move(
                    source.asset,
                    reason,
                    source=source,
                    target=_own(users[user_id], source.asset),
                    amount=amount,
                    user=users[user_id],
                    table_id=table_id,
                    owner_id=owner_id,
                    memo=memos.get(user_id, memo),
                )


def refund(*, owner: Owner, pot: str, collected: str, reason: str, memo: str, by: User | None = None) -> dict[int, int]:
    """Everything that went into the owner's account ``pot`` by a transfer of reason ``collected``
    goes back to whoever it came from, in user id order. Returns the amount per user id."""
    table_id, owner_id = _about(owner)
    with transaction.atomic():
        source = _account(pot, owner=owner)
        _lock(source)
        refunds: dict[int, int] = {}
        entries = Entry.objects.filter(account=source, transfer__reason=collected, amount__gt=0)
        for entry in entries.select_related("transfer__user").order_by("transfer__user_id", "pk"):
            player = _player(entry.transfer)
            _move(
                source.asset,
                reason,
                source=source,
                target=_own(player, source.asset),
                amount=entry.amount,
                user=player,
                table_id=table_id,
                owner_id=owner_id,
                by=by,
                memo=memo,
            )
            refunds[player.pk] = refunds.get(player.pk, 0) + entry.amount
        return refunds


# --- coins ------------------------------------------------------------------------------


def coins_grant(*, user: User, amount: int, by: User | None = None, memo: str = "") -> Transfer:
    """RULING P4: the only way coins come into being: the mint gives them to a wallet."""
    _require_positive(amount)
    _require_reason(by, memo)
    with transaction.atomic():
        return _move(
            Asset.COINS,
            Reason.GRANT,
            source=_mint(Asset.COINS),
            target=_wallet(user),
            amount=amount,
            user=user,
            by=by,
            memo=memo or "Welcome coins.",
        )


def stake_hold(*, user: User, table: TableRef) -> Transfer | None:
    """RULING P5: taking a seat at a staked table holds the stake from the wallet."""
    if not table.stake or user.is_bot:
        return None  # RULING P1: bots never stake.
    # Issue 37: only the host chooses the stake; a joiner can only choose another table.
    short = (
        _(
            "This table's stake is %(stake)s coins and your wallet holds %(balance)s. "
            "Choose a smaller stake or ask an admin for coins."
        )
        if user.pk == table.host_id
        else _(
            "This table's stake is %(stake)s coins and your wallet holds %(balance)s. "
            "Join a table with a smaller stake, or ask an admin for coins."
        )
    )
    return hold(
        user=user,
        into=(Kind.STAKE_HELD, table_owner(table)),
        amount=table.stake,
        reason=Reason.STAKE_HOLD,
        memo="Seat taken at a staked table.",
        refusal=lambda balance: lazy_format(short, stake=f"{table.stake:,}", balance=f"{balance:,}"),
    )


def stake_release(
    *, user: User, table: TableRef, memo: str = "Left the table before the start.", by: User | None = None
) -> int:
    """RULING P5/P8: leaving before the start, or the lobby closing, gives the held stake back."""
    return release(
        user=user, out_of=(Kind.STAKE_HELD, table_owner(table)), reason=Reason.STAKE_RELEASE, memo=memo, by=by
    )


def pot_collect(*, table: TableRef, match: Match, users: list[User]) -> int:
    """RULING P5: the start moves every held stake into the table's pot. Returns the pot."""
    with transaction.atomic():
        pot = _pot(table)
        for user in users:
            if user.is_bot:
                continue
            held = _held_stake(user, table)
            _lock(held)
            if held.balance > 0:
                _move(
                    Asset.COINS,
                    Reason.POT_COLLECT,
                    source=held,
                    target=pot,
                    amount=held.balance,
                    user=user,
                    table_id=table.pk,
                    match=match,
                    memo="Stake into the pot at the start.",
                )
        _lock(pot)
        return pot.balance


# RULING P50: why a staker takes no share of the pot, as the wallet says it (payouts/memos.py).
FORFEIT_MEMOS = {
    "away": "No share of the pot: you were away when the game ended.",
    "clock": "No share of the pot: more than half of your decisions were played by the clock.",
}

EVERY_STAKER_FORFEITED = "No share for anyone: every staker was away or played mostly by the clock. Stake refunded."


def pot_settle(
    *, table: TableRef, match: Match, places: dict[int, int], forfeits: dict[int, str] | None = None
) -> dict[int, int]:
    """RULING P5: pay the pot by the rule book's split among the players who staked in ``match``.

    ``places`` maps each staker's user id to their place in the game (1 = best, ties
    share). ``forfeits`` maps a staker's user id to why they take no share (RULING P50:
    "away" or "clock"): their stake stays in the pot, and the other stakers split it by
    place among themselves; a forfeit is written to the ledger as a transfer that moves
    nothing, with its memo. If every staker forfeits, nobody qualifies, and every stake
    goes back to its staker. Returns the payout per user id (0 for a staker who gets nothing).
    """
    forfeits = forfeits or {}
    with transaction.atomic():
        pot = _pot(table)
        _lock(pot)
        stakers = _stakers(match)
        if not stakers or pot.balance <= 0:
            return {}
        qualified = {user_id: seat for user_id, seat in stakers.items() if user_id not in forfeits}
        users = User.objects.in_bulk(stakers)
        # Each forfeit is on the ledger, also when every staker forfeited: the wallet says why from
        # it, and verify_matches reads who shared the pot from it.
        for user_id in sorted(set(stakers) - set(qualified)):
            Transfer.objects.create(
                asset=Asset.COINS,
                reason=Reason.POT_FORFEIT,
                memo=FORFEIT_MEMOS[forfeits[user_id]],
                user=users[user_id],
                table_id=table.pk,
                match=match,
                created_at=timezone.now(),
            )
        if not qualified:
            refunds = pot_refund(table=table, match=match, memo=EVERY_STAKER_FORFEITED)
            return {user_id: refunds.get(user_id, 0) for user_id in stakers}
        ranked = [(places[user_id], seat, user_id) for user_id, seat in qualified.items()]
        shares = split_pot(pot.balance, [(place, seat) for place, seat, _user in ranked])
        payouts = dict.fromkeys(stakers, 0) | {user_id: shares[seat] for _place, seat, user_id in ranked}
        for user_id, amount in sorted(payouts.items()):
            if amount:
                _move(
                    Asset.COINS,
                    Reason.POT_PAYOUT,
                    source=pot,
                    target=_wallet(users[user_id]),
                    amount=amount,
                    user=users[user_id],
                    table_id=table.pk,
                    match=match,
                    memo=payout_memo(places[user_id], sorted(places[u] for u in qualified)),
                )
        return payouts


def payout_memo(place: int, staker_places: list[int]) -> str:
    """RULING P42 (P7): a payout says why, in the stakers' own terms. The split ranks the stakers among
    themselves, so a staker who came second behind a bot takes the top share: "place 2" alone
    read as the second prize (issue 20); a lone staker's payout is their stake coming back."""
    count = len(staker_places)
    if count == 1:
        return f"Your stake back: you were the only player who staked (place {place} in the game)."
    rank = staker_places.index(place) + 1
    tied = staker_places.count(place) > 1
    ordinals = {1: "best", 2: "second", 3: "third", 4: "fourth"}
    among = f"{'tied ' if tied else ''}{ordinals[rank]} of the {count} stakers"
    return f"Pot share: {among}, place {place} in the game."


def pot_refund(
    *, table: TableRef, match: Match, memo: str = "Game aborted: stake refunded.", by: User | None = None
) -> dict[int, int]:
    """RULING P5/P8: an aborted game gives every staker their stake back."""
    with transaction.atomic():
        pot = _pot(table)
        _lock(pot)
        refunds = {}
        collected = Entry.objects.filter(transfer__match=match, transfer__reason=Reason.POT_COLLECT, account=pot)
        for entry in collected.select_related("transfer__user"):
            user = _player(entry.transfer)
            _move(
                Asset.COINS,
                Reason.POT_REFUND,
                source=pot,
                target=_wallet(user),
                amount=entry.amount,
                user=user,
                table_id=table.pk,
                match=match,
                by=by,
                memo=memo,
            )
            refunds[user.pk] = entry.amount
        return refunds


# --- passes -----------------------------------------------------------------------------


def pass_grant(*, user: User, amount: int, by: User | None = None, memo: str = "") -> Transfer:
    """RULING P6: new accounts get their passes; admins grant more."""
    _require_positive(amount)
    _require_reason(by, memo)
    with transaction.atomic():
        return _move(
            Asset.PASSES,
            Reason.GRANT,
            source=_mint(Asset.PASSES),
            target=_account(Kind.PASSES_FREE, user),
            amount=amount,
            user=user,
            by=by,
            memo=memo or "Welcome passes.",
        )


def pass_reserve(*, user: User, table: TableRef, memo: str = "Seat taken at a Sitaratas table.") -> Transfer | None:
    """RULING P6: a seat at a Sitaratas table reserves one free pass."""
    if user.is_bot:
        return None  # RULING P1: bots need no pass.
    return hold(
        user=user,
        into=(Kind.PASSES_HELD, table_owner(table)),
        amount=1,
        reason=Reason.PASS_RESERVE,
        memo=memo,
        refusal=lambda _free: _("Playing Sitaratas takes a game pass and you have none free. Ask an admin for more."),
    )


def pass_release(
    *, user: User, table: TableRef, memo: str = "Left the table before the start.", by: User | None = None
) -> int:
    """RULING P6: leaving or a closing lobby frees the reserved pass, a restored one included."""
    with transaction.atomic():
        return sum(
            release(user=user, out_of=(kind, table_owner(table)), reason=Reason.PASS_RELEASE, memo=memo, by=by)
            for kind in (Kind.PASSES_HELD, Kind.PASSES_RESTORED)
        )


def pass_use(*, table: TableRef, match: Match, users: list[User]) -> None:
    """RULING P6: a pass is used when an attempt starts. A restored pass is used first."""
    with transaction.atomic():
        for user in users:
            if user.is_bot:
                continue
            for kind in (Kind.PASSES_RESTORED, Kind.PASSES_HELD):
                held = _account(kind, user, table_owner(table))
                _lock(held)
                if held.balance > 0:
                    memo = "Restored pass used for the restart." if kind == Kind.PASSES_RESTORED else "Game started."
                    _move(
                        Asset.PASSES,
                        Reason.PASS_USE,
                        source=held,
                        target=_account(Kind.PASSES_USED, user),
                        amount=1,
                        user=user,
                        table_id=table.pk,
                        match=match,
                        memo=memo,
                    )
                    break
            else:
                # Back in the lobby after a dismissed restart, the seat holds no pass (RULING P6:
                # a restored pass is not restored again): the new attempt takes a fresh one.
                try:
                    # Its own words: nobody took a seat (issue 37).
                    pass_reserve(user=user, table=table, memo="New attempt after a dismissed restart: a fresh pass.")
                except PayoutError:
                    raise PayoutError(
                        lazy_format(_("%(name)s has no game pass left for a new attempt."), name=user.name)
                    ) from None
                _move(
                    Asset.PASSES,
                    Reason.PASS_USE,
                    source=_account(Kind.PASSES_HELD, user, table_owner(table)),
                    target=_account(Kind.PASSES_USED, user),
                    amount=1,
                    user=user,
                    table_id=table.pk,
                    match=match,
                    memo="Game started.",
                )


def pass_restore(*, table: TableRef, match: Match) -> list[int]:
    """RULING P6: an approved dismissal restores each player's pass as a reservation at the table,
    once: a pass that was itself restored stays used. Returns the user ids restored."""
    restored = []
    with transaction.atomic():
        uses = Entry.objects.filter(transfer__match=match, transfer__reason=Reason.PASS_USE, amount__lt=0)
        for entry in uses.select_related("transfer__user", "account"):
            if entry.account.kind == Kind.PASSES_RESTORED:
                continue  # A dismissed restart keeps its passes used.
            user = _player(entry.transfer)
            used = _account(Kind.PASSES_USED, user)
            _lock(used)
            _move(
                Asset.PASSES,
                Reason.PASS_RESTORE,
                source=used,
                target=_account(Kind.PASSES_RESTORED, user, table_owner(table)),
                amount=1,
                user=user,
                table_id=table.pk,
                match=match,
                memo="Attempt dismissed by vote: pass restored.",
            )
            restored.append(user.pk)
    return restored


def pass_refund(
    *, table: TableRef, match: Match, memo: str = "Game aborted: pass returned.", by: User | None = None
) -> list[int]:
    """RULING P8: an admin abort releases the passes of the aborted game (used → free)."""
    refunded = []
    with transaction.atomic():
        uses = Transfer.objects.filter(match=match, reason=Reason.PASS_USE).select_related("user")
        for use in uses:
            used = _account(Kind.PASSES_USED, use.user)
            _lock(used)
            _move(
                Asset.PASSES,
                Reason.PASS_REFUND,
                source=used,
                target=_account(Kind.PASSES_FREE, use.user),
                amount=1,
                user=use.user,
                table_id=table.pk,
                match=match,
                by=by,
                memo=memo,
            )
            refunded.append(_player(use).pk)
    return refunded


def account_open(*, user: User, by: User | None = None, reason: str = "") -> None:
    """RULING P4/P6: a new (human) account gets its starting coins and passes. An account an admin
    added names the admin and their reason on both rows (RULING P19); sign-up names nobody."""
    coins_memo = passes_memo = ""
    if by is not None:
        _require_reason(by, reason)
        coins_memo = f"{ADMIN_ADDED_COINS}{reason}"
        passes_memo = f"{ADMIN_ADDED_PASSES}{reason}"
    with transaction.atomic():
        if settings.STARTING_COINS:
            coins_grant(user=user, amount=settings.STARTING_COINS, by=by, memo=coins_memo)
        if settings.STARTING_PASSES:
            pass_grant(user=user, amount=settings.STARTING_PASSES, by=by, memo=passes_memo)


# --- helpers ----------------------------------------------------------------------------


def _move(
    asset: str,
    reason: str,
    *,
    source: Account,
    target: Account,
    amount: int,
    user: User | None,
    table_id: int | None = None,
    match: Match | None = None,
    by: User | None = None,
    memo: str = "",
    now: datetime | None = None,
    owner_id: int | None = None,
) -> Transfer:
    """One transfer: two entries that sum to zero. The balance trigger and CHECK do the rest."""
    try:
        with transaction.atomic():
            transfer = Transfer.objects.create(
                asset=asset,
                reason=reason,
                memo=memo[:200],
                user=user,
                table_id=table_id,
                match=match,
                owner_id=owner_id,
                by=by,
                created_at=now or timezone.now(),
            )
            Entry.objects.bulk_create(
                [
                    Entry(transfer=transfer, account=source, amount=-amount),
                    Entry(transfer=transfer, account=target, amount=amount),
                ]
            )
    except IntegrityError as error:
        if "one_game_transfer" in str(error) or "one_owner_transfer" in str(error):
            raise PayoutError(_("That has already been done for this game.")) from None
        if "never_negative" in str(error):
            raise PayoutError(_("Not enough in the account for that.")) from None
        raise
    return transfer


COIN_KINDS = (Kind.WALLET, Kind.STAKE_HELD, Kind.POT, Kind.ENTRY_HELD, Kind.TOURNAMENT_POT)


def _asset(kind: str) -> str:
    return Asset.COINS if kind in COIN_KINDS else Asset.PASSES


def _account(kind: str, user: User | None = None, owner: Owner | None = None) -> Account:
    """The account of ``kind`` for the player and the owner, opened on first use."""
    parts = [kind] + ([str(user.pk)] if user is not None else []) + ([owner.key] if owner is not None else [])
    # get_or_create on the unique key is safe under a race: the loser re-reads the winner's row.
    account, _created = Account.objects.get_or_create(
        key=":".join(parts),
        defaults={
            "asset": _asset(kind),
            "kind": kind,
            "user": user,
            "owner_kind": owner.kind if owner is not None else "",
            "owner_id": owner.id if owner is not None else None,
        },
    )
    return account


def _about(*owners: Owner | None) -> tuple[int | None, int | None]:
    """What a transfer between the accounts of these owners names: the table among them (RULING
    P7's "which table"), and the id of any other owner."""
    table_id = owner_id = None
    for owner in owners:
        if owner is not None:
            if owner.kind == TABLE:
                table_id = owner.id
            else:
                owner_id = owner.id
    return table_id, owner_id


def _mint(asset: str) -> Account:
    account, _created = Account.objects.get_or_create(key=f"mint:{asset}", defaults={"asset": asset, "kind": Kind.MINT})
    return account


def _wallet(user: User) -> Account:
    return _account(Kind.WALLET, user)


def _own(user: User, asset: str) -> Account:
    """The player's own coins or passes: their wallet, or their free passes."""
    return _wallet(user) if asset == Asset.COINS else _account(Kind.PASSES_FREE, user)


def _held_stake(user: User, table: TableRef) -> Account:
    return _account(Kind.STAKE_HELD, user, table_owner(table))


def _pot(table: TableRef) -> Account:
    return _account(Kind.POT, owner=table_owner(table))


def _lock(account: Account) -> None:
    """Lock the row and refresh the balance read under the lock (the trigger keeps it)."""
    account.balance = Account.objects.select_for_update().values_list("balance", flat=True).get(pk=account.pk)


def _stakers(match: Match) -> dict[int, int]:
    """User id → seat of everyone whose stake went into this game's pot."""
    user_ids = set(Transfer.objects.filter(match=match, reason=Reason.POT_COLLECT).values_list("user_id", flat=True))
    return {
        user_id: seat for seat, user_id in match.match_players.values_list("seat", "user_id") if user_id in user_ids
    }


def _require_reason(by: User | None, memo: str) -> None:
    """RULING P19: what an admin does to a player's coins or passes says why."""
    if by is not None and not (memo or "").strip():
        raise PayoutError(_("An admin's grant needs a reason."))


def _require_positive(amount: int) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise PayoutError(_("The amount must be a whole number above zero."))
