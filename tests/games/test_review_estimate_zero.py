"""Issue 55: an Estimation estimate of 0 that was made and scored +40 was marked a blunder in that
very round. Reproduced here on the deal that does it (micro, seed 158, normal bots, seat 0 the last
to estimate, estimating 0 where the normal bot says 3).

What was wrong was the wording, not the value. The value is the seat's average over sampled deals
consistent with what it saw (RULING P63): on most of them a hand with the A♦, K♠ and K♥ takes a
trick, and 0 then loses its 10 and the Risk, so 3 is worth about +27 more on average. On this one
deal the evaluator scores 0 exactly as the round did (+40: made, the only one to make it, Double
Risk) — the figures agree with the engine's scoring; the cards the seat could not see were kind.
The review said only "about +27 expected points", which reads as a claim about this round; it now
says what the figure is: what the bot's choice scored more on average over N deals like this one.
"""

from __future__ import annotations

import random

from games.bots import strong_estimation
from games.bots.budget import Budget
from games.bots.evaluate import evaluate
from games.bots.registry import bot_for
from games.bots.tricks import encode
from games.engines.registry import engine_for
from games.selectors.reviews import action_text, why_text

SEED = 158
ZERO = {"type": "estimate", "value": 0}


def _the_round():
    """Round 1 of the game, seat 0 estimating 0, every other choice the normal bot's: the view
    of seat 0's estimate, the true hands then, and the round as the engine scored it."""
    engine, normal = engine_for("estimation"), bot_for("estimation", "normal")
    state = engine.new_game(4, {"length": "micro"}, SEED)
    view, hands, moves = None, None, 0
    while True:
        seat = engine.to_act(state)[0]
        seen = engine.view(state, seat)
        if seen["round_number"] != 1:
            break
        action = normal(seen, random.Random(SEED * 1000 + moves), Budget(samples=1))
        moves += 1
        if seat == 0 and seen["phase"] == "estimating":
            view = seen
            hands = [[encode(card) for card in engine.view(state, other)["hand"]] for other in range(4)]
            action = ZERO
        state = engine.apply(state, seat, action)
    return view, hands, engine.record(state)["rounds"][0]


def test_a_made_estimate_of_zero_is_weighed_on_average_and_its_review_says_so() -> None:
    view, hands, played = _the_round()
    assert view["estimate_order"][-1] == 0 and ZERO in view["legal_actions"]
    assert played["made"][0] and played["points"][0] == 40  # made, and scored +40 in that very round

    evaluation = evaluate(strong_estimation, view, random.Random(SEED), 200)
    loss = evaluation.loss(ZERO)
    assert loss is not None and loss >= 10  # the blunder the player saw (RULING P64: Estimation's 10)
    assert evaluation.best.action == {"type": "estimate", "value": 3}

    # The value is not wrong: on the true deal the evaluator scores 0 as the engine did.
    position = strong_estimation.Position(view)
    assert position.outcome_estimate(ZERO, [list(hand) for hand in hands])[0] == played["points"][0]
    # … and the bot's choice would have done about as well here, 3 more: the loss is an average.
    assert position.outcome_estimate(evaluation.best.action, [list(hand) for hand in hands])[0] == 43

    text = why_text(
        "estimation",
        played=action_text(ZERO),
        best=action_text(evaluation.best.action),
        loss=loss,
        samples=evaluation.samples,
    )
    assert text == (
        f"With this hand, estimate 3 scored about +{loss:.1f} more than estimate 0 on average over "
        "200 deals like this one."
    )
    assert "expected points" not in text
