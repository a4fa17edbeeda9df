"""Cards and the one-click WebSocket forms of the table page."""

from __future__ import annotations

from collections import OrderedDict

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


# --- blocks every viewer sees alike -----------------------------------------------------------

_SHARED_HTML: "OrderedDict[tuple, str]" = OrderedDict()
_SHARED_LIMIT = 4096


class SharedByVersionNode(template.Node):
    """Renders its block once per match version in this process and reuses the HTML.

    Only for public blocks that are the same for every viewer (score sheets): a move
    re-renders the fragment once per seat, and these are the costliest parts of it.
    """

    def __init__(self, name: str, nodelist: template.NodeList) -> None:
        self.name, self.nodelist = name, nodelist

    def render(self, context: template.Context) -> str:
        snap = context.get("snap")
        if getattr(snap, "match_id", None) is None:  # no game, or a bare context (template tests)
            return self.nodelist.render(context)
        key = (snap.match_id, snap.version, hash(snap.state), self.name)
        html = _SHARED_HTML.get(key)
        if html is None:
            html = _SHARED_HTML[key] = self.nodelist.render(context)
            if len(_SHARED_HTML) > _SHARED_LIMIT:
                _SHARED_HTML.popitem(last=False)
        return html


@register.tag
def shared_by_version(parser, token) -> SharedByVersionNode:
    """``{% shared_by_version "sheet" %}…{% endshared_by_version %}``: see SharedByVersionNode."""
    bits = token.split_contents()
    if len(bits) != 2 or bits[1][0] not in "\"'":
        raise template.TemplateSyntaxError("shared_by_version takes one quoted name")
    nodelist = parser.parse(("endshared_by_version",))
    parser.delete_first_token()
    return SharedByVersionNode(bits[1][1:-1], nodelist)
