"""Parse what a browser (htmx's ws-send: flat form fields) or a script (JSON) sends.

Both shapes become one ``Message``: a command and its arguments. A game action
is rebuilt with the engine's types (numbers for bids, tricks, estimates, rows
and SITA cards); the engine itself refuses anything not legal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

COMMANDS = {
    "act", "resync", "seat_take", "seat_leave", "ready", "unready", "bot_add", "bot_remove", "start", "close",
    "vote_propose", "vote_yes", "vote_no",
}
INT_FIELDS = {"bid", "tricks", "value", "row"}
ACTION_FIELDS = {"type", "bid", "card", "joker", "tricks", "trump", "value", "row"}
MAX_MESSAGE_FIELDS = 20


class ParseError(ValueError):
    pass


@dataclass(frozen=True)
class Message:
    command: str
    action: dict | None = None
    version: int | None = None
    position: int | None = None
    extra: dict = field(default_factory=dict)


def parse_message(content: object, *, game: str) -> Message:
    if not isinstance(content, dict) or len(content) > MAX_MESSAGE_FIELDS:
        raise ParseError("That message could not be understood.")
    command = content.get("command")
    if command not in COMMANDS:
        raise ParseError("Unknown command.")
    version = _optional_int(content.get("version"), "version")
    position = _optional_int(content.get("position"), "seat")
    action = None
    if command == "act":
        raw = content.get("action")
        action = raw if isinstance(raw, dict) else _action_from_fields(content, game)
    # The bot level the host picked (RULING P45); services.bot_add refuses an unknown one.
    extra = {"level": content.get("level")} if command == "bot_add" and content.get("level") else {}
    return Message(command=command, action=action, version=version, position=position, extra=extra)


def _action_from_fields(fields: dict, game: str) -> dict:
    """htmx sends every value as a string; give numbers back their type. Empty fields are dropped."""
    action = {}
    for key in ACTION_FIELDS:
        value = fields.get(key)
        if value in (None, ""):
            continue
        if key in INT_FIELDS or (key == "card" and game == "sita"):
            value = _optional_int(value, key)
        action[key] = value
    return action


def _optional_int(value: object, name: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ParseError(f"Bad {name}.")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    raise ParseError(f"Bad {name}.")
