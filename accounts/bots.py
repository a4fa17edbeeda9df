"""The bot accounts. Bots are users so that they sit, rank and are rated like anyone (RULING P1).

Each bot level has its own accounts (RULING P45): a level is rated as its own bot, and the
level a seat played at stays with the match's players, its record and its replay.
"""

from __future__ import annotations

BOT_NAMES = ["Ada", "Boris", "Cleo", "Dmitri", "Elsa", "Farid", "Greta", "Hugo", "Ines"]
# Kept in step with games.bots.LEVELS (this module is imported by a migration, so it does not
# import the bots).
BOT_LEVELS = ("easy", "normal", "strong")
DEFAULT_BOT_LEVEL = "normal"


def bot_username(name: str, level: str = DEFAULT_BOT_LEVEL) -> str:
    # The normal bots keep the names they had before levels existed.
    suffix = "" if level == DEFAULT_BOT_LEVEL else f"-{level}"
    return f"bot-{name.lower()}{suffix}"


def bot_display_name(name: str, level: str = DEFAULT_BOT_LEVEL) -> str:
    return f"{name} (bot)" if level == DEFAULT_BOT_LEVEL else f"{name} ({level} bot)"


def ensure_bot_accounts(level: str = DEFAULT_BOT_LEVEL):
    """The bot users of ``level``, created if missing (a flushed test database has none)."""
    from accounts.models import User

    bots = []
    for name in BOT_NAMES:
        bot, _ = User.objects.get_or_create(
            username=bot_username(name, level),
            defaults={
                "display_name": bot_display_name(name, level),
                "is_bot": True,
                "bot_level": level,
                "password": "!",
            },
        )
        bots.append(bot)
    return bots
