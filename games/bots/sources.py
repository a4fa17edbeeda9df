"""Import the bots from their Python sources even where compiled builds sit beside them.

The strong bots' hot modules may be compiled in place by mypyc (config/compile_bots.py); Python
then imports the extension, not the ``.py``. To compare the two (the test that they play the same
moves, the benchmark of samples per second), a fresh interpreter calls ``prefer_sources()``
before it imports any bot, and gets the plain sources.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


class _SourcesFirst:
    """A finder that answers for ``games.bots.<module>`` with the module's ``.py`` file."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        package, _, module = name.rpartition(".")
        source = HERE / f"{module}.py"
        if package != __package__ or not source.exists():
            return None
        return importlib.util.spec_from_file_location(name, source)


def prefer_sources() -> None:
    """From now on, this interpreter imports every bot module from its source."""
    compiled = [name for name in sys.modules if name.startswith(f"{__package__}.") and name != __name__]
    if any(not str(getattr(sys.modules[name], "__file__", "")).endswith(".py") for name in compiled):
        raise RuntimeError("a compiled bot module is already imported: call prefer_sources() first")
    sys.meta_path.insert(0, _SourcesFirst())


def is_compiled(module: object) -> bool:
    """Whether a module was imported from an extension (a compiled build), not its source."""
    return not str(getattr(module, "__file__", "")).endswith(".py")
