"""Cards, trumps and table options in words: drawn the same by the live table, the history pages
and the rules pages (which load this library), and by the live fragment's Jinja2 environment."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy
from markupsafe import Markup, _escape_inner, escape

# Inside a live render these read the render's catalogue (core/i18n.py): the fragment is drawn
# per seat on every move. Elsewhere they are Django's own.
from core.i18n import gettext as _
from core.i18n import language as get_language
from core.i18n import ngettext, text
from games import catalog
from games.display import ratings
from games.display.endings import ending_text
from games.display.figures import figure
from games.engines.cards import RED_SUITS, SUIT_SYMBOL, is_joker, rank_of, suit_of

register = template.Library()

# The suits' names, for every page that names a trump (history, and the live presenters).
SUIT_NAMES = {
    "S": gettext_lazy("Spades"),
    "H": gettext_lazy("Hearts"),
    "D": gettext_lazy("Diamonds"),
    "C": gettext_lazy("Clubs"),
}
TRUMP_NAMES: dict[str | None, object] = {"NT": gettext_lazy("No trump"), None: gettext_lazy("No trump")}
TRUMP_NAMES.update(SUIT_NAMES)


# Cards and buttons are built with markupsafe's escape, which is in C, and f-strings: the live
# fragment draws dozens of them per seat on every move (issue 9). Markup is safe HTML to Django.
RANK_WORDS = {
    "A": gettext_lazy("Ace"),
    "K": gettext_lazy("King"),
    "Q": gettext_lazy("Queen"),
    "J": gettext_lazy("Jack"),
}
# A card's name is one sentence per suit (issue 26): some languages inflect the suit with the rank.
CARD_WORDS = {
    "S": gettext_lazy("%(rank)s of spades"),
    "H": gettext_lazy("%(rank)s of hearts"),
    "D": gettext_lazy("%(rank)s of diamonds"),
    "C": gettext_lazy("%(rank)s of clubs"),
}


@register.simple_tag
def card(code: str, size: str = "") -> Markup:
    return card_html(code, size, get_language())


@lru_cache(maxsize=4096)
def card_html(code: str, size: str, language: str | None) -> Markup:
    """A standard card or joker drawn with CSS: rank and suit in the corner, a big pip.

    A card is one image to a screen reader (its name in words). A joker carries no letter in
    its corner: "J★" read as a jack (issue 20); it says JOKER down its side and shows a star.
    The suit class lets the four-colour deck of the profile colour clubs and diamonds.
    """
    size = escape(size)
    if is_joker(code):
        colour, title = ("red", _("Red joker")) if code == "RJ" else ("", _("Black joker"))
        return Markup(
            f'<span class="card joker {colour} {size}" title="{title}" role="img" aria-label="{title}">'
            f'<span class="corner">★</span><span class="joker-word">JOKER</span><span class="pip">★</span></span>'
        )
    suit, rank = suit_of(code), escape(rank_of(code))
    symbol = SUIT_SYMBOL[suit]
    colour = "red" if suit in RED_SUITS else ""
    words = CARD_WORDS[suit] % {"rank": RANK_WORDS.get(rank, "10" if rank == "T" else rank)}
    return Markup(
        f'<span class="card {colour} suit-{suit} {size}" title="{rank}{symbol}" role="img" aria-label="{words}">'
        f'<span class="corner">{rank}<span class="suit">{symbol}</span></span><span class="pip">{symbol}</span></span>'
    )


def cards(codes: list[str], size: str = "") -> Markup:
    """Cards side by side, as ``card`` draws them: one call from a template for a whole hand
    that is only shown (three seats of four on every move), not one per card."""
    return Markup("".join([card(code, size) for code in codes]))


@register.simple_tag
def sita_card(number: int, penalty: int, size: str = "") -> Markup:
    return sita_card_html(int(number), int(penalty), size, get_language())


@lru_cache(maxsize=4096)
def sita_card_html(number: int, penalty: int, size: str, language: str | None) -> Markup:
    size = escape(size)
    points = escape(ngettext("%(num)s point", "%(num)s points", penalty) % {"num": penalty})
    return Markup(
        f'<span class="card sita p{penalty} {size}" title="{number} ({points})"><span class="number">'
        f'{number}</span><span class="badge">{penalty}</span><span class="pips">{"●" * penalty}</span></span>'
    )


def escape_text(value: object) -> str:
    """markupsafe's ``escape``, as text rather than a new Markup: what ``{{ value }}`` writes.

    Jinja escapes every value it writes with markupsafe's ``escape``, which wraps each result
    in a new Markup object only for the template to join them into one string; that wrapping
    was a sixth of a render (tables/render/templates.py). This escapes exactly the same (safe HTML
    as it is, anything else through markupsafe's own C escape) and returns the text, for
    output that is joined at once and never escaped again.
    """
    if type(value) is str:
        return _escape_inner(value)
    html = getattr(value, "__html__", None)
    if html is not None:
        return html()
    if type(value) is int:
        return str(value)
    if isinstance(value, Promise):  # a lazy text: once per language in a live render
        return _escape_inner(text(value))
    return _escape_inner(str(value))


@register.simple_tag
def options_label(game: str, options: dict, stake: int = 0) -> str:
    """A table's options in words, as the lobby, the table and the history show them."""
    words = catalog.options_summary(game, options)
    if stake:
        words.append(
            ngettext("stake %(num)s coin", "stake %(num)s coins", stake)
            % {"num": number_format(stake, force_grouping=True)}
        )
    return " · ".join(word for word in words if word)


@register.filter
def at(sequence, index):
    """``names|at:seat`` — item of a list by a variable index."""
    try:
        return sequence[index]
    except (IndexError, KeyError, TypeError):
        return ""


@register.filter
def number(value) -> str:
    """Coins, points, totals and ratings as the reader's language writes them (``figure``); a
    fraction with one decimal. Below 1000 a whole number is its digits, the cheap path the live
    fragment takes for nearly every figure."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "" if value is None else str(value)
    if isinstance(value, float):
        return figure(value, decimals=1)
    return str(value) if 0 <= value < 1000 else figure(value)


@register.filter
def rating(ordinal: float | None) -> str:
    """``rating.ordinal|rating``: the stored estimate on the players' scale (games.display.ratings)."""
    return "" if ordinal is None else figure(ratings.shown(ordinal))


@register.filter
def provisional(games: int) -> bool:
    """``rating.games|provisional``: too few games for the rating to be sure yet."""
    return ratings.provisional(int(games or 0))


@register.filter
def ending(stored: str) -> str:
    """``match.end_reason|ending``: why a game ended, in the reader's language (games.display.endings)."""
    return ending_text(stored)


@register.filter
def trump_symbol(trump: str | None) -> str:
    if trump in SUIT_SYMBOL:
        return SUIT_SYMBOL[trump]
    return "NT" if trump == "NT" else "—"


@register.filter
def trump_name(trump: str | None) -> str:
    return str(TRUMP_NAMES.get(trump, trump))


@register.filter
def is_red(trump: str | None) -> bool:
    return trump in RED_SUITS


@register.filter
def signed(value: int | float | None) -> str:
    """A change, with its sign: "+3", "−2", "0" (``figure``); a fraction with one decimal."""
    if value is None:
        return ""
    return figure(value, decimals=1 if isinstance(value, float) else None, plus=True)
