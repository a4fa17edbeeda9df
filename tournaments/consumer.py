"""The tournament page's socket: live standings and rounds (RULING P78).

Thin (docs/style.md §9): it joins ``tournament.<id>`` and, on each small ``tournament.changed``
event, renders the standings, rounds and the hero's facts in the viewer's language and pushes
them; htmx swaps each in by its id. Nothing here is private: the same fragment is on the page for anyone.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.template.loader import render_to_string
from django.utils import translation

from core.groups import tournament_group
from core.i18n import scope_language
from tournaments import selectors
from tournaments.events import TournamentChanged
from tournaments.models import Tournament


def send_changed(event: TournamentChanged) -> None:
    """The outbox's handler (tournaments/events.py): a write of the tournament has committed."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(tournament_group(event.tournament_id), {"type": "tournament.changed"})


class TournamentConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        if not await database_sync_to_async(Tournament.objects.filter(pk=self.tournament_id).exists)():
            await self.close()
            return
        self.group = tournament_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing it needs answered: the socket only pushes."""

    async def tournament_changed(self, event: dict) -> None:
        await self.send(text_data=await database_sync_to_async(self._render)())

    def _render(self) -> str:
        """The standings and rounds, the hero's facts (players, pot, state), and once sign-up has
        closed its actions too (no form then); while open, the viewer's own sign-up changes only by
        their own page load."""
        tournament = Tournament.objects.get(pk=self.tournament_id)
        rows = selectors.standings(tournament)
        context = {
            "tournament": tournament,
            "rows": rows,
            "rounds": selectors.rounds(tournament),
            "user": self.scope.get("user"),
            "open": selectors.signup_open(tournament),
        }
        parts = ["tournaments/_live.html", "tournaments/_facts.html"]
        if not context["open"]:
            parts.append("tournaments/_actions.html")
        with translation.override(scope_language(self.scope)):
            return "".join(render_to_string(part, context) for part in parts)
