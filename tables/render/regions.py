"""Send a socket only the parts of its view that changed since its last push.

Every push used to be the viewer's whole fragment (``#live``, ~16 KB) and the browser laid all of
it out again. A view is a tree of elements with ids (the seats, the trick, the hand and its
controls, the score line...). Comparing the fragment this socket was last sent with the new one,
region by region, finds the smallest id'd elements that changed; only those are sent, each as an
out-of-band swap that htmx's ws extension places by id. ``#live``'s own attributes (the version,
whose turn it is, the server's time) travel in ``#live-meta``, which static/js/table.js copies
onto ``#live`` before anything reads them.

The whole view is still sent on connect and reconnect (a new socket has sent nothing), on a
version gap, when the view's outline changed (a region appeared or went), and when the changes
are most of the view anyway. What a socket is sent is always part of its own viewer's render,
so nothing reaches it that its full view would not show.

The fragments are our own templates' output, so a small scanner of tags is enough (no parser):
attribute values are quoted and text is escaped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

ROOT_ID = "live"
META_ID = "live-meta"
# Past this share of the whole view, the whole view is sent: fewer swaps, and the same bytes.
MOSTLY_CHANGED = 0.85

_TAG = re.compile(r"""<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']+|"[^"]*"|'[^']*')*)>""")
_ID = re.compile(r'\sid="([^"]+)"')
_VOID = frozenset(
    ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]
)


@dataclass(frozen=True)
class Region:
    """An element with an id: where it is in its fragment and the id'd elements right inside it."""

    start: int
    end: int
    head_end: int  # the end of its start tag
    children: tuple[str, ...]


# Every socket's last push is scanned when it was new and compared when the next comes: with a
# hundred tables in play that is a thousand views in a few seconds (each key a ~12 KB view).
@lru_cache(maxsize=2048)
def scan(html: str) -> dict[str, Region] | None:
    """Every id'd element of a fragment, by id; None for markup the scanner does not follow."""
    open_elements: list[tuple[str, str | None, int, int, list[str]]] = []  # name, id, start, head end, children
    regions: dict[str, Region] = {}
    for tag in _TAG.finditer(html):
        closing, name, attributes = tag.groups()
        if not closing:
            if name in _VOID or attributes.endswith("/"):
                continue
            found = _ID.search(attributes) if "id=" in attributes else None
            open_elements.append((name, found.group(1) if found else None, tag.start(), tag.end(), []))
            continue
        if not open_elements or open_elements[-1][0] != name:
            return None  # not well nested (or not lower case): send such a view whole
        name, element_id, start, head_end, children = open_elements.pop()
        if element_id is None:
            if open_elements:
                open_elements[-1][4].extend(children)  # its id'd children belong to the nearest id'd ancestor
            continue
        if element_id in regions:
            return None  # an id twice: a swap by id would be ambiguous
        regions[element_id] = Region(start, tag.end(), head_end, tuple(children))
        if open_elements:
            open_elements[-1][4].append(element_id)
    return None if open_elements else regions


def _outline(html: str, regions: dict[str, Region], element_id: str, *, without_head: bool = False) -> str:
    """The element's markup with its id'd children cut out (each left as its id): what must match
    for the children alone to be compared. Worked out only for elements that changed."""
    region = regions[element_id]
    at = region.head_end if without_head else region.start
    pieces = []
    for child in region.children:
        pieces += [html[at : regions[child].start], "\x00", child, "\x00"]
        at = regions[child].end
    pieces.append(html[at : region.end])
    return "".join(pieces)


def _changed(
    old_html: str, old: dict[str, Region], new_html: str, new: dict[str, Region], element_id: str
) -> list[str]:
    """The smallest id'd elements under ``element_id`` (itself included) whose markup differs."""
    before, after = old[element_id], new[element_id]
    if old_html[before.start : before.end] == new_html[after.start : after.end]:
        return []
    if _outline(old_html, old, element_id) != _outline(new_html, new, element_id):
        return [element_id]
    return [region for child in after.children for region in _changed(old_html, old, new_html, new, child)]


@lru_cache(maxsize=1024)
def changes(old_html: str, new_html: str) -> str | None:
    """What to send a socket that was last sent ``old_html`` so that it shows ``new_html``: the
    changed regions and ``#live-meta``, "" when nothing changed, None when it must be sent whole.
    Cached: every spectator of a table, and every seat that sees the same, shares the answer."""
    old, new = scan(old_html), scan(new_html)
    if not old or not new or ROOT_ID not in old or ROOT_ID not in new or _version(old_html) + 1 < _version(new_html):
        return None
    before, after = old[ROOT_ID], new[ROOT_ID]
    if _outline(old_html, old, ROOT_ID, without_head=True) != _outline(new_html, new, ROOT_ID, without_head=True):
        return None  # the outline changed: a region appeared or went
    head = new_html[after.start : after.head_end]
    regions = [
        region
        for child in after.children
        if child != META_ID
        for region in _changed(old_html, old, new_html, new, child)
    ]
    if not regions and head == old_html[before.start : before.head_end]:
        return ""
    parts = [_meta(head)] + [new_html[new[region].start : new[region].end] for region in regions]
    message = "".join(parts)
    return None if len(message) > MOSTLY_CHANGED * len(new_html) else message


_VERSION = re.compile(r'data-version="(\d+)"')


def _version(html: str) -> int:
    found = _VERSION.search(html, 0, 400)
    return int(found.group(1)) if found else 0


def _meta(head: str) -> str:
    """``#live``'s start tag as ``#live-meta``: its data attributes, and its class as data-live-class."""
    attributes = head[len("<div") : -1]
    attributes = attributes.replace(f' id="{ROOT_ID}"', f' id="{META_ID}"', 1).replace(' hx-swap-oob="true"', "", 1)
    attributes = re.sub(r'(\s)class="', r'\1data-live-class="', attributes, count=1)  # the same space before it
    return f"<div{attributes} hidden></div>"


def _scanned(html: str) -> dict[str, Region]:
    found = scan(html)
    if found is None:
        raise ValueError("not a view of tables/render/regions.py's kind")
    return found


_META = re.compile(rf'<div id="{META_ID}"[^>]*></div>')


def apply(page: str, message: str) -> str:
    """What a browser makes of ``page`` (a whole view this socket was sent) on receiving
    ``message``, as htmx's ws extension and static/js/table.js do it: a whole view replaces it;
    otherwise each element of the message replaces the element of its id and #live-meta's
    attributes become #live's. For clients that are not browsers (the tests, the benchmarks)."""
    if f'id="{ROOT_ID}"' in message[:200]:
        return message
    meta = _META.search(message)
    if meta is None:
        return page  # not a view (a flash, a hint, chat)
    body = message[: meta.start()] + message[meta.end() :]
    found = scan(body) or {}
    for element_id, region in found.items():
        if any(other.start < region.start and region.end <= other.end for other in found.values()):
            continue  # inside another element of the message: replaced with it
        where = _scanned(page)[element_id]
        page = page[: where.start] + body[region.start : region.end] + page[where.end :]
    head = meta.group(0)[: -len(" hidden></div>")]
    head = head.replace(f' id="{META_ID}"', f' id="{ROOT_ID}" hx-swap-oob="true"', 1)
    head = re.sub(r'(\s)data-live-class="', r'\1class="', head, count=1)
    root = _scanned(page)[ROOT_ID]
    return page[: root.start] + head + ">" + page[root.head_end :]
