"""The tournament page's socket: live standings and rounds (RULING P78).

Thin (docs/style.md §9): it joins ``tournament.<id>`` and, on each small ``tournament.changed``
event, pushes the standings, rounds and the hero's facts in the viewer's language; htmx swaps
each in by its id. Nothing here is private: the same fragment is on the page for anyone.

As the table's socket does (tables/live/fanout.py), a process reads the tournament once per
event for all its sockets (core/fanout.py), on Channels' database thread as the table's
snapshot is read, and renders once per kind of viewer, on a pool thread as each viewer's own
work is done: sockets of one language and time zone share a render, unless they are the
players whose own row the standings mark. An event reaches its handler with no hop to
Channels' thread first (core/sockets.py).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation

from core import groups
from core.fanout import once
from core.groups import tournament_group
from core.i18n import scope_language
from core.sockets import LoopDispatch
from tournaments import selectors
from tournaments.events import TournamentChanged
from tournaments.models import Round, Tournament


def send_changed(event: TournamentChanged) -> None:
    """The outbox's handler (tournaments/events.py): a write of the tournament has committed. The
    id lets a process's sockets share one read of the change (``once`` below)."""
    groups.send(tournament_group(event.tournament_id), {"type": "tournament.changed", "id": uuid.uuid4().hex})


@dataclass(frozen=True)
class Standings:
    """What every socket of the tournament is shown, read once per event in a process."""

    tournament: Tournament
    rows: list[selectors.Row]
    rounds: list[Round]
    open: bool  # sign-up still open
    entrants: frozenset[int]  # the user ids whose rows the standings show


def standings_read(tournament_id: int) -> Standings:
    tournament = Tournament.objects.get(pk=tournament_id)
    rows = selectors.standings(tournament)
    return Standings(
        tournament=tournament,
        rows=rows,
        rounds=selectors.rounds(tournament),
        open=selectors.signup_open(tournament),
        entrants=frozenset(row.entry.user_id for row in rows),
    )


def standings_render(standings: Standings, *, user: object, language: str) -> str:
    """The standings and rounds, the hero's facts (players, pot, state), and once sign-up has
    closed its actions too (no form then); while open, the viewer's own sign-up changes only by
    their own page load."""
    context = {
        "tournament": standings.tournament,
        "rows": standings.rows,
        "rounds": standings.rounds,
        "user": user,
        "open": standings.open,
        # The viewer's own entry (their withdraw button, RULING P82): a render is per entrant (``_viewer``).
        "entry": next((row.entry for row in standings.rows if row.entry.user_id == getattr(user, "pk", None)), None),
    }
    parts = ["tournaments/_live.html", "tournaments/_facts.html"]
    if not standings.open:
        parts.append("tournaments/_actions.html")
    with translation.override(language):
        return "".join(render_to_string(part, context) for part in parts)


class TournamentConsumer(LoopDispatch, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        if not await database_sync_to_async(Tournament.objects.filter(pk=self.tournament_id).exists)():
            await self.close()
            return
        self.user = self.scope.get("user")
        self.language = scope_language(self.scope)
        self.group = tournament_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing it needs answered: the socket only pushes."""

    async def tournament_changed(self, event: dict) -> None:
        event_id = event.get("id")
        read = database_sync_to_async(standings_read)
        standings = await once(event_id, ("tournament", self.tournament_id), lambda: read(self.tournament_id))
        render = database_sync_to_async(standings_render, thread_sensitive=False)
        html = await once(
            event_id,
            ("tournament", self.tournament_id, self._viewer(standings)),
            lambda: render(standings, user=self.user, language=self.language),
        )
        await self.send(text_data=html)

    def _viewer(self, standings: Standings) -> tuple:
        """All a render takes from its viewer: their language, their time zone (the start time,
        issue 41), and whether a row of the standings is theirs (it is marked)."""
        user_id = getattr(self.user, "pk", None)
        zone = getattr(self.user, "time_zone", "") or ""
        return self.language, zone, user_id if user_id in standings.entrants else None
