"""The Jinja2 environment of the live table fragment (``templates/jinja2/``).

The fragment is rendered once per seat on every move, so it is the hottest
template of the site: Jinja2 compiles it to Python and renders it several times
faster than the Django template language (issue 9). The rest of the site keeps
Django templates. ``ChainableUndefined`` keeps the Django habit that a missing
value renders as nothing, however deep the lookup.
"""

from __future__ import annotations

from functools import lru_cache

from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils import translation
from jinja2 import ChainableUndefined, Environment, Template, nodes, pass_context
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

from accounts.names import player_name_html
from games.display.endings import ending_text
from games.templatetags.card_tags import (
    at,
    card,
    card_html,
    cards,
    escape_text,
    number,
    options_label,
    signed,
    sita_card,
    sita_card_html,
)
from tables.caching import BoundedCache
from tables.render.play_screen import last_play, tricks_done
from tables.render.widgets import bot_add_form, bot_level_name, ws_button

# The blocks shared by every viewer, per version or per round (below).
SHARED_BLOCKS: BoundedCache[Markup] = BoundedCache(4096)


def shared_by_version(snap, name: str, caller, language: str | None = None) -> Markup:
    """``{% call shared_by_version(snap, "sheet") %}…{% endcall %}``: a public block rendered
    once per match version in this process and reused for every viewer.

    Only for blocks that are the same for every viewer (score sheets, public panels): a move
    renders the fragment once per seat, and these are the largest parts of it. A block that
    differs for some viewers puts what differs in its name, so each variant is its own entry.
    """
    if getattr(snap, "match_id", None) is None:  # no game, or a bare context (template tests)
        return Markup(caller())
    # The state's hash guards against ids that a test database reuses after a flush.
    return _shared(
        (snap.match_id, snap.version, hash(snap.state), name, language or translation.get_language()), caller
    )


def shared_by_round(snap, name: str, rounds: int, caller, language: str | None = None) -> Markup:
    """``{% call shared_by_round(snap, "sheet", rounds) %}``: like ``shared_by_version``, for a
    block that changes only when a round ends (a score sheet), so it is rendered once per round
    and not once per move. Late in a game the sheet was most of what a move rendered.

    The match's seed, random per match, keeps one match's block from another's under a reused
    id; the seat names are in the key, so a name changed in the middle of a round shows at once.
    A snapshot without a seed (a bare one in a test) shares per version instead.
    """
    if getattr(snap, "seed", None) is None:
        return shared_by_version(snap, name, caller, language)
    return _shared(
        (
            snap.match_id,
            snap.seed,
            name,
            rounds,
            tuple(seat.name for seat in snap.seats),
            language or translation.get_language(),
        ),
        caller,
    )


def _shared(key: tuple, caller) -> Markup:
    html = SHARED_BLOCKS.get(key)
    if html is None:
        html = SHARED_BLOCKS.put(key, Markup(caller()))
    return html


class LiveTemplate(Template):
    @classmethod
    def _from_namespace(cls, environment, namespace, globals):
        # The compiled template's module imports ``escape`` for its output statements.
        namespace["escape"] = escape_text
        return super()._from_namespace(environment, namespace, globals)


class _FoldTranslations(NodeTransformer):
    """``_("text")`` becomes the translated text when a template compiles (issue 26): the
    fragment is compiled once per language, so a translated word costs nothing per render
    (Jinja writes a constant as part of the template's text). A call with arguments keeps only
    the %-formatting for the render; ``ngettext`` and ``pgettext`` stay calls."""

    def __init__(self, catalogue) -> None:
        self.catalogue = catalogue

    def visit_Call(self, node: nodes.Call) -> nodes.Node:
        node = self.generic_visit(node)  # type: ignore[assignment]  # a visitor keeps a Call a Call
        if (
            isinstance(node.node, nodes.Name)
            and node.node.name in ("_", "gettext")
            and len(node.args) == 1
            and isinstance(node.args[0], nodes.Const)
            and isinstance(node.args[0].value, str)
            and node.dyn_args is None
            and node.dyn_kwargs is None
        ):
            text = nodes.Const(self.catalogue.gettext(node.args[0].value), lineno=node.lineno)
            if not node.kwargs:
                return nodes.MarkSafe(text, lineno=node.lineno)
            return nodes.Call(
                nodes.Name("_format", "load", lineno=node.lineno), [text], node.kwargs, None, None, lineno=node.lineno
            )
        return node


def _format(text: str, **variables) -> Markup:
    # What ``Markup(text) % variables`` gives, for the ``%(name)s`` placeholders the templates use,
    # without markupsafe wrapping each value in a helper object: a render formats a few of these.
    return Markup(
        text % {name: value if type(value) is int else escape_text(value) for name, value in variables.items()}
    )


class LiveEnvironment(Environment):
    template_class = LiveTemplate
    language: str | None = None  # set on each language's overlay (``for_language``)

    def _parse(self, source, name, filename):
        tree = super()._parse(source, name, filename)
        if self.language is not None:
            _FoldTranslations(translation.trans_real.translation(self.language)).visit(tree)
        return tree

    def make_globals(self, d):
        # Jinja layers a template's globals over the environment's in a ChainMap, and copies it
        # into every render's and every include's context: a Python-level walk of both maps each
        # time. Ours are all set before the first template loads, so one flat dict serves.
        return {**self.globals, **(d or {})}

    def getattr(self, obj, attribute):
        # The presenters hand the template plain dicts. Jinja tries an attribute first and a key
        # only after an AttributeError; raising that on every lookup cost a third of a render.
        # Keys first, as the Django template language does.
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


