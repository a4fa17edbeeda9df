"""What a test run costs: its wall time and the CPU of every kind of process it keeps busy.

    .venv/bin/python tests/benchmarks/suite.py [--cwd CHECKOUT] [--label TEXT] -- make test

It runs the command (by default the README's test command, here) and samples every process on
the machine from ``/proc`` each half second: a process's CPU is what it spent between the first
and the last time it was seen, so the machine's own PostgreSQL and Redis count only for what the
run made them do. Printed: the wall time, the command's exit status, how many tests pytest said
passed and failed, and the CPU seconds of Chromium, the test processes (pytest and its xdist
workers), Daphne, Celery, PostgreSQL, Redis, nginx and the rest, one line a run (Markdown, for
docs/performance.md). Run it on a quiet machine: it counts every process, not only the run's.
To compare two commits, run it in a checkout of each, one run after the other.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
KINDS = ("Chromium", "test processes", "Daphne", "Celery", "PostgreSQL", "Redis", "nginx", "other")
# xdist's workers are execnet's ``python -c "import sys;exec(eval(sys.stdin.readline()))"``; the
# test command's own checks (ruff, mypy, lint-imports) count with them.
TEST_PROCESS_WORDS = ("pytest", "xdist", "execnet", "sys.stdin.readline", "launch.py test", "mypy", "ruff")
SUMMARY = re.compile(r"^=*\s*(\d+ (?:passed|failed).*?) in [\d.]+s", re.MULTILINE)


def kind_of(command_line: str, name: str) -> str:
    """The kind of process, from its command line (and its name when that is empty)."""
    text = f"{command_line} {name}".lower()
    if "chrom" in text or "headless_shell" in text:
        return "Chromium"
    if "daphne" in text or "config.asgi" in text:
        return "Daphne"
    if "celery" in text:
        return "Celery"
    if any(word in text for word in TEST_PROCESS_WORDS):
        return "test processes"
    if "postgres" in text or name.startswith("postgres"):
        return "PostgreSQL"
    if "redis" in text:
        return "Redis"
    if "nginx" in text:
        return "nginx"
    return "other"


def processes() -> dict[tuple[int, str], tuple[str, float]]:
    """Every process now: (pid, start time) -> (kind, CPU seconds so far)."""
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
            command_line = Path(entry.path, "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile
        name, fields = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :].split()
        cpu = (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime
        found[(int(entry.name), fields[19])] = (kind_of(command_line, name), cpu)
    return found


def machine_busy() -> float:
    """The CPU seconds the whole machine has spent busy (every core) since it booted."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(value) for value in fields[:8])
    return (user + nice + system + irq + softirq + steal) / TICKS


class Meter:
    """Samples /proc in a thread until stopped; CPU per kind over the time it ran."""

    def __init__(self, interval: float = 0.5) -> None:
        self.interval, self.first, self.last = interval, processes(), {}
        self.busy = machine_busy()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stopped.wait(self.interval):
            self.last.update(processes())

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> dict[str, float]:
        self.stopped.set()
        self.thread.join()
        self.last.update(processes())
        totals = dict.fromkeys(KINDS, 0.0)
        for key, (kind, cpu) in self.last.items():
            totals[kind] += cpu - self.first.get(key, (kind, 0.0))[1]
        # What the samples missed (processes that lived between two) shows in the machine's total.
        totals["machine"] = machine_busy() - self.busy
        return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cwd", default=str(Path(__file__).resolve().parents[2]))
    parser.add_argument("--label", default="", help="the first cell of the printed row (a commit, say)")
    parser.add_argument("--log", help="keep the command's output in this file")
    parser.add_argument("command", nargs="*", default=["make", "test"])
    args = parser.parse_args()
    meter = Meter()
    meter.start()
    started = time.monotonic()
    run = subprocess.run(args.command, cwd=args.cwd, capture_output=True, text=True)
    wall = time.monotonic() - started
    cpu = meter.stop()
    output = run.stdout + run.stderr
    if args.log:
        Path(args.log).write_text(output)
    summaries = SUMMARY.findall(output)
    result = summaries[-1] if summaries else "no pytest summary"
    minutes, seconds = divmod(round(wall), 60)
    cells = " / ".join(f"{cpu[kind]:,.0f}" for kind in KINDS)
    counted = sum(cpu[kind] for kind in KINDS)
    print(" / ".join(KINDS) + " / all counted / the machine's (CPU seconds)")
    print(
        f"| {args.label} | {minutes} min {seconds} s | {cells} / {counted:,.0f} / {cpu['machine']:,.0f}"
        f" | {result}, exit {run.returncode} |"
    )
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
