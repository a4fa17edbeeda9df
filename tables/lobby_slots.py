"""Sections that apps above tables add to the lobby, such as the upcoming tournaments.

An app registers a function from its ``ready()``; the lobby renders what each returns for the
request and shows nothing at all for an empty answer, so a slot with nothing to say leaves no trace.
Slots show in the order of their ``place`` (lowest first), whatever the order the apps are ready in.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest
from django.utils.safestring import SafeString, mark_safe

Slot = Callable[[HttpRequest], str]
SLOTS: list[tuple[int, Slot]] = []
FRIENDS, TOURNAMENTS = 10, 20  # the places of the sections the site has


def register(slot: Slot, *, place: int) -> Slot:
    if all(known is not slot for _place, known in SLOTS):  # a second ``ready`` adds nothing
        SLOTS.append((place, slot))
        SLOTS.sort(key=lambda entry: entry[0])
    return slot


def rendered(request: HttpRequest) -> list[SafeString]:
    # A slot is the site's own code rendering its own template (escaped there), never a user's text.
    return [mark_safe(html) for html in (slot(request) for _place, slot in SLOTS) if html and html.strip()]
