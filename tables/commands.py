"""Route a parsed message to its service (sync; the consumer runs it off the event loop)."""

from __future__ import annotations

from accounts.models import User
from tables import services, votes
from tables.actions import Message
from tables.connections import retry_on_dead_connection
from tables.errors import TableError


@retry_on_dead_connection
def run_command(message: Message, *, table_id: int, match_id: int | None, user: User) -> None:
    command = message.command
    if command == "act":
        if match_id is None:
            raise TableError("The game has not started.")
        services.match_act(match_id=match_id, user=user, action=message.action, version=message.version)
    elif command == "seat_take":
        services.seat_take(table_id=table_id, user=user, position=message.position)
    elif command == "seat_leave":
        services.seat_leave(table_id=table_id, user=user)
    elif command in ("ready", "unready"):
        services.seat_ready(table_id=table_id, user=user, ready=command == "ready")
    elif command == "bot_add":
        services.bot_add(table_id=table_id, host=user, position=message.position,
                         level=message.extra.get("level") or "normal")
    elif command == "bot_remove":
        services.bot_remove(table_id=table_id, host=user, position=message.position)
    elif command == "start":
        services.table_start(table_id=table_id, host=user)
    elif command == "close":
        services.table_close(table_id=table_id, by=user)
    elif command in ("vote_propose", "vote_yes", "vote_no"):
        if match_id is None:
            raise TableError("The game has not started.")
        if command == "vote_propose":
            votes.vote_propose(match_id=match_id, user=user)
        else:
            votes.vote_cast(match_id=match_id, user=user, yes=command == "vote_yes")
    else:
        raise TableError("Unknown command.")
