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
started, and the places they finished in.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core.i18n import lazy_format
from games import catalog
from games.models import Match
from payouts.models import Account, Asset, Entry, Transfer
from payouts.split import split_pot

if TYPE_CHECKING:  # payouts sits below tables: a table is only handed in, never looked up here
    from tables.models import Table
    from tournaments.models import Tournament

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


def stake_hold(*, user: User, table: Table) -> Transfer | None:
    """RULING P5: taking a seat at a staked table holds the stake from the wallet."""
    if not table.stake or user.is_bot:
        return None  # RULING P1: bots never stake.
    with transaction.atomic():
        wallet = _wallet(user)
        _lock(wallet)
        if wallet.balance < table.stake:
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
            raise PayoutError(
                lazy_format(
                    short,
                    stake=f"{table.stake:,}",
                    balance=f"{wallet.balance:,}",
                )
            )
        return _move(
            Asset.COINS,
            Reason.STAKE_HOLD,
            source=wallet,
            target=_held_stake(user, table),
            amount=table.stake,
            user=user,
            table=table,
            memo="Seat taken at a staked table.",
        )


def stake_release(
    *, user: User, table: Table, memo: str = "Left the table before the start.", by: User | None = None
) -> Transfer | None:
    """RULING P5/P8: leaving before the start, or the lobby closing, gives the held stake back."""
    with transaction.atomic():
        held = _held_stake(user, table)
        _lock(held)
        if held.balance <= 0:
            return None
        return _move(
            Asset.COINS,
            Reason.STAKE_RELEASE,
            source=held,
            target=_wallet(user),
            amount=held.balance,
            user=user,
            table=table,
            by=by,
            memo=memo,
        )


def pot_collect(*, table: Table, match: Match, users: list[User]) -> int:
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
                    table=table,
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
    *, table: Table, match: Match, places: dict[int, int], forfeits: dict[int, str] | None = None
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
                table=table,
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
                    table=table,
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
    *, table: Table, match: Match, memo: str = "Game aborted: stake refunded.", by: User | None = None
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
                table=table,
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


def pass_reserve(*, user: User, table: Table, memo: str = "Seat taken at a Sitaratas table.") -> Transfer | None:
    """RULING P6: a seat at a Sitaratas table reserves one free pass."""
    if user.is_bot:
        return None  # RULING P1: bots need no pass.
    with transaction.atomic():
        free = _account(Kind.PASSES_FREE, user)
        _lock(free)
        if free.balance < 1:
            raise PayoutError(_("Playing Sitaratas takes a game pass and you have none free. Ask an admin for more."))
        return _move(
            Asset.PASSES,
            Reason.PASS_RESERVE,
            source=free,
            target=_account(Kind.PASSES_HELD, user, table),
            amount=1,
            user=user,
            table=table,
            memo=memo,
        )


def pass_release(
    *, user: User, table: Table, memo: str = "Left the table before the start.", by: User | None = None
) -> int:
    """RULING P6: leaving or a closing lobby frees the reserved pass, a restored one included."""
    released = 0
    with transaction.atomic():
        for kind in (Kind.PASSES_HELD, Kind.PASSES_RESTORED):
            held = _account(kind, user, table)
            _lock(held)
            if held.balance > 0:
                _move(
                    Asset.PASSES,
                    Reason.PASS_RELEASE,
                    source=held,
                    target=_account(Kind.PASSES_FREE, user),
                    amount=held.balance,
                    user=user,
                    table=table,
                    by=by,
                    memo=memo,
                )
                released += held.balance
    return released


def pass_use(*, table: Table, match: Match, users: list[User]) -> None:
    """RULING P6: a pass is used when an attempt starts. A restored pass is used first."""
    with transaction.atomic():
        for user in users:
            if user.is_bot:
                continue
            for kind in (Kind.PASSES_RESTORED, Kind.PASSES_HELD):
                held = _account(kind, user, table)
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
                        table=table,
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
                    source=_account(Kind.PASSES_HELD, user, table),
                    target=_account(Kind.PASSES_USED, user),
                    amount=1,
                    user=user,
                    table=table,
                    match=match,
                    memo="Game started.",
                )


def pass_restore(*, table: Table, match: Match) -> list[int]:
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
                target=_account(Kind.PASSES_RESTORED, user, table),
                amount=1,
                user=user,
                table=table,
                match=match,
                memo="Attempt dismissed by vote: pass restored.",
            )
            restored.append(user.pk)
    return restored


