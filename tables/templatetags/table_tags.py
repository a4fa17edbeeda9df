"""Cards and the one-click WebSocket forms of the table page."""

from __future__ import annotations

from functools import lru_cache

from django import template
from markupsafe import Markup, _escape_inner, escape

from games.engines.cards import RED_SUITS, SUIT_SYMBOL, is_joker, rank_of, suit_of

register = template.Library()

TRUMP_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs", "NT": "No trump", None: "No trump"}


# Cards and buttons are built with markupsafe's escape, which is in C, and f-strings: the live
# fragment draws dozens of them per seat on every move (issue 9). Markup is safe HTML to Django.
RANK_WORDS = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "10"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


@register.simple_tag
@lru_cache(maxsize=1024)
def card(code: str, size: str = "") -> Markup:
    """A standard card or joker drawn with CSS: rank and suit in the corner, a big pip.

    A card is one image to a screen reader (its name in words). A joker carries no letter in
    its corner: "J★" read as a jack (issue 20); it says JOKER down its side and shows a star.
    The suit class lets the four-colour deck of the profile colour clubs and diamonds.
    """
    size = escape(size)
    if is_joker(code):
        colour, title = ("red", "Red joker") if code == "RJ" else ("", "Black joker")
        return Markup(
            f'<span class="card joker {colour} {size}" title="{title}" role="img" aria-label="{title}">'
            f'<span class="corner">★</span><span class="joker-word">JOKER</span><span class="pip">★</span></span>'
        )
    suit, rank = suit_of(code), escape(rank_of(code))
    symbol = SUIT_SYMBOL[suit]
    colour = "red" if suit in RED_SUITS else ""
    words = f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS[suit]}"
    return Markup(
        f'<span class="card {colour} suit-{suit} {size}" title="{rank}{symbol}" role="img" aria-label="{words}">'
        f'<span class="corner">{rank}<span class="suit">{symbol}</span></span><span class="pip">{symbol}</span></span>'
    )


def cards(codes: list[str], size: str = "") -> Markup:
    """Cards side by side, as ``card`` draws them: one call from a template for a whole hand
    that is only shown (three seats of four on every move), not one per card."""
    return Markup("".join([card(code, size) for code in codes]))


@register.simple_tag
@lru_cache(maxsize=1024)
def sita_card(number: int, penalty: int, size: str = "") -> Markup:
    number, penalty, size = int(number), int(penalty), escape(size)
    plural = "" if penalty == 1 else "s"
    return Markup(
        f'<span class="card sita p{penalty} {size}" title="{number} ({penalty} point{plural})"><span class="number">'
        f'{number}</span><span class="badge">{penalty}</span><span class="pips">{"●" * penalty}</span></span>'
    )


def escape_text(value: object) -> str:
    """markupsafe's ``escape``, as text rather than a new Markup: what ``{{ value }}`` writes.

    Jinja escapes every value it writes with markupsafe's ``escape``, which wraps each result
    in a new Markup object only for the template to join them into one string; that wrapping
    was a sixth of a render (tables/live_templates.py). This escapes exactly the same (safe HTML
    as it is, anything else through markupsafe's own C escape) and returns the text, for
    output that is joined at once and never escaped again.
    """
    if type(value) is str:
        return _escape_inner(value)
    html = getattr(value, "__html__", None)
    if html is not None:
        return html()
    return _escape_inner(str(value))


@register.simple_tag
def ws_button(label: str, css: str = "", disabled: bool = False, title: str = "", **fields: object) -> Markup:
    """A form that sends its hidden fields over the table's socket (htmx ws-send) on click."""
    hidden = "".join(
        f'<input type="hidden" name="{escape_text(name)}" value="{escape_text(value)}">' for name, value in fields.items()
    )
    return Markup(
        f'<form ws-send class="ws-form">{hidden}<button type="submit" class="{escape_text(css)}" '
        f'{"disabled" if disabled else ""} title="{escape_text(title)}">{escape_text(label)}</button></form>'
    )


@register.simple_tag
def bot_add_form(position: int) -> Markup:
    """The host's "Add bot" control for an empty seat: the level to add, normal preselected (RULING P45)."""
    from games.bots import DEFAULT_LEVEL, LEVELS

    choices = "".join(
        f'<option value="{level}"{" selected" if level == DEFAULT_LEVEL else ""}>{level.capitalize()}</option>'
        for level in LEVELS
    )
    return Markup(
        f'<form ws-send class="ws-form bot-add"><input type="hidden" name="command" value="bot_add">'
        f'<input type="hidden" name="position" value="{int(position)}">'
        f'<select name="level" class="small" aria-label="Bot level for seat {int(position) + 1}">{choices}</select>'
        f'<button type="submit" class="small secondary">Add bot</button></form>'
    )


@register.simple_tag
def options_label(game: str, options: dict, stake: int = 0) -> str:
    """A table's options in words, as the lobby, the table and the history show them."""
    if game == "sitaratas":
        deck = "With jokers" if options.get("deck") == "jokers" else "Classic deck"
        order = "max → 1 → max" if options.get("order") == "down_up" else "1 → max → 1"
        return f"{deck} · {order}"
    if game == "estimation":
        label = str(options.get("length", "")).capitalize()
        return f"{label} · stake {stake:,} coin{'' if stake == 1 else 's'}" if stake else label
    if game == "sita":
        matches = options.get("matches")
        return f"{matches} match{'' if matches == 1 else 'es'}"
    return ""


@register.filter
def at(sequence, index):
    """``names|at:seat`` — item of a list by a variable index."""
    try:
        return sequence[index]
    except (IndexError, KeyError, TypeError):
        return ""


@register.filter
def trump_symbol(trump: str | None) -> str:
    if trump in SUIT_SYMBOL:
        return SUIT_SYMBOL[trump]
    return "NT" if trump == "NT" else "—"


@register.filter
def trump_name(trump: str | None) -> str:
    return TRUMP_NAMES.get(trump, str(trump))


@register.filter
def is_red(trump: str | None) -> bool:
    return trump in RED_SUITS


@register.filter
def signed(value: int | None) -> str:
    if value is None:
        return ""
    return f"+{value}" if value > 0 else str(value)
