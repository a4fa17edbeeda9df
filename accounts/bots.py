"""The bot accounts. Bots are users so that they sit, rank and are rated like anyone (RULING P1)."""

from __future__ import annotations

BOT_NAMES = ["Ada", "Boris", "Cleo", "Dmitri", "Elsa", "Farid", "Greta", "Hugo", "Ines"]


def bot_username(name: str) -> str:
    return f"bot-{name.lower()}"


def ensure_bot_accounts():
    """The bot users, created if missing (a flushed test database has none)."""
    from accounts.models import User

    bots = []
    for name in BOT_NAMES:
        bot, _ = User.objects.get_or_create(
            username=bot_username(name), defaults={"display_name": f"{name} (bot)", "is_bot": True, "password": "!"}
        )
        bots.append(bot)
    return bots
