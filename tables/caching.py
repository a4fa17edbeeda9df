"""One bounded, thread-safe cache for the per-process copies a move or a render keeps.

Moves run on pool threads and views on the event loop, so every cache a process shares
between them takes a lock; each is bounded, forgetting what was stored longest ago first
(an entry stored again counts as new), so a long-running process holds the tables it shows
and not every table it ever showed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")


class BoundedCache(Generic[Value]):
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._entries: OrderedDict[Hashable, Value] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Value | None:
        with self._lock:
            return self._entries.get(key)

    def put(self, key: Hashable, value: Value) -> Value:
        """Keep ``value`` under ``key`` (as the newest entry) and return it."""
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.limit:
                self._entries.popitem(last=False)
        return value

    def discard(self, key: Hashable) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._entries

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)
