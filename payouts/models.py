"""Coins and game passes as one append-only, double-entry ledger (RULINGS P4–P7, docs/style.md §8).

Design, after django-hordak:

* An ``Account`` holds one asset (coins or passes) for one purpose (its kind), a player and
  an owner: a player's wallet, a player's stake held at a table, a table's pot, a player's
  free / held / restored / used passes, a tournament's pot, and one *mint* per asset that
  every grant comes from. The owner is a generic key (``owner_kind``, ``owner_id``: "table"
  5, "tournament" 7) that the app above, which owns the thing, hands in: an account refers
  to no row of an app above payouts.
* A ``Transfer`` is one movement (why, whose, which table and game, by whom, when);
  its ``Entry`` rows say how much each account gained or lost. The entries of a
  transfer sum to zero: a deferred constraint trigger checks this at commit, so a
  half-written transfer can never be committed. Coins are created only by a grant,
  which draws the mint below zero; every other account has a CHECK ``balance >= 0``.
* ``Account.balance`` is the running sum of its entries, kept by a database trigger on
  every inserted entry (never written by Python), and transfers and entries refuse
  UPDATE and DELETE: the ledger is append-only.

Services lock the accounts they debit (``select_for_update``, in id order) before
checking a balance, so two simultaneous holds on one wallet are serialised; the CHECK
is the backstop if a code path ever forgot the lock.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Match


class Asset(models.TextChoices):
    COINS = "coins", _("Coins")
    PASSES = "passes", _("Game passes")


class Account(models.Model):
    class Kind(models.TextChoices):
        MINT = "mint", _("Mint (source of grants)")
        WALLET = "wallet", _("Wallet")
        STAKE_HELD = "stake_held", _("Stake held at a table")
        POT = "pot", _("Table pot")
        PASSES_FREE = "passes_free", _("Free passes")
        PASSES_HELD = "passes_held", _("Pass reserved at a table")
        PASSES_RESTORED = "passes_restored", _("Pass restored after a dismissal")
        PASSES_USED = "passes_used", _("Used passes")
        # RULING P83: a tournament's entry fee held from sign-up to the start, its pot, and the
        # passes reserved for its Sitaratas rounds (RULING P6).
        ENTRY_HELD = "entry_held", _("Entry fee held for a tournament")
        TOURNAMENT_POT = "tournament_pot", _("Tournament pot")
        TOURNAMENT_PASSES = "tournament_passes", _("Passes reserved for a tournament")

    # One row per (kind, player, owner): "wallet:12", "pot:table:5", "passes_held:12:table:5",
    # "entry_held:12:tournament:7", "mint:coins" (payouts.services._account builds it).
    key = models.CharField(_("key"), max_length=80, unique=True)
    asset = models.CharField(_("asset"), max_length=10, choices=Asset.choices)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_accounts",
        verbose_name=_("player"),
    )
    # Whose pot or hold this is besides the player's: the owning app's word and its row's id
    # ("table" 5), or empty for a wallet, a player's own passes and a mint.
    owner_kind = models.CharField(_("owner"), max_length=20, blank=True, default="")
    owner_id = models.PositiveBigIntegerField(_("owner's id"), null=True, blank=True)
    balance = models.BigIntegerField(
        _("balance"), default=0, editable=False, help_text=_("Sum of the entries, kept by a trigger.")
    )

    class Meta:
        verbose_name = _("ledger account")
        verbose_name_plural = _("ledger accounts")
        ordering = ["key"]
        indexes = [models.Index(fields=["owner_kind", "owner_id"], name="payouts_account_owner")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(balance__gte=0) | models.Q(kind="mint"), name="account_balance_never_negative"
            ),
            models.CheckConstraint(
                condition=models.Q(owner_kind="", owner_id__isnull=True)
                | (~models.Q(owner_kind="") & models.Q(owner_id__isnull=False)),
                name="account_owner_kind_and_id_together",
            ),
        ]

    def __str__(self) -> str:
        return self.key


class Transfer(models.Model):
    class Reason(models.TextChoices):
        GRANT = "grant", _("Grant")
        STAKE_HOLD = "stake_hold", _("Stake held")
        STAKE_RELEASE = "stake_release", _("Stake released")
        POT_COLLECT = "pot_collect", _("Stake into the pot")
        POT_PAYOUT = "pot_payout", _("Payout from the pot")
        POT_REFUND = "pot_refund", _("Stake refunded")
        # RULING P50: a staker who takes no share; the transfer moves nothing, its memo says why.
        POT_FORFEIT = "pot_forfeit", _("No share of the pot")
        PASS_RESERVE = "pass_reserve", _("Pass reserved")
        PASS_RELEASE = "pass_release", _("Pass released")
        PASS_USE = "pass_use", _("Pass used")
        PASS_RESTORE = "pass_restore", _("Pass restored")
        PASS_REFUND = "pass_refund", _("Pass returned (game aborted)")
        ENTRY_HOLD = "entry_hold", _("Entry fee held")
        ENTRY_RELEASE = "entry_release", _("Entry fee released")
        ENTRY_COLLECT = "entry_collect", _("Entry fee into the pot")
        PRIZE_PAYOUT = "prize_payout", _("Tournament prize")

    asset = models.CharField(_("asset"), max_length=10, choices=Asset.choices)
    reason = models.CharField(_("reason"), max_length=20, choices=Reason.choices, db_index=True)
    memo = models.CharField(_("memo"), max_length=200, blank=True, help_text=_("Why, in words."))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_transfers",
        verbose_name=_("player"),
        help_text=_("Whose coins or passes moved."),
    )
    table = models.ForeignKey(
        "tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("table")
    )
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("game")
    )
    # The id of the owner (not a table: ``table`` names it) whose pot or holds the transfer moved,
    # such as a tournament's; its accounts say what kind of owner it is. Rows written before the
    # owner key hold their tournament's id here, unchanged (RULING P7).
    owner_id = models.PositiveBigIntegerField(_("owner's id"), null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("by"),
        help_text=_("The admin who granted, if any."),
    )
    created_at = models.DateTimeField(_("at"), db_index=True)

    class Meta:
        verbose_name = _("transfer")
        verbose_name_plural = _("transfers")
        ordering = ["-created_at", "-pk"]
        constraints = [
            # A player's stake enters a game's pot once, is paid or refunded once, and a pass is
            # used, restored and returned once per game: a repeated task or a double click
            # cannot move anything twice.
            models.UniqueConstraint(
                fields=["reason", "user", "match"],
                name="one_game_transfer_per_player_and_reason",
                condition=models.Q(match__isnull=False) & ~models.Q(reason="pass_release"),
            ),
            # RULING P83: a fee is collected into a tournament's pot once and a prize paid once.
            # Only a tournament's pot moves coins for these reasons (a table's pot has its own,
            # held once per game above), so the owner's id alone tells the pot.
            models.UniqueConstraint(
                fields=["reason", "user", "owner_id"],
                name="one_owner_transfer_per_player_and_reason",
                condition=models.Q(owner_id__isnull=False, reason__in=["entry_collect", "prize_payout"]),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_reason_display()} #{self.pk}"


class Entry(models.Model):
    transfer = models.ForeignKey(Transfer, on_delete=models.PROTECT, related_name="entries", verbose_name=_("transfer"))
    account = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="entries", verbose_name=_("ledger account")
    )
    amount = models.BigIntegerField(_("amount"), help_text=_("Positive: the account gains; negative: it gives."))

    class Meta:
        ordering = ["transfer", "pk"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [models.CheckConstraint(condition=~models.Q(amount=0), name="entry_amount_not_zero")]

    def __str__(self) -> str:
        return f"{self.account.key} {self.amount:+}"
