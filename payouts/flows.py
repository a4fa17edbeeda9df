"""Coin flows between pairs of accounts, read from the ledger, for the admin's report (RULING P72).

At a staked game each staker's net is what the pot paid them less their stake. The coins a
staker lost are taken to have gone to the stakers who gained, in proportion to their gains.
Summed over every finished game, a pair whose coins went one way in most of the games they
staked together, more than once, is listed: the pattern of one account feeding another.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Sum

from accounts.models import User
from payouts.models import Account, Entry, Transfer

Kind = Account.Kind

MIN_GAMES = 3  # games of the pair with coins going the one way
MOST_SHARE = 0.8  # of the games with a flow between them, at least this share went that way


@dataclass(frozen=True)
class Flow:
    giver: User
    taker: User
    games: int  # games where coins went from giver to taker
    coins: int
    back_games: int  # games where coins went the other way
    back_coins: int


def one_sided_flows(*, min_games: int = MIN_GAMES, share: float = MOST_SHARE) -> list[Flow]:
    """Pairs with repeated coins going one way, the most coins first."""
    nets = _nets_by_game()
    games: dict[tuple[int, int], int] = defaultdict(int)
    coins: dict[tuple[int, int], float] = defaultdict(float)
    for net in nets.values():
        gained = {user: amount for user, amount in net.items() if amount > 0}
        total = sum(gained.values())
        for giver, amount in net.items():
            if amount >= 0:
                continue
            for taker, gain in gained.items():
                games[giver, taker] += 1
                coins[giver, taker] += -amount * gain / total
    flows = []
    for (giver, taker), count in games.items():
        back = games.get((taker, giver), 0)
        if count >= min_games and count >= share * (count + back):
            flows.append((giver, taker, count, round(coins[giver, taker]), back, round(coins.get((taker, giver), 0))))
    users = User.objects.in_bulk({user for flow in flows for user in flow[:2]})
    result = [
        Flow(users[g], users[t], count, amount, back, back_amount) for g, t, count, amount, back, back_amount in flows
    ]
    return sorted(result, key=lambda flow: (-flow.coins, -flow.games, flow.giver.pk, flow.taker.pk))


def _nets_by_game() -> dict[int, dict[int, int]]:
    """Per game: each staker's payout less their stake, from the ledger's wallet entries."""
    reasons = [Transfer.Reason.POT_COLLECT, Transfer.Reason.POT_PAYOUT]
    staked = Entry.objects.filter(
        transfer__reason__in=reasons, transfer__match__isnull=False, transfer__match__status="finished"
    )
    rows = (
        staked.filter(account__kind__in=[Kind.STAKE_HELD, Kind.WALLET])
        .values("transfer__match_id", "transfer__user_id", "transfer__reason")
        .annotate(amount=Sum("amount"))
    )
    nets: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        # The collect takes the stake out of the player's hold (negative there); the payout pays the wallet.
        nets[row["transfer__match_id"]][row["transfer__user_id"]] += row["amount"]
    return nets
