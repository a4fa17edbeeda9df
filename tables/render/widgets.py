"""The one-click WebSocket forms of the live fragment (globals of its Jinja2 environment)."""

from __future__ import annotations

from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from accounts.bots import BOT_LEVEL_NAMES, BOT_LEVELS, DEFAULT_BOT_LEVEL

# Drawn in a live render: the render's catalogue (core/i18n.py), not Django's per call.
from core.i18n import gettext as _
from core.i18n import text
from games.templatetags.card_tags import escape_text


@pass_context
def ws_button(
    context: Context, label: str, css: str = "", disabled: bool = False, title: str = "", **fields: object
) -> Markup:
    """A form that sends its hidden fields over the table's socket (htmx ws-send) on click.

    A move is disabled while a dismissal vote is open (RULING S12 pauses play): the page offers
    only what the server will take (issue 53)."""
    vote = context.get("vote")
    if fields.get("command") == "act" and vote and vote.get("open"):
        disabled = True
    hidden = "".join(
        f'<input type="hidden" name="{escape_text(name)}" value="{escape_text(value)}">'
        for name, value in fields.items()
    )
    return Markup(
        f'<form ws-send class="ws-form">{hidden}<button type="submit" class="{escape_text(css)}" '
        f'{"disabled" if disabled else ""} title="{escape_text(title)}">{escape_text(label)}</button></form>'
    )


def bot_level_name(level: str) -> str:
    """RULING P45's levels, as the viewer's language names them."""
    return text(BOT_LEVEL_NAMES.get(level, level))


def bot_add_form(position: int) -> Markup:
    """The host's "Add bot" control for an empty seat: the level to add, normal preselected (RULING P45)."""
    label = _("Bot level for seat %(number)s") % {"number": int(position) + 1}
    add = _("Add bot")  # outside the f-string, where makemessages finds it (issue 53)

    choices = "".join(
        f'<option value="{level}"{" selected" if level == DEFAULT_BOT_LEVEL else ""}>'
        f"{escape(bot_level_name(level))}</option>"
        for level in BOT_LEVELS
    )
    return Markup(
        f'<form ws-send class="ws-form bot-add"><input type="hidden" name="command" value="bot_add">'
        f'<input type="hidden" name="position" value="{int(position)}">'
        # A stable id: the page keeps a level chosen but not yet added across pushes (issue 37).
        f'<select name="level" id="bot-level-{int(position)}" class="small" aria-label="{escape(label)}">'
        f"{choices}</select>"
        f'<button type="submit" class="small secondary">{escape(add)}</button></form>'
    )
