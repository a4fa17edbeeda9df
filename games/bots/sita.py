"""A SITA bot that sees only its seat's view.

Choosing a card: the cards still unseen (not in the bot's hand, the rows or anyone's
penalty pile) are the pool the other seats play from. The bot samples the other seats'
cards from that pool many times and, with the same samples for every candidate (common
random numbers, so the comparison is fair), places each sample exactly as the engine
would: where its own card lands, whether it is the sixth, or too low. It plays the card
with the lowest mean penalty, plus a small weight on how dangerous its hand stays.

Taking a row (too-low card): every other revealed card of the turn is known, so the bot
plays the rest of the turn out exactly for each of the four rows, then adds what the new
rows mean for its remaining hand: the expected cost of each of its cards if played
onto them, summed (a card left without a close row end is a later risk).
"""

from __future__ import annotations

import random

from games.engines.contract import JSON
from games.engines.sita import DECK_SIZE, PENALTY, ROW_LIMIT, Action

Rows = list[tuple[int, int, int]]  # Per row: (last card, length, penalty total).

FUTURE_WEIGHT = 0.5  # How much the hand's expected costs on the new rows count against a row.
SAMPLE_BUDGET = 2400  # Simulated placements per decision; keeps a decision to a few ms.


def choose(view: JSON, rng: random.Random) -> Action:
    legal = view["legal_actions"]
    if not legal:
        raise ValueError("The bot has no legal action.")
    if legal[0]["type"] == "take_row":
        return {"type": "take_row", "row": _best_row(view, rng)}
    hand = [action["card"] for action in legal]
    rows = _summaries(view["rows"])
    pool = _unseen(view, hand, view["rows"])
    costs = _card_costs(rows, hand, pool, view["players"] - 1, rng)
    best = min(range(len(hand)), key=lambda i: (costs[i], hand[i]))
    return {"type": "choose", "card": hand[best]}


def house(view: JSON, rng: random.Random) -> Action:
    """RULING P11: what the house plays for a player's seat (their time ran out, or they are away).
    It plays as a sensible player would and as the player can follow: a card as the bot chooses
    it, and a row to take the cheapest one, fewest penalty points (issue 53: it took a 7-point
    row beside a 3-point one for the sake of the hand's later cards, a bet the player never made).
    Of equally cheap rows, the bot's weighing of the hand's later cards chooses."""
    legal = view["legal_actions"]
    if not legal or legal[0]["type"] != "take_row":
        return choose(view, rng)
    costs = [sum(PENALTY[card] for card in row) for row in view["rows"]]
    cheapest = [row for row in range(len(costs)) if costs[row] == min(costs)]
    return {"type": "take_row", "row": cheapest[0] if len(cheapest) == 1 else _best_row(view, rng, among=cheapest)}


def _summaries(rows: list[list[int]]) -> Rows:
    return [(row[-1], len(row), sum(PENALTY[card] for card in row)) for row in rows]


def _unseen(view: JSON, hand: list[int], rows: list[list[int]]) -> list[int]:
    seen = set(hand)
    for row in rows:
        seen.update(row)
    for pile in view["taken"]:
        seen.update(pile)
    return [card for card in range(1, DECK_SIZE + 1) if card not in seen]


def _card_costs(rows: Rows, hand: list[int], pool: list[int], others: int, rng: random.Random) -> list[float]:
    """Mean penalty of each hand card over sampled plays of the other seats."""
    others = min(others, len(pool))
    samples = max(12, min(150, SAMPLE_BUDGET // (len(hand) * (others + 1))))
    totals = [0.0] * len(hand)
    for _ in range(samples):
        drawn = rng.sample(pool, others)
        for index, card in enumerate(hand):
            totals[index] += _own_penalty(rows, card, drawn)
    return [total / samples for total in totals]


def _own_penalty(rows: Rows, own: int, others: list[int]) -> int:
    """Place ``own`` with ``others`` lowest first; return what the owner of ``own`` takes.

    Too-low cards take the cheapest row: the simplest guess at what anyone does.
    """
    ends = [row[0] for row in rows]
    lengths = [row[1] for row in rows]
    points = [row[2] for row in rows]
    mine = 0
    for card in sorted(others + [own]):
        best, best_end = -1, 0
        for index in range(4):
            end = ends[index]
            if best_end < end < card:
                best, best_end = index, end
        taken = 0
        if best < 0:
            best = min(range(4), key=points.__getitem__)
            taken = points[best]
        elif lengths[best] == ROW_LIMIT:
            taken = points[best]
        if best_end == 0 or lengths[best] == ROW_LIMIT:
            ends[best], lengths[best], points[best] = card, 1, PENALTY[card]  # The card restarts the row.
        else:
            ends[best], lengths[best], points[best] = card, lengths[best] + 1, points[best] + PENALTY[card]
        if card == own:
            mine = taken
    return mine


def _best_row(view: JSON, rng: random.Random, among: list[int] | None = None) -> int:
    """Weigh each row's penalty (of ``among``, else all four) against the rows it leaves for the
    bot's next cards."""
    seat = view["seat"]
    pending = view["pending_too_low"]
    chosen = view["revealed"]["chosen"]
    rest = sorted(card for other, card in enumerate(chosen) if other != seat)
    hand = view["hand"]
    best_row, best_score = 0, float("inf")
    for row in among if among is not None else range(4):
        rows = [list(cards) for cards in view["rows"]]
        took = sum(PENALTY[card] for card in rows[row])
        rows[row] = [pending["card"]]
        _play_out(rows, rest)
        score = float(took)
        if hand:
            placed_taken = [list(pile) for pile in view["taken"]] + [list(view["rows"][row]), chosen]
            pool = _unseen({"taken": placed_taken}, hand, rows)
            future = _card_costs(_summaries(rows), hand, pool, view["players"] - 1, rng)
            score += FUTURE_WEIGHT * sum(future)
        if score < best_score:
            best_row, best_score = row, score
    return best_row


def _play_out(rows: list[list[int]], cards: list[int]) -> None:
    """Place the turn's other cards (none can be too low now), as the engine does."""
    for card in cards:
        target = max((index for index in range(4) if rows[index][-1] < card), key=lambda i: rows[i][-1])
        if len(rows[target]) == ROW_LIMIT:
            rows[target] = [card]
        else:
            rows[target].append(card)