_TEXTS_LIMIT = 4096


@lru_cache(maxsize=16)
def gettexts(language: str | None) -> dict:
    """The template's ``_``, ``gettext``, ``ngettext``, ``pgettext`` and cards bound to one language's
    catalogue (issue 26), as Jinja's "newstyle" gettext behaves: the result is safe text when
    autoescaping and is formatted with the keyword arguments (``num`` is the count).

    A render puts these in its context (tables/render/fragment.py): Django's own ``gettext`` looks the
    active language up on every call, and a fragment holds dozens of strings. Each text is
    looked up once per language and kept as safe text, so a string without arguments costs a
    dict lookup: the fragment is rendered once per seat on every move (issue 9). Unlike Jinja's
    own, a text without arguments is not %-formatted, so it must not hold a ``%%``.
    """
    catalogue = translation.trans_real.translation(language or "en")  # type: ignore[attr-defined]  # not in the stubs
    texts: dict[str, Markup] = {}

    def looked_up(message: str) -> Markup:
        if len(texts) >= _TEXTS_LIMIT:  # bounded; the templates hold a few hundred texts
            texts.clear()
        text = texts[message] = Markup(catalogue.gettext(message))
        return text

    def gettext(message: str, **variables) -> str:
        text = texts.get(message) or looked_up(message)
        return text % variables if variables else text

    @pass_context
    def ngettext(context, singular: str, plural: str, num: int, **variables) -> str:
        variables.setdefault("num", num)
        text = catalogue.ngettext(singular, plural, num)
        return (Markup(text) if context.eval_ctx.autoescape else text) % variables

    @pass_context
    def pgettext(context, where: str, message: str, **variables) -> str:
        text = catalogue.pgettext(where, message)
        return (Markup(text) if context.eval_ctx.autoescape else text) % variables

    # The cards too, drawn in this language without asking for the active one per card.
    def bound_card(code: str, size: str = "") -> Markup:
        return card_html(code, size, language)

    def bound_cards(codes: list[str], size: str = "") -> Markup:
        return Markup("".join([card_html(code, size, language) for code in codes]))

    def bound_sita_card(number: int, penalty: int, size: str = "") -> Markup:
        return sita_card_html(int(number), int(penalty), size, language)

    # And the shared blocks, one entry per language, without asking for the active one per block.
    def bound_by_version(snap, name: str, caller) -> Markup:
        return shared_by_version(snap, name, caller, language)

    def bound_by_round(snap, name: str, rounds: int, caller) -> Markup:
        return shared_by_round(snap, name, rounds, caller, language)

    return {
        "_": gettext,
        "gettext": gettext,
        "ngettext": ngettext,
        "pgettext": pgettext,
        "card": bound_card,
        "cards": bound_cards,
        "sita_card": bound_sita_card,
        "shared_by_version": bound_by_version,
        "shared_by_round": bound_by_round,
    }


_LANGUAGE_ENVIRONMENTS: dict[str, tuple[Environment, Environment]] = {}


def for_language(env: Environment, language: str | None) -> Environment:
    """The environment whose templates are compiled in ``language`` (an overlay of ``env``)."""
    language = language or "en"
    found = _LANGUAGE_ENVIRONMENTS.get(language)
    if found is None or found[0] is not env:
        # A cache of its own (not a copy of env's): its templates are compiled in this language.
        overlay = env.overlay(cache_size=400)
        overlay.language = language  # type: ignore[attr-defined]  # read by the i18n extension's callables
        found = _LANGUAGE_ENVIRONMENTS[language] = (env, overlay)
    return found[1]


def environment(**options) -> Environment:
    options["undefined"] = ChainableUndefined  # Django's backend would pass Undefined
    options.setdefault("extensions", []).append("jinja2.ext.i18n")
    env = LiveEnvironment(**options)
    # The active language's, for a render that did not bring its own (tables/render/fragment.py brings them).
    env.install_gettext_callables(  # type: ignore[attr-defined]  # added by jinja2.ext.i18n
        translation.gettext, translation.ngettext, newstyle=True, pgettext=translation.pgettext
    )
    env.globals.update(
        {
            "card": card,
            "cards": cards,
            "sita_card": sita_card,
            "ws_button": ws_button,
            "options_label": options_label,
            "bot_add_form": bot_add_form,
            "bot_level_name": bot_level_name,
            "shared_by_version": shared_by_version,
            "shared_by_round": shared_by_round,
            "url": reverse,
            "tricks_done": tricks_done,
            "last_play": last_play,
            "_format": _format,
        }
    )
    env.filters.update(
        {
            "at": at,
            "signed": signed,
            "pluralize": pluralize,
            "number": number,
            "ending": ending_text,
            "player_name": player_name_html,  # RULING P54: every name in <bdi>, as the Django pages do
        }
    )
    return env
