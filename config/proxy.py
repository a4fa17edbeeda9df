"""nginx in front of the site (issue 43): deploy/nginx/sitaratas.conf rendered for production, and
run as a child process by ``make run PROXY=1``, the tests and the benchmarks.

Standard library only: config/launch.py uses it before Django is set up.

    python -m config.proxy render --server cards.example.com --daphne 127.0.0.1:8001,127.0.0.1:8002 \\
        > /etc/nginx/sites-available/sitaratas     # production, TLS from Let's Encrypt's paths

One file, ``deploy/nginx/sitaratas.conf``, holds every rule (routing, limits, headers); this module
only fills in where the processes listen and where nginx itself does. What production runs is
what developers and the benchmarks run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy" / "nginx"
SITE_TEMPLATE = DEPLOY / "sitaratas.conf"
LOCAL_TEMPLATE = DEPLOY / "local.conf"
STATIC_ROOT = ROOT / ".local" / "staticfiles"  # config/settings.py's STATIC_ROOT
PLACEHOLDER = re.compile(r"\{\{ (\w+) \}\}")


def render(template: str, values: dict[str, str]) -> str:
    """``template`` with each ``{{ name }}`` replaced; a name without a value is an error."""
    missing = sorted(set(PLACEHOLDER.findall(template)) - set(values))
    if missing:
        raise KeyError(f"no value for {', '.join(missing)}")
    return PLACEHOLDER.sub(lambda found: values[found.group(1)], template)


def server_lines(daphnes: list[str]) -> str:
    """The upstream's ``server`` lines. A process that refused a connection is passed over for 2 s
    (then tried again: a restarted one gets its tables back), not nginx's default 10 s."""
    return "\n".join(f"    server {address} max_fails=1 fail_timeout=2s;" for address in daphnes)


def site_conf(
    daphnes: list[str],
    *,
    listen: str,
    server_name: str = "_",
    static_root: Path = STATIC_ROOT,
    access_log: str = "/var/log/nginx/sitaratas.access.log",
    extra: str = "",
) -> str:
    return render(
        SITE_TEMPLATE.read_text(),
        {
            "servers": server_lines(daphnes),
            "listen": listen,
            "server_name": server_name,
            "static_root": str(static_root),
            "access_log": access_log,
            "extra": extra,
        },
    )


def production_conf(server_name: str, daphnes: list[str], static_root: Path = STATIC_ROOT) -> str:
    """The site on HTTPS (certificates where certbot puts them), with plain HTTP sent there."""
    certificates = f"/etc/letsencrypt/live/{server_name}"
    listen = (
        "    listen 443 ssl http2;\n    listen [::]:443 ssl http2;\n"
        f"    ssl_certificate {certificates}/fullchain.pem;\n"
        f"    ssl_certificate_key {certificates}/privkey.pem;"
    )
    redirect = (
        "server {\n    listen 80;\n    listen [::]:80;\n"
        f"    server_name {server_name};\n    return 301 https://$host$request_uri;\n}}\n"
    )
    return site_conf(daphnes, listen=listen, server_name=server_name, static_root=static_root, extra=redirect)


def nginx_binary() -> str | None:
    """Debian's nginx (``apt-get install nginx``; .ci/run installs it): on PATH, or in /usr/sbin,
    which a user's PATH may leave out."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


def mime_types() -> Path:
    for candidate in (Path("/etc/nginx/mime.types"), Path("/usr/local/nginx/conf/mime.types")):
        if candidate.exists():
            return candidate
    raise FileNotFoundError("nginx's mime.types not found: install nginx (apt-get install nginx)")


@dataclass
class LocalProxy:
    """nginx on ``host``:``port`` in front of ``daphnes`` ("127.0.0.1:8001", …), in a directory of
    its own; ``start()`` runs it in the foreground as a child process, ``stop()`` ends it."""

    daphnes: list[str]
    port: int
    host: str = "127.0.0.1"
    static_root: Path = STATIC_ROOT
    workers: int = 1
    prefix: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="nginx-")))
    process: subprocess.Popen | None = None
    wrap: list[str] = field(default_factory=list)  # run inside this, e.g. ["ip", "netns", "exec", "web"]

    @property
    def access_log(self) -> Path:
        return self.prefix / "access.log"

    @property
    def error_log(self) -> Path:
        return self.prefix / "error.log"

    def write(self) -> Path:
        """Render both files into the prefix; returns the main one."""
        for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.prefix / "temp" / temp).mkdir(parents=True, exist_ok=True)
        listen_host = f"[{self.host}]" if ":" in self.host else self.host
        (self.prefix / "sitaratas.conf").write_text(
            site_conf(
                self.daphnes,
                listen=f"    listen {listen_host}:{self.port};",
                static_root=self.static_root,
                access_log=str(self.access_log),
            )
        )
        main = self.prefix / "nginx.conf"
        main.write_text(
            render(
                LOCAL_TEMPLATE.read_text(),
                {
                    "workers": str(self.workers),
                    # As root, nginx's workers would run as "nobody", who may not read the
                    # checkout's static files nor write this prefix: a local run keeps its user.
                    "user": "user root;" if os.geteuid() == 0 else "",
                    "prefix": str(self.prefix),
                    "mime_types": str(mime_types()),
                },
            )
        )
        return main

    def command(self) -> list[str]:
        binary = nginx_binary()
        if binary is None:
            raise FileNotFoundError("nginx not found: install it (apt-get install nginx)")
        return [
            *self.wrap,
            binary,
            "-p",
            str(self.prefix),
            "-c",
            str(self.prefix / "nginx.conf"),
            "-e",
            str(self.error_log),
        ]

    def start(self, **popen: Any) -> subprocess.Popen:
        from config import processes

        self.write()
        checked = subprocess.run([*self.command(), "-t", "-q"], capture_output=True, text=True)
        if checked.returncode:
            raise RuntimeError(f"nginx refused its configuration: {checked.stderr.strip()}")
        self.process = processes.start(self.command(), **popen)
        processes.wait_for_port(self.port, seconds=10, process=self.process, host=self.host)
        return self.process

    def stop(self) -> None:
        from config import processes

        processes.stop([self.process], seconds=5)  # SIGTERM: nginx's fast shutdown

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.prefix, ignore_errors=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.proxy", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    production = commands.add_parser("render", help="print the production site file")
    production.add_argument("--server", required=True, help="the site's host name (server_name, certificates)")
    production.add_argument("--daphne", required=True, help="host:port of each Daphne process, comma-separated")
    production.add_argument("--static-root", type=Path, default=STATIC_ROOT, help="collectstatic's folder")
    options = parser.parse_args(argv)
    daphnes = [address.strip() for address in options.daphne.split(",") if address.strip()]
    sys.stdout.write(production_conf(options.server, daphnes, options.static_root))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