def pass_refund(
    *, table: Table, match: Match, memo: str = "Game aborted: pass returned.", by: User | None = None
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
                table=table,
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


# --- tournaments (RULING P83; passes as RULING P6) --------------------------------------------
# A tournament is handed in (payouts sits below it). The entry fee is held at sign-up, released
# on withdrawal or cancellation, collected into the tournament's pot at the start and paid out by
# its split at the end; a Sitaratas tournament reserves one pass per round at sign-up and moves
# one to each round's table as that round is seated, where the table's start uses it.


def entry_hold(*, user: User, tournament: Tournament) -> None:
    """Sign-up: hold the fee and reserve every round's pass, or refuse with the reason."""
    with transaction.atomic():
        if tournament.entry_fee:
            wallet = _wallet(user)
            _lock(wallet)
            if wallet.balance < tournament.entry_fee:
                raise PayoutError(
                    lazy_format(
                        _("The entry fee is %(fee)s coins and your wallet holds %(balance)s."),
                        fee=f"{tournament.entry_fee:,}",
                        balance=f"{wallet.balance:,}",
                    )
                )
            _move(
                Asset.COINS,
                Reason.ENTRY_HOLD,
                source=wallet,
                target=_entry_held(user, tournament),
                amount=tournament.entry_fee,
                user=user,
                tournament=tournament,
                memo="Tournament entry fee held.",
            )
        passes = tournament_passes_needed(tournament)
        if passes:
            free = _account(Kind.PASSES_FREE, user)
            _lock(free)
            if free.balance < passes:
                raise PayoutError(
                    lazy_format(
                        _("This tournament takes %(needed)s game passes (one per round) and you have %(free)s free."),
                        needed=passes,
                        free=free.balance,
                    )
                )
            _move(
                Asset.PASSES,
                Reason.PASS_RESERVE,
                source=free,
                target=_tournament_passes(user, tournament),
                amount=passes,
                user=user,
                tournament=tournament,
                memo="Passes reserved for a tournament's rounds.",
            )


def tournament_passes_needed(tournament: Tournament) -> int:
    return tournament.rounds if catalog.get(tournament.game).costs_pass else 0


def entry_release(*, user: User, tournament: Tournament, memo: str, by: User | None = None) -> None:
    """Withdrawal before the start or cancellation gives the fee back; any pass not yet used is freed."""
    with transaction.atomic():
        held = _entry_held(user, tournament)
        _lock(held)
        if held.balance > 0:
            _move(
                Asset.COINS,
                Reason.ENTRY_RELEASE,
                source=held,
                target=_wallet(user),
                amount=held.balance,
                user=user,
                tournament=tournament,
                by=by,
                memo=memo,
            )
        tournament_passes_release(user=user, tournament=tournament, memo=memo, by=by)


def tournament_passes_release(*, user: User, tournament: Tournament, memo: str, by: User | None = None) -> int:
    """The passes reserved for rounds a player will not play go back to their free passes."""
    with transaction.atomic():
        reserved = _tournament_passes(user, tournament)
        _lock(reserved)
        if reserved.balance <= 0:
            return 0
        _move(
            Asset.PASSES,
            Reason.PASS_RELEASE,
            source=reserved,
            target=_account(Kind.PASSES_FREE, user),
            amount=reserved.balance,
            user=user,
            tournament=tournament,
            by=by,
            memo=memo,
        )
        return reserved.balance


def entry_collect(*, tournament: Tournament, users: list[User]) -> int:
    """The start moves every held fee into the pot. Returns the pot."""
    with transaction.atomic():
        pot = _tournament_pot(tournament)
        for user in sorted(users, key=lambda u: u.pk):
            held = _entry_held(user, tournament)
            _lock(held)
            if held.balance > 0:
                _move(
                    Asset.COINS,
                    Reason.ENTRY_COLLECT,
                    source=held,
                    target=pot,
                    amount=held.balance,
                    user=user,
                    tournament=tournament,
                    memo="Tournament entry fee into the pot.",
                )
        _lock(pot)
        return pot.balance


def round_pass_move(*, user: User, tournament: Tournament, table: Table) -> None:
    """A Sitaratas round is seated: one of the player's reserved passes becomes the table's
    reservation, which the table's start uses (RULING P6)."""
    with transaction.atomic():
        reserved = _tournament_passes(user, tournament)
        _lock(reserved)
        if reserved.balance < 1:
            raise PayoutError(_("No pass is left reserved for this tournament's rounds."))
        _move(
            Asset.PASSES,
            Reason.PASS_RESERVE,
            source=reserved,
            target=_account(Kind.PASSES_HELD, user, table),
            amount=1,
            user=user,
            table=table,
            tournament=tournament,
            memo="Tournament round: reserved pass moved to the table.",
        )


def round_pass_return(*, user: User, tournament: Tournament, table: Table) -> None:
    """A round re-seated before its start: the pass moved to the old table goes back to the reserve."""
    with transaction.atomic():
        held = _account(Kind.PASSES_HELD, user, table)
        _lock(held)
        if held.balance <= 0:
            return
        _move(
            Asset.PASSES,
            Reason.PASS_RELEASE,
            source=held,
            target=_tournament_passes(user, tournament),
            amount=held.balance,
            user=user,
            table=table,
            tournament=tournament,
            memo="Passes reserved for a tournament's rounds.",
        )


def prizes_pay(*, tournament: Tournament, prizes: dict[int, int]) -> None:
    """The end: the pot paid out as ``prizes`` (user id → coins, summing to the pot), in user id order."""
    with transaction.atomic():
        pot = _tournament_pot(tournament)
        _lock(pot)
        if sum(prizes.values()) != pot.balance:
            raise PayoutError(_("The prizes must pay out the whole pot."))
        users = User.objects.in_bulk(list(prizes))
        for user_id, amount in sorted(prizes.items()):
            if amount:
                _move(
                    Asset.COINS,
                    Reason.PRIZE_PAYOUT,
                    source=pot,
                    target=_wallet(users[user_id]),
                    amount=amount,
                    user=users[user_id],
                    tournament=tournament,
                    memo="Tournament prize.",
                )


def tournament_pot_refund(*, tournament: Tournament, memo: str, by: User | None = None) -> dict[int, int]:
    """A tournament cancelled after its start gives every collected fee back."""
    with transaction.atomic():
        pot = _tournament_pot(tournament)
        _lock(pot)
        refunds: dict[int, int] = {}
        collected = Transfer.objects.filter(tournament=tournament, reason=Reason.ENTRY_COLLECT).select_related("user")
        for transfer in collected.order_by("user_id"):
            amount = transfer.entries.get(account=pot).amount
            player = _player(transfer)
            _move(
                Asset.COINS,
                Reason.ENTRY_RELEASE,
                source=pot,
                target=_wallet(player),
                amount=amount,
                user=player,
                tournament=tournament,
                by=by,
                memo=memo,
            )
            refunds[player.pk] = amount
        return refunds


def _entry_held(user: User, tournament: Tournament) -> Account:
    return _account(Kind.ENTRY_HELD, user, tournament=tournament)


def _tournament_pot(tournament: Tournament) -> Account:
    return _account(Kind.TOURNAMENT_POT, tournament=tournament)


def _tournament_passes(user: User, tournament: Tournament) -> Account:
    return _account(Kind.TOURNAMENT_PASSES, user, tournament=tournament)


# --- helpers ----------------------------------------------------------------------------


def _move(
    asset: str,
    reason: str,
    *,
    source: Account,
    target: Account,
    amount: int,
    user: User | None,
    table: Table | None = None,
    match: Match | None = None,
    by: User | None = None,
    memo: str = "",
    now: datetime | None = None,
    tournament: Tournament | None = None,
) -> Transfer:
    """One transfer: two entries that sum to zero. The balance trigger and CHECK do the rest."""
    try:
        with transaction.atomic():
            transfer = Transfer.objects.create(
                asset=asset,
                reason=reason,
                memo=memo[:200],
                user=user,
                table=table,
                match=match,
                tournament=tournament,
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
        if "one_game_transfer" in str(error) or "one_tournament_transfer" in str(error):
            raise PayoutError(_("That has already been done for this game.")) from None
        if "never_negative" in str(error):
            raise PayoutError(_("Not enough in the account for that.")) from None
        raise
    return transfer


COIN_KINDS = (Kind.WALLET, Kind.STAKE_HELD, Kind.POT, Kind.ENTRY_HELD, Kind.TOURNAMENT_POT)


def _account(
    kind: str, user: User | None = None, table: Table | None = None, *, tournament: Tournament | None = None
) -> Account:
    parts = [kind] + [str(owner.pk) for owner in (user, table) if owner is not None]
    if tournament is not None:
        parts.append(f"t{tournament.pk}")
    asset = Asset.COINS if kind in COIN_KINDS else Asset.PASSES
    # get_or_create on the unique key is safe under a race: the loser re-reads the winner's row.
    account, _created = Account.objects.get_or_create(
        key=":".join(parts),
        defaults={"asset": asset, "kind": kind, "user": user, "table": table, "tournament": tournament},
    )
    return account


def _mint(asset: str) -> Account:
    account, _created = Account.objects.get_or_create(key=f"mint:{asset}", defaults={"asset": asset, "kind": Kind.MINT})
    return account


def _wallet(user: User) -> Account:
    return _account(Kind.WALLET, user)


def _held_stake(user: User, table: Table) -> Account:
    return _account(Kind.STAKE_HELD, user, table)


def _pot(table: Table) -> Account:
    return _account(Kind.POT, table=table)


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
