"""The site's rules, terms and privacy pages, rendered from the Markdown in ``docs/`` (RULING P20).

One source: the files a developer reads in the repository are the pages a player reads on
the site. Card codes in double brackets (``[[QH]]``, ``[[RJ]]``, ``[[57]]``, with or without
backticks around them) become the card HTML the table draws, so a rules page shows the same
cards as play. A ruling's heading (``### S4 — Bids``) gets the id ``s4``, so a page can link to
``/rules/sitaratas/#s4``. Links between the documents point at their pages.

Rendering is cached per process and per file modification time: a page costs one Markdown
pass after each change of its file, not one per request.

Each document exists per language (issue 26): English is the source (``docs/rules/sita.md``,
``docs/terms.md``); a translation sits beside it under the language's code
(``docs/rules/et/sita.md``, ``docs/ar/terms.md``) with the same ruling headings and ids. A
page is read in the reader's language and falls back to English where no translation exists.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from games import catalog
from games.engines.cards import JOKERS, RANKS, SUITS
from games.engines.sita import penalty
from tables.templatetags.table_tags import card, sita_card

RULE_GAMES = catalog.titles()  # each game's rules are docs/rules/<game>.md
RULING_HEADING = re.compile(r"^### ([A-Z]\d+) — (.+)$", re.MULTILINE)
_CARD = re.compile(r"`?\[\[([A-Z0-9]{1,3})\]\]`?")
_RULING_ID = re.compile(r"^([A-Z]\d+) — ")
_DOC_LINK = re.compile(r'href="([a-z]+)\.md(#[^"]*)?"')


@dataclass(frozen=True)
class Page:
    title: str
    html: SafeString
    source: str  # the file's path in the repository, shown on the page


def docs_dir() -> Path:
    return Path(settings.BASE_DIR) / "docs"


def rules_page(game: str) -> Page:
    return _page(_localised("rules", f"{game}.md"))


def document(name: str) -> Page:
    """``terms``, ``privacy`` or any other top-level document under ``docs/``."""
    return _page(_localised("", f"{name}.md"))


def _localised(folder: str, name: str) -> str:
    """The document in the active language where it is translated, else the English source."""
    language = (translation.get_language() or "").split("-")[0]
    english = f"{folder}/{name}" if folder else name
    if language and language != "en":
        relative = f"{folder}/{language}/{name}" if folder else f"{language}/{name}"
        if (docs_dir() / relative).is_file():
            return relative
    return english


def ruling_ids() -> set[str]:
    """Every ruling id that has a heading in ``docs/rules/`` (S1, E10, P6, …): the English
    documents only, not their translations in the language folders."""
    ids: set[str] = set()
    for path in (docs_dir() / "rules").glob("*.md"):
        ids.update(ruling for ruling, _ in RULING_HEADING.findall(path.read_text(encoding="utf-8")))
    return ids


def _page(relative: str) -> Page:
    path = docs_dir() / relative
    return _render(str(path), path.stat().st_mtime_ns, relative)


@lru_cache(maxsize=32)
def _render(path: str, mtime_ns: int, relative: str) -> Page:
    text = Path(path).read_text(encoding="utf-8")
    title_line, _, body = text.partition("\n")
    title = title_line.lstrip("# ").strip()
    body = _CARD.sub(lambda found: _card_html(found.group(1)), body)
    html = markdown.markdown(
        body,
        extensions=["tables", "toc", "sane_lists"],
        extension_configs={"toc": {"slugify": _slug}},
        output_format="html",
    )
    html = _DOC_LINK.sub(lambda found: f'href="{_doc_url(found.group(1))}{found.group(2) or ""}"', html)
    return Page(title=title, html=mark_safe(html), source=f"docs/{relative}")


def _card_html(code: str) -> str:
    """The table's own card HTML; an unknown code is left as written, so a typo shows."""
    if code.isdigit():
        number = int(code)
        return str(sita_card(number, penalty(number), "small")) if 1 <= number <= 104 else f"[[{code}]]"
    if code in JOKERS or (code[-1:] in SUITS and code[:-1] in RANKS):
        return str(card(code, "small"))
    return f"[[{code}]]"


def _slug(value: str, separator: str) -> str:
    found = _RULING_ID.match(value)
    if found:
        return found.group(1).lower()
    return re.sub(r"[^a-z0-9]+", separator, value.lower()).strip(separator)


def _doc_url(name: str) -> str:
    if name in RULE_GAMES:
        return reverse("rules", args=[name])
    if name == "platform":
        return reverse("terms")
    return reverse(name) if name in ("privacy", "terms") else f"{name}.md"
