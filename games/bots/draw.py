"""Shuffling for the strong bots' samplers, exactly as ``random.Random.shuffle`` does it.

A strong bot shuffles the unseen cards once per sample, hundreds of times a move, and the
standard library's shuffle is written in Python (a method call per card for ``_randbelow``).
This is the same algorithm on the same generator (Fisher-Yates from the end, each index drawn
with ``getrandbits`` and rejection, as CPython 3.11's ``_randbelow_with_getrandbits``), so it
draws the same numbers and leaves the generator in the same state: a bot's moves do not change.
When the bots are compiled (``config/launch.py``'s ``ensure_compiled_bots``) the loop runs as C.
``tests/games/test_bot_speed.py`` checks it against the standard library's on many lists.
"""

from __future__ import annotations

import random


def shuffle(rng: random.Random, items: list[int]) -> None:
    """Shuffle ``items`` in place: the same order and generator state as ``rng.shuffle(items)``."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]
