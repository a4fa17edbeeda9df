"""Parse what a browser (htmx's ws-send: flat form fields) or a script (JSON) sends.

Both shapes become one ``Message``: a command and its arguments. A game action
is rebuilt with the engine's types (numbers for bids, tricks, estimates, rows
and SITA cards); the engine itself refuses anything not legal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from core.i18n import lazy_format
from games import catalog

COMMANDS = {
    "act",
    "resync",
    "seat_take",
    "seat_leave",
    "ready",
    "unready",
    "bot_add",
    "bot_remove",
    "start",
    "close",
    "vote_propose",
    "vote_yes",
    "vote_no",
    "sign",
}
COMMANDS |= {"back", "clock_set"}  # the turn clock (issue 19)
COMMANDS |= {"hint"}  # a practice table's hint (issue 42)
COMMANDS |= {"rematch", "rematch_decline"}  # at game over (RULING P70)
INT_FIELDS = {"bid", "tricks", "value", "row"}
ACTION_FIELDS = {"type", "bid", "card", "joker", "tricks", "trump", "value", "row"}
MAX_MESSAGE_FIELDS = 20
# ASCII digits only: str.isdigit() also accepts "²" or "¹", which int() then refuses (issue 21, F2).
# Nine digits are far beyond any version, seat, bid or card, and keep int() cheap on a 5,000-digit string.
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")
MAX_INT = 10**9


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
        raise ParseError(_("That message could not be understood."))
    command = content.get("command")
    if command not in COMMANDS:
        raise ParseError(_("Unknown command."))
    version = _optional_int(content.get("version"), "version")
    position = _optional_int(content.get("position"), "seat")
    action = None
    if command == "act":
        raw = content.get("action")
        action = raw if isinstance(raw, dict) else _action_from_fields(content, game)
    extra = {}
    if command in ("ready", "start"):  # RULING P31: the player's random value for the deal, checked by the command
        extra["entropy"] = content.get("entropy")
    if command == "clock_set":
        extra["seconds"] = _optional_int(content.get("seconds"), "turn clock")
    if command == "sign":
        # RULING S13: the Sitaratas' signature; games.services checks and cleans the text.
        extra["signature"] = content.get("signature")
    if command == "bot_add" and content.get("level"):
        # The host's pick (RULING P45); tables.services.lobby.bot_add refuses an unknown one.
        extra["level"] = content.get("level")
    return Message(command=command, action=action, version=version, position=position, extra=extra)


def _action_from_fields(fields: dict, game: str) -> dict:
    """htmx sends every value as a string; give numbers back their type. Empty fields are dropped."""
    action = {}
    for key in ACTION_FIELDS:
        value = fields.get(key)
        if value in (None, ""):
            continue
        if key in INT_FIELDS or (key == "card" and catalog.get(game).numbered_cards):
            value = _optional_int(value, key)
        action[key] = value
    return action


def _optional_int(value: object, name: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ParseError(lazy_format(_("Bad %(field)s."), field=name))
    if isinstance(value, int) and -MAX_INT < value < MAX_INT:
        return value
    if isinstance(value, str) and WHOLE_NUMBER.fullmatch(value.strip()):
        return int(value)
    raise ParseError(lazy_format(_("Bad %(field)s."), field=name))
