"""Deals for the tests that a seat's view is all a bot or the evaluator reads."""

from __future__ import annotations

import random


def others_redealt(hands, me: int, rng: random.Random) -> list[list]:
    """The other seats' cards dealt anew among them, each keeping its count; ``me`` keeps its hand."""
    pool = [card for seat, hand in enumerate(hands) if seat != me for card in hand]
    rng.shuffle(pool)
    dealt, start = [], 0
    for seat, hand in enumerate(hands):
        if seat == me:
            dealt.append(list(hand))
        else:
            dealt.append(pool[start : start + len(hand)])
            start += len(hand)
    return dealt
