"""Check a game's record on your own machine: ``python -m games.verify record.json``.

Needs only the standard library and the engine package (``games/engines``, with
``games/records/fairness.py``): no Django, no database, no network. Prints each check
with ✓ or ✗. Exit status: 0 when every check passes, 1 when one fails, 2 when
the record cannot be checked (unreadable, or dealt before fair deals).
"""

from __future__ import annotations

import json
import sys

from games.records.fairness import NotVerifiable, check_record


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print("usage: python -m games.verify record.json   (use - to read standard input)", file=sys.stderr)
        return 2
    try:
        if args[0] == "-":
            record = json.load(sys.stdin)
        else:
            with open(args[0], encoding="utf-8") as handle:
                record = json.load(handle)
    except (OSError, ValueError) as error:
        print(f"✗ record: cannot read {args[0]}: {error}")
        return 2
    try:
        checks = check_record(record)
    except NotVerifiable as error:
        print(f"✗ not verifiable: {error}")
        return 2
    for check in checks:
        print(check.line())
    failed = [check.name for check in checks if not check.ok]
    print(
        f"FAILED: {', '.join(failed)}"
        if failed
        else "All checks passed: the deal follows from the commitment and the players' values."
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.stdout.reconfigure(encoding="utf-8")  # the ✓ and ✗ on any console
    sys.exit(main())
