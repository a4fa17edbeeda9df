"""Which Chromium the browser tests and the load benchmark's browser phase run (standard library only)."""

from __future__ import annotations

import shutil

# Debian's headless shell (package chromium-headless-shell) when it is there: the same Blink as
# the full browser without its display compositing, it costs about a fifth less CPU per page push.
CHROMIUM = shutil.which("chromium-headless-shell") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-quic",
    "--no-first-run",
    "--disable-sync",
]
