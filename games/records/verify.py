"""Check a game's record on your own machine: ``python -m games.records.verify [--commitment HEX] record.json``.

Needs only the standard library and the engine package (``games/engines``, with
``games/records/fairness.py``): no Django, no database, no network. Prints each check
with ✓ or ✗ (· for what the record alone cannot prove), then what was proved and what was
not. ``--commitment``: the commitment you noted on the table page before you pressed ready;
only it proves the secret was fixed before your value. Exit status: 0 when every check
passes, 1 when one fails, 2 when the record cannot be checked (unreadable, malformed, or
dealt before fair deals).
"""

from __future__ import annotations

import argparse
import io
import json
import sys

from games.engines.registry import ENGINES  # this command runs without Django
from games.records.fairness import NotVerifiable, check_record, passed_line, proved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.records.verify", description="Check a game's fair deal from its record."
    )
    parser.add_argument("record", help="the record's JSON file (- reads standard input)")
    parser.add_argument("--commitment", help="the commitment you noted before the start (64 hex digits)")
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as stop:  # --help (0) or a usage error (2), already printed
        return 0 if stop.code == 0 else 2
    try:
        if args.record == "-":
            record = json.load(sys.stdin)
        else:
            with open(args.record, encoding="utf-8") as handle:
                record = json.load(handle)
    except (OSError, ValueError, RecursionError) as error:
        print(f"✗ record: cannot read {args.record}: {error}")
        return 2
    try:
        checks = check_record(record, engines=ENGINES, noted_commitment=args.commitment)
    except NotVerifiable as error:
        print(f"✗ not verifiable: {error}")
        return 2
    except Exception as error:  # noqa: BLE001 - a record this verifier did not foresee: say so, no traceback
        print(f"✗ not verifiable: the record cannot be checked ({type(error).__name__}: {error}).")
        return 2
    for check in checks:
        print(check.line())
    failed = [check.name for check in checks if check.ok is False]
    if failed:
        print(f"FAILED: {', '.join(failed)}")
        return 1
    print(passed_line(record["fairness"]))
    for line in proved(checks, record["fairness"]["version"], record["fairness"]):
        print(line)
    return 0


if __name__ == "__main__":
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(encoding="utf-8")  # the ✓ and ✗ on any console
    sys.exit(main())
