"""Odd requests refused before any view (issue 21, F7), and the headers ``check --deploy`` does not cover.

PostgreSQL refuses a NUL byte in any text value, and a number past what a bigint holds,
with an error that became a 500 (with DEBUG on, a traceback to anyone). Rather than
guard every view, a request carrying either is refused here:

- a NUL or other control character in the path, a query or a form value: 400;
- a query value over ``MAX_QUERY_VALUE`` characters, a form value over ``MAX_FORM_VALUE``
  or a URL over ``MAX_URL``: 400 (nothing on the site takes more);
- a path segment of digits too long for an id: 404, as for an id that does not exist.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse

MAX_URL = 4096
MAX_QUERY_VALUE = 1000
MAX_FORM_VALUE = 20_000
MAX_ID_DIGITS = 18  # a bigint holds 9,223,372,036,854,775,807: 19 digits, not all of them

# C0 controls but tab, newline and carriage return (a form's text area sends those), and DEL.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
LONG_NUMBER = re.compile(rf"(^|/)\d{{{MAX_ID_DIGITS + 1},}}(/|$)")

PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
    "payment=(), usb=(), interest-cohort=()"
)


class RequestSanityMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        self.check(request)
        response = self.get_response(request)
        # The browser features the site never uses, off for it and anything it embeds.
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response

    @staticmethod
    def check(request: HttpRequest) -> None:
        if len(request.get_full_path()) > MAX_URL:
            raise BadRequest("That address is too long.")
        if CONTROL.search(request.path):
            raise BadRequest("That address has a character it cannot have.")
        _check_values(request.GET.lists(), MAX_QUERY_VALUE)
        content_type = request.content_type or ""
        if request.method == "POST" and content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            _check_values(request.POST.lists(), MAX_FORM_VALUE)
        if LONG_NUMBER.search(request.path):
            raise Http404("No such page.")


def _check_values(items, limit: int) -> None:
    for key, values in items:
        for text in (key, *values):
            if CONTROL.search(text):
                raise BadRequest("A value in the request has a character it cannot have.")
            if len(text) > limit:
                raise BadRequest("A value in the request is too long.")
