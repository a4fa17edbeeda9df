"""Test hosts for the several-hosts fault test: network namespaces joined by a bridge, or, where
namespaces cannot be made, loopback aliases (127.43.x.y) with faults made by an unprivileged
fault proxy (tests/faults/forward.py).

With namespaces each host has a network of its own (``ip netns``, a veth into a bridge of the
test's own, 10.x.43.0/24, the test's process at .1): a host is cut off by taking its link down,
and its peers see what a pulled cable shows them (silence, then timeouts).
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field


def run(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True, text=True)


def namespaces_refused() -> str | None:
    """Why network namespaces cannot be made here, or None if they can. ``FAULT_HOSTS=aliases``
    asks for loopback aliases anyway (to run that way where namespaces could be made)."""
    if os.environ.get("FAULT_HOSTS") == "aliases":
        return "FAULT_HOSTS=aliases"
    probe = f"f43probe{os.getpid()}"
    try:
        run("ip", "netns", "add", probe)
    except (OSError, subprocess.CalledProcessError) as error:
        return f"ip netns add failed: {getattr(error, 'stderr', '') or error}".strip()
    run("ip", "netns", "del", probe)
    return None


@dataclass
class Host:
    name: str
    address: str
    wrap: list[str] = field(default_factory=list)  # the command prefix that runs inside it
    namespace: str | None = None
    link: str | None = None  # its end of the veth, inside the namespace

    def command(self, *command: str) -> list[str]:
        return [*self.wrap, *command]


class Network:
    def __init__(self) -> None:
        self.refused = namespaces_refused()
        self.tag = os.getpid() % 200 + 20
        self.hosts: list[Host] = []
        if self.refused is None:
            self.prefix = f"10.{self.tag}.43"
            self.bridge = f"f43br{self.tag}"
            run("ip", "link", "add", self.bridge, "type", "bridge")
            run("ip", "addr", "add", f"{self.prefix}.1/24", "dev", self.bridge)
            run("ip", "link", "set", self.bridge, "up")
        else:
            self.prefix = f"127.43.{self.tag}"  # all of 127/8 reaches lo on Linux

    @property
    def namespaces(self) -> bool:
        return self.refused is None

    def describe(self) -> str:
        if self.namespaces:
            return f"network namespaces, one per host, on a bridge of their own ({self.prefix}.0/24)"
        return (
            f"loopback aliases ({self.prefix}.x), because namespaces cannot be made here ({self.refused}); "
            "a host is cut off by its fault proxy"
        )

    def host(self, name: str, number: int) -> Host:
        address = f"{self.prefix}.{number}"
        if not self.namespaces:
            made = Host(name, address)
        else:
            namespace = f"f43{self.tag}{name}"
            outside, inside = f"f43o{self.tag}{name}"[:15], f"f43i{self.tag}{name}"[:15]
            run("ip", "netns", "add", namespace)
            run("ip", "link", "add", outside, "type", "veth", "peer", "name", inside)
            run("ip", "link", "set", inside, "netns", namespace)
            run("ip", "link", "set", outside, "master", self.bridge)
            run("ip", "link", "set", outside, "up")
            wrap = ["ip", "netns", "exec", namespace]
            run(*wrap, "ip", "addr", "add", f"{address}/24", "dev", inside)
            run(*wrap, "ip", "link", "set", inside, "up")
            run(*wrap, "ip", "link", "set", "lo", "up")
            made = Host(name, address, wrap, namespace, inside)
        self.hosts.append(made)
        return made

    def cut(self, host: Host) -> None:
        run(*host.wrap, "ip", "link", "set", host.link, "down")

    def mend(self, host: Host) -> None:
        run(*host.wrap, "ip", "link", "set", host.link, "up")

    def close(self) -> None:
        if not self.namespaces:
            return
        for host in self.hosts:
            subprocess.run(["ip", "netns", "del", host.namespace], capture_output=True)
        subprocess.run(["ip", "link", "del", self.bridge], capture_output=True)


def established(host: Host, port: int) -> int:
    """How many TCP connections to ``host``'s ``port`` are open (seen from inside it)."""
    done = subprocess.run(
        host.command("ss", "-Htn", "state", "established", "src", f"{host.address}:{port}"),
        capture_output=True,
        text=True,
        check=True,
    )
    return len([line for line in done.stdout.splitlines() if line.strip()])
