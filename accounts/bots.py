"""The bot accounts' names and levels. Bots are users so that they sit, rank and are rated like
anyone (RULING P1); their rows are made by ``accounts.services.ensure_bot_accounts``.

Each bot level has its own accounts (RULING P45): a level is rated as its own bot, and the
level a seat played at stays with the match's players, its record and its replay.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, pgettext_lazy

BOT_NAMES = ["Ada", "Boris", "Cleo", "Dmitri", "Elsa", "Farid", "Greta", "Hugo", "Ines"]
# The levels a host chooses per bot seat (RULING P45), weakest first: defined here alone, since
# each has its own accounts. "random" (games.catalog.get_bot) is the engine tests' baseline, not
# a level.
BOT_LEVELS = ("easy", "normal", "strong")
DEFAULT_BOT_LEVEL = "normal"
# Each level as a page names it.
BOT_LEVEL_NAMES = {
    "easy": pgettext_lazy("bot level", "Easy"),
    "normal": pgettext_lazy("bot level", "Normal"),
    "strong": pgettext_lazy("bot level", "Strong"),
}


def bot_username(name: str, level: str = DEFAULT_BOT_LEVEL) -> str:
    # The normal bots keep the names they had before levels existed.
    suffix = "" if level == DEFAULT_BOT_LEVEL else f"-{level}"
    return f"bot-{name.lower()}{suffix}"


def bot_display_name(name: str, level: str = DEFAULT_BOT_LEVEL) -> str:
    return f"{name} (bot)" if level == DEFAULT_BOT_LEVEL else f"{name} ({level} bot)"


# Issue 37: a bot's name as each language writes it; the stored display name stays English.
_SPOKEN_NAMES = {
    "ada": pgettext_lazy("bot name", "Ada"),
    "boris": pgettext_lazy("bot name", "Boris"),
    "cleo": pgettext_lazy("bot name", "Cleo"),
    "dmitri": pgettext_lazy("bot name", "Dmitri"),
    "elsa": pgettext_lazy("bot name", "Elsa"),
    "farid": pgettext_lazy("bot name", "Farid"),
    "greta": pgettext_lazy("bot name", "Greta"),
    "hugo": pgettext_lazy("bot name", "Hugo"),
    "ines": pgettext_lazy("bot name", "Ines"),
}
_LABELS = {
    "easy": gettext_noop("%(name)s (easy bot)"),
    "normal": gettext_noop("%(name)s (bot)"),
    "strong": gettext_noop("%(name)s (strong bot)"),
}


def bot_base_name(username: str) -> str:
    """ "bot-ada-strong" -> "ada": the bot's own name, whatever its level."""
    return username.removeprefix("bot-").split("-")[0]


def bot_label(username: str, level: str | None) -> str | None:
    """A bot's name and level in the active language ("Ada (tugev robot)"); None for an account
    that is not one of the site's bots (an admin may have renamed one: kept as it is)."""
    from core.i18n import gettext, text

    spoken = _SPOKEN_NAMES.get(bot_base_name(username))
    level = level or DEFAULT_BOT_LEVEL
    if spoken is None or level not in _LABELS or username != bot_username(bot_base_name(username), level):
        return None
    return gettext(_LABELS[level]) % {"name": text(spoken)}
