"""Cards and the one-click WebSocket forms of the table page."""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.engines.cards import RED_SUITS, SUIT_SYMBOL, is_joker, rank_of, suit_of

register = template.Library()

TRUMP_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs", "NT": "No trump", None: "No trump"}


@register.simple_tag
def card(code: str, size: str = "", extra: str = "") -> SafeString:
    """A standard card or joker drawn with CSS: rank and suit in the corner, a big pip."""
    if is_joker(code):
        colour = "red" if code == "RJ" else ""
        return format_html(
            '<span class="card joker {} {}" title="{}"><span class="corner">J<span class="suit">★</span></span>'
            '<span class="pip">🃏</span>{}</span>',
            colour, size, "Red joker" if code == "RJ" else "Black joker", mark_safe(extra),
        )
    suit = suit_of(code)
    symbol = SUIT_SYMBOL[suit]
    colour = "red" if suit in RED_SUITS else ""
    return format_html(
        '<span class="card {} {}" title="{}{}"><span class="corner">{}<span class="suit">{}</span></span>'
        '<span class="pip">{}</span>{}</span>',
        colour, size, rank_of(code), symbol, rank_of(code), symbol, symbol, mark_safe(extra),
    )


@register.simple_tag
def sita_card(number: int, penalty: int, size: str = "") -> SafeString:
    return format_html(
        '<span class="card sita p{} {}" title="{} ({} point{})"><span class="number">{}</span>'
        '<span class="badge">{}</span><span class="pips">{}</span></span>',
        penalty, size, number, penalty, "" if penalty == 1 else "s", number, penalty, "●" * penalty,
    )


@register.simple_tag
def ws_button(label: str, css: str = "", disabled: bool = False, title: str = "", **fields: object) -> SafeString:
    """A form that sends its hidden fields over the table's socket (htmx ws-send) on click."""
    hidden = format_html_join("", '<input type="hidden" name="{}" value="{}">', ((k, v) for k, v in fields.items()))
    return format_html(
        '<form ws-send class="ws-form">{}<button type="submit" class="{}" {} title="{}">{}</button></form>',
        hidden, css, "disabled" if disabled else "", title, label,
    )


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
