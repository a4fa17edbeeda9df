"""The bot accounts. Bots are users so that they sit, rank and are rated like anyone (RULING P1)."""

from __future__ import annotations

BOT_NAMES = ["Ada", "Boris", "Cleo", "Dmitri", "Elsa", "Farid", "Greta", "Hugo", "Ines"]


def bot_username(name: str) -> str:
    return f"bot-{name.lower()}"
