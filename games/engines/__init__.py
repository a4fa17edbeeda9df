"""The rules engines: pure Python, no Django, one module per game.

Every engine module offers the same interface (docs/design.md, "The engine contract"), written
as a type in ``games.engines.contract`` (``Engine``): ``name``, ``min_players``,
``max_players``, ``validate_options``, ``new_game``, ``to_act``, ``legal_actions``, ``apply``,
``view``, ``is_over``, ``record``, ``dumps`` and ``loads``. The site reaches an engine through
the catalogue (``games.catalog``: each game holds its engine module), so the games are treated
alike; mypy checks each module against the contract there.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules refuse; the message is meant for the player."""
