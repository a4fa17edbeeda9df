"""Who sees and who writes which chat channel (RULINGS P25–P27), in one place.

The socket handler, the history the socket sends on (re)connect, the report check and the
finished game's page all ask these functions, so the rooms cannot drift apart.
"""

from __future__ import annotations

import re
import unicodedata

from django.utils.translation import gettext_lazy as _

from chat.models import Channel

MAX_LENGTH = 300
RATE_WINDOW_SECONDS = 10
RATE_MAX_MESSAGES = 5
RATE_MAX_SAME_TEXT = 2  # the message and one repeat (RULING P27)
HISTORY_LENGTH = 50
# Issue 26: shown and sent in the writer's language, as if typed. A phrase is a chat message like
# any other: everyone reads the words that were sent, and a report or a moderator quotes what was
# said. As codes shown in each reader's language, the quick phrases alone would change with the
# reader while the typed messages around them (a reply to "Bonne chance") would not.
QUICK_PHRASES = (_("Good luck"), _("Well played"), _("Good game"), _("Oops"), _("Thanks"))

_SPACES = re.compile(r"\s+")

# Table statuses, spelt out so this module needs no import of tables' models at import time.
PLAYING = "playing"
CLOSED = "closed"


def write_channel(*, is_player: bool) -> str:
    """RULING P25: players write in the players' chat, everyone else in the spectators'."""
    return Channel.PLAYERS if is_player else Channel.SPECTATORS


def visible_channels(*, is_player: bool, status: str, spectator_chat: bool = True) -> tuple[str, ...]:
    """RULING P25: during a game its players see only their own chat; spectators see both.

    Before the start and after the end the players see the spectators' chat too: nothing said
    there can help anyone play. RULING P26: while the host has spectators' chat off, nobody
    sees it.
    """
    channels = [Channel.PLAYERS]
    if spectator_chat and (not is_player or status != PLAYING):
        channels.append(Channel.SPECTATORS)
    return tuple(channels)


def clean_text(text: object) -> str:
    """RULING P27: one line, trimmed; control characters become spaces. Escaping is the
    renderer's job (text nodes in the browser, autoescape on the game's page), so the
    stored text is what was typed."""
    if not isinstance(text, str):
        return ""
    # Format characters go too (a right-to-left override can disguise a message), except the
    # zero-width joiner that emoji sequences are made of.
    text = "".join(
        " " if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") and char != "\u200d" else char for char in text
    )
    return _SPACES.sub(" ", text).strip()
