"""Sections that apps above tables add to the lobby, such as the upcoming tournaments.

An app registers a function from its ``ready()``; the lobby renders what each returns for the
request and shows nothing at all for an empty answer, so a slot with nothing to say leaves no trace.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest
from django.utils.safestring import SafeString, mark_safe

Slot = Callable[[HttpRequest], str]
SLOTS: list[Slot] = []


def register(slot: Slot) -> Slot:
    if slot not in SLOTS:
        SLOTS.append(slot)
    return slot


def rendered(request: HttpRequest) -> list[SafeString]:
    # A slot is the site's own code rendering its own template (escaped there), never a user's text.
    return [mark_safe(html) for html in (slot(request) for slot in SLOTS) if html and html.strip()]
