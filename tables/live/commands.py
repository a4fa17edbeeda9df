"""Route a parsed message to its service (sync; the consumer runs it off the event loop)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from accounts.bots import DEFAULT_BOT_LEVEL
from accounts.models import User
from core.connections import retry_on_dead_connection
from tables import hints
from tables.errors import TableError
from tables.live.messages import Message
from tables.render import fragment
from tables.selectors import fairness
from tables.services import lobby, play, rematch, signatures, timeouts, votes


@retry_on_dead_connection
def run_command(message: Message, *, table_id: int, match_id: int | None, user: User, address: str = "") -> str | None:
    """Run the command; a reply for the asking socket alone (a hint), or None. ``address``: the
    socket's client address, kept (as a digest) where a seat is taken (RULING P72)."""
    command = message.command
    if command in REMATCH_COMMANDS:
        _rematch(command, table_id=table_id, user=user)
        return None
    if command == "act":
        if match_id is None:
            raise TableError(_("The game has not started."))
        play.match_act(match_id=match_id, user=user, action=message.action, version=message.version)
    elif command == "seat_take":
        rematch.rematch_seat_take(table_id=table_id, user=user, position=message.position, address=address)
    elif command == "seat_leave":
        lobby.seat_leave(table_id=table_id, user=user)
    elif command in ("ready", "unready"):
        entropy = fairness.player_value(message.extra.get("entropy")) if command == "ready" else None
        rematch.rematch_seat_ready(table_id=table_id, user=user, ready=command == "ready", entropy=entropy)
    elif command == "bot_add":
        rematch.rematch_bot_add(
            table_id=table_id,
            host=user,
            position=message.position,
            level=message.extra.get("level") or DEFAULT_BOT_LEVEL,
        )
    elif command == "bot_remove":
        lobby.bot_remove(table_id=table_id, host=user, position=message.position)
    elif command == "start":
        lobby.table_start(table_id=table_id, host=user, entropy=fairness.player_value(message.extra.get("entropy")))
    elif command == "close":
        lobby.table_close(table_id=table_id, by=user)
    elif command in ("vote_propose", "vote_yes", "vote_no"):
        if match_id is None:
            raise TableError(_("The game has not started."))
        if command == "vote_propose":
            votes.vote_propose(match_id=match_id, user=user)
        else:
            votes.vote_cast(match_id=match_id, user=user, yes=command == "vote_yes")
    elif command == "clock_set":
        lobby.table_clock_set(table_id=table_id, host=user, seconds=message.extra.get("seconds"))
    elif command == "back":
        if match_id is None:
            raise TableError(_("The game has not started."))
        timeouts.seat_back(match_id=match_id, user=user, position=message.position)
    elif command == "sign":
        if match_id is None:
            raise TableError(_("The game has not started."))
        signatures.match_sign(match_id=match_id, user=user, text=message.extra.get("signature"))
    elif command == "hint":
        if match_id is None:
            raise TableError(_("The game has not started."))
        return fragment.render_hint(hints.hint_for(match_id=match_id, user=user).text)  # RULING P65
    else:
        raise TableError(_("Unknown command."))
    return None


REMATCH_COMMANDS = {"rematch", "rematch_decline"}


def _rematch(command: str, *, table_id: int, user: User) -> None:
    """RULING P70, at the finished table: accept (the first opens the rematch) or decline."""
    if command == "rematch":
        rematch.rematch_accept(table_id=table_id, user=user)
    else:
        rematch.rematch_decline(table_id=table_id, user=user)
