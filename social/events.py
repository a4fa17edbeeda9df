"""Social's typed events: what a write of friends and blocks hands the outbox (core/outbox.py).

Social sits below chat and the tables, so it names what happened and the apps above register
where it goes: chat's panels hear a block (chat/broadcast.py, from ``ChatConfig.ready``). The
``Block`` row is stored, so a socket that misses the event is put right by its panel's next read.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BlockChanged:
    """A block was made or lifted between these players (RULING P67): their open table sockets read
    their chat again, without (or again with) the other's messages."""

    user_ids: tuple[int, ...]
