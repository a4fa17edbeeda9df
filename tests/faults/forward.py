"""A TCP forwarder that can be cut (python -m tests.faults.forward LISTEN TARGET), unprivileged.

LISTEN is host:port; TARGET is host:port or the path of a Unix socket (PostgreSQL's). It passes
bytes both ways. SIGUSR1 cuts it as a pulled cable would: the port closes (new connections are
refused) and every open connection goes silent, bytes neither passed on nor answered;
SIGUSR2 mends it (the port opens again; silenced connections stay dead, as after a real cut).

The several-hosts fault test (tests/faults/test_hosts.py) uses it to reach the database host's
PostgreSQL over TCP, and, where network namespaces cannot be made, to cut a web host off.
"""

from __future__ import annotations

import asyncio
import signal
import sys


class Forwarder:
    def __init__(self, listen: str, target: str) -> None:
        host, port = listen.rsplit(":", 1)
        self.host, self.port, self.target = host, int(port), target
        self.server: asyncio.Server | None = None
        self.cut = False

    async def open_target(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.target.startswith("/"):
            return await asyncio.open_unix_connection(self.target)
        host, port = self.target.rsplit(":", 1)
        return await asyncio.open_connection(host, int(port))

    async def pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                if self.cut:
                    await asyncio.Event().wait()  # silent: nothing passes, nothing closes
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            if not self.cut:
                writer.close()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            target_reader, target_writer = await self.open_target()
        except OSError:
            writer.close()
            return
        await asyncio.gather(self.pipe(reader, target_writer), self.pipe(target_reader, writer))

    async def listen(self) -> None:
        self.server = await asyncio.start_server(self.handle, self.host, self.port, reuse_address=True)

    def on_cut(self) -> None:
        self.cut = True
        if self.server is not None:
            self.server.close()
            self.server = None

    def on_mend(self) -> None:
        self.cut = False
        asyncio.ensure_future(self.listen())

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGUSR1, self.on_cut)
        loop.add_signal_handler(signal.SIGUSR2, self.on_mend)
        await self.listen()
        await asyncio.Event().wait()


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    asyncio.run(Forwarder(argv[0], argv[1]).run())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
