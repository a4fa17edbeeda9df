"""The engines by name, for the pure tools that run without Django: the state text's storage
(``games.records.storage``) and the record verifier (``games.records.verify``). The site asks the
catalogue (``games.catalog``).

A game's engine is the module of this package named after the game (``games.engines.<name>``,
whose own ``name`` says it is that game's), so a new game's engine is found here with no entry of
its own; a test checks that these are exactly the catalogue's engines.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from typing import Any, cast

from games import engines as _package
from games.engines.contract import Engine

# The engines found so far: at most one per module of this package.
_FOUND: dict[str, Engine[Any, Any, Any]] = {}


def _load(name: str) -> Engine[Any, Any, Any] | None:
    """The engine called ``name``; None when this package has no such module, or the module is
    not an engine (the cards, the codec, this registry)."""
    found = _FOUND.get(name)
    if found is not None or not name.isidentifier() or name.startswith("_"):
        return found
    path = f"{_package.__name__}.{name}"
    try:
        module = importlib.import_module(path)
    except ModuleNotFoundError as error:
        if error.name != path:
            raise  # the engine's own import failed: a bug to show, not an unknown game
        return None
    if getattr(module, "name", None) != name:
        return None
    found = _FOUND[name] = cast("Engine[Any, Any, Any]", module)
    return found


class _Engines(Mapping[str, Engine[Any, Any, Any]]):
    """Every engine of this package by its name, each imported when first asked for."""

    def __getitem__(self, name: str) -> Engine[Any, Any, Any]:
        engine = _load(name) if isinstance(name, str) else None
        if engine is None:
            raise KeyError(name)
        return engine

    def __iter__(self) -> Iterator[str]:
        return (module.name for module in pkgutil.iter_modules(_package.__path__) if _load(module.name) is not None)

    def __len__(self) -> int:
        return sum(1 for _name in self)


ENGINES: Mapping[str, Engine[Any, Any, Any]] = _Engines()


def engine_for(name: str) -> Engine[Any, Any, Any]:
    """The engine called ``name``; ValueError for any other name."""
    engine = _load(name) if isinstance(name, str) else None
    if engine is None:
        raise ValueError(f"Unknown game: {name!r}.")
    return engine


def stored_rounds(name: str) -> str | None:
    """The field of ``name``'s state holding the finished rounds that are stored apart, once each
    (``STORED_ROUNDS`` of its engine), or None."""
    engine = ENGINES.get(name)
    key = getattr(engine, "STORED_ROUNDS", None)
    return key if isinstance(key, str) else None
