"""Who may not notify whom: checks that the apps above register, so a lower app need not know them.

``social`` registers blocks (either way) and ``chat`` personal mutes from their ``ready()``;
a notification whose actor one of them refuses is dropped quietly (RULING P67), and so is a
friend request (``social.services``).
"""

from __future__ import annotations

from collections.abc import Callable

# (recipient id, actor id) -> True to drop.
Gate = Callable[[int, int], bool]
_GATES: dict[str, Gate] = {}


def gate_add(name: str, gate: Gate) -> None:
    """Add (or replace, on a second ``ready``) the gate ``name``."""
    _GATES[name] = gate


def refused(*, recipient_id: int, actor_id: int | None) -> bool:
    if actor_id is None or actor_id == recipient_id:
        return False
    return any(gate(recipient_id, actor_id) for gate in _GATES.values())
