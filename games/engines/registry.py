"""The engines by name, for the pure tools that run without Django: the state text's storage
(``games.records.storage``) and the record verifier (``games.records.verify``). The site asks the catalogue
(``games.catalog``), and a test checks that both hold the same engines."""

from __future__ import annotations

from typing import Any

from games.engines import estimation, sita, sitaratas
from games.engines.contract import Engine

ENGINES: dict[str, Engine[Any, Any, Any]] = {engine.name: engine for engine in (sitaratas, estimation, sita)}


def engine_for(name: str) -> Engine[Any, Any, Any]:
    """The engine called ``name``; ValueError for any other name."""
    engine = ENGINES.get(name) if isinstance(name, str) else None
    if engine is None:
        raise ValueError(f"Unknown game: {name!r}.")
    return engine


def stored_rounds(name: str) -> str | None:
    """The field of ``name``'s state holding the finished rounds that are stored apart, once each
    (``STORED_ROUNDS`` of its engine), or None."""
    engine = ENGINES.get(name)
    key = getattr(engine, "STORED_ROUNDS", None)
    return key if isinstance(key, str) else None
