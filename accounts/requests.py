"""Requests as the views that take them know them, for the type checker (django-stubs types
``request.user`` as a user or an anonymous one, and knows nothing of django-htmx's ``htmx``).

Only annotations use these: Django still hands every view a plain ``HttpRequest``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest

if TYPE_CHECKING:
    from django_htmx.middleware import HtmxDetails

    from accounts.models import User


class HtmxRequest(HttpRequest):
    """Any request: django-htmx's middleware sets ``htmx`` on each one."""

    htmx: HtmxDetails


class AuthenticatedRequest(HtmxRequest):
    """A request behind ``login_required`` or the admin's login: its user is signed in."""

    user: User
