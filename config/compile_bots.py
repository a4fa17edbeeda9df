"""Compile the strong bots' simulators to C with mypyc, in place (``python config/compile_bots.py``).

The strong bots play out hundreds of sampled deals a move in these modules (issue 55). Compiled
by mypyc (the mypy project's compiler, which black and mypy itself ship compiled), the same
Python runs three to six times faster (docs/performance.md, "Strong bots' samples per second"),
and plays exactly the same moves: it is the same code, with the same generator calls and the same
float arithmetic (tests/games/test_compiled_bots.py compares them move for move).

The README's commands run ``ensure_compiled_bots()`` (config/launch.py) once the virtualenv
exists: it builds when a source, mypy or Python changed since the last build, so an edited module
never runs as a stale extension. Without a C compiler the bots run as plain Python, slower and
otherwise the same.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "games" / "bots"
# The modules a strong move spends its time in: the samplers, the rollouts and the rule-based
# policies the rollouts and the guesses call. The rest of the library stays plain Python.
MODULES = ("draw", "tricks", "sitaratas", "estimation", "sita", "strong_sitaratas", "strong_estimation", "strong_sita")
BUILD = ROOT / ".local" / "mypyc"
STAMP = BOTS / ".compiled.sha256"
GROUP = "games.bots.native"  # the shared part of the extensions: games/bots/native__mypyc*.so


def sources() -> list[Path]:
    return [BOTS / f"{name}.py" for name in MODULES]


def digest() -> str:
    """What a build depends on: the sources, mypy's version and this Python's."""
    import mypy.version

    hashed = hashlib.sha256(f"{mypy.version.__version__} {sys.version}".encode())
    for path in sources():
        hashed.update(path.name.encode() + b"\0" + path.read_bytes())
    return hashed.hexdigest()


def extensions() -> list[Path]:
    """The built modules, one per source (absent before the first build)."""
    return [path for name in MODULES for path in BOTS.glob(f"{name}.*.so")]


def is_current() -> bool:
    return len(extensions()) == len(MODULES) and STAMP.exists() and STAMP.read_text() == digest()


def remove() -> None:
    """Drop every built module, so the plain sources are imported."""
    for path in [*BOTS.glob("*.so"), STAMP]:
        path.unlink(missing_ok=True)


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    remove()
    BUILD.mkdir(parents=True, exist_ok=True)
    # The compile runs mypy on the modules with a configuration of their own: the project's
    # (pyproject.toml) loads the Django plugin, which the run command does not install.
    config = BUILD / "mypy.ini"
    config.write_text("[mypy]\nfollow_imports = silent\n")
    paths = [str(path.relative_to(ROOT)) for path in sources()]
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        setup(
            name="sitaratas-bots",
            ext_modules=mypycify(["--config-file", str(config), *paths], target_dir=str(BUILD / "c"), group_name=GROUP),
            script_args=["-q", "build_ext", "--inplace"]
            + ["--build-temp", str(BUILD / "temp"), "--build-lib", str(BUILD / "lib")],
        )
    finally:
        os.chdir(cwd)
    STAMP.write_text(digest())


def main(argv: list[str]) -> int:
    """``--if-stale``: build only when the built modules are missing or older than a source."""
    if "--if-stale" in argv and is_current():
        return 0
    print("==> Compiling the strong bots (mypyc)", file=sys.stderr, flush=True)
    try:
        build()
    except (Exception, SystemExit) as error:  # no C compiler, no headers: the plain sources still run
        remove()
        print(f"==> The bots stay plain Python (the compile failed: {error})", file=sys.stderr, flush=True)
        return 0 if "--if-stale" in argv else 1
    print(f"==> Compiled {len(extensions())} bot modules", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    # Run as a script, Python put config/ first on the path; the project root belongs there.
    sys.path[0] = str(ROOT)
    sys.exit(main(sys.argv[1:]))
