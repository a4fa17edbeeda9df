"""Which language a viewer reads (issue 26): English, Estonian or Arabic (right to left).

A signed-in player's choice on the profile wins; otherwise the cookie the footer's switcher
sets, otherwise the browser's Accept-Language, otherwise English (``LANGUAGE_CODE``). Pages
get it from Django's ``LocaleMiddleware`` and ``ProfileLanguageMiddleware`` below; the table
socket has no request, so it asks ``scope_language`` once at the handshake and renders every
push and refusal in that language.
"""

from __future__ import annotations

from contextvars import ContextVar
from functools import lru_cache
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

RTL_LANGUAGES = frozenset({"ar"})


def supported(code: str | None) -> str | None:
    """``code`` if the site speaks it (or a variant of it), else None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


class ProfileLanguageMiddleware:
    """After authentication: a signed-in player's own language, whatever the browser says."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = supported(getattr(user, "language", "")) if user is not None and user.is_authenticated else None
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)


def scope_language(scope: dict) -> str:
    """The language of a socket's viewer, from its handshake: profile, cookie, Accept-Language."""
    user = scope.get("user")
    language = supported(getattr(user, "language", "")) if user is not None and user.is_authenticated else None
    if language:
        return language
    headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}
    request = SimpleNamespace(
        COOKIES=scope.get("cookies") or {}, META={"HTTP_ACCEPT_LANGUAGE": headers.get("accept-language", "")}
    )
    return translation.get_language_from_request(request) or settings.LANGUAGE_CODE  # type: ignore[arg-type]  # the two attributes it reads


def is_rtl(language: str | None) -> bool:
    return (language or "").split("-")[0] in RTL_LANGUAGES


def lazy_format(message: StrOrPromise, **params: object) -> str:
    """``message % params``, translated when it is read rather than now: a refusal raised in a
    service is read by the socket that shows it, in that viewer's language, and in English by
    the metrics that sort refusals (tables/live/observe.py)."""
    return _lazy_format(message, params)


def _format(message: StrOrPromise, params: dict[str, object]) -> str:
    return str(message) % params


_lazy_format = lazy(_format, str)


def refusal(error: Exception) -> StrOrPromise:
    """The message of a refusal from a lower layer, kept lazy (see ``lazy_format``). A plain
    text from the game engines, which know no Django, is looked up in the catalogue as it is."""
    message = error.args[0] if error.args else ""
    return cast("StrOrPromise", message) if isinstance(message, Promise) else gettext_lazy(str(message))


class Catalogue:
    """One language's texts, each looked up once per process (issue 26).

    Django's ``gettext`` asks for the active language (a context-local read) and walks its
    catalogues on every call, and in English, where no catalogue holds the text, it does so
    through a KeyError per catalogue. The live fragment is rendered once per seat on every move
    and its presenters ask for a dozen texts: a render in English cost 94 µs against 66 µs
    before the site had languages. Here each text is Django's answer, kept.
    """

    LIMIT = 4096  # bounded; the code holds a few hundred texts

    def __init__(self, language: str) -> None:
        self.language = language
        self._texts: dict[object, str] = {}

    def _kept(self, key: object, translate) -> str:
        """The text under ``key``, translated (``translate()``) in this language the first time."""
        if len(self._texts) >= self.LIMIT:
            self._texts.clear()
        with translation.override(self.language):
            text = self._texts[key] = translate()
        return text

    def gettext(self, message: str) -> str:
        text = self._texts.get(message)
        return text if text is not None else self._kept(message, lambda: translation.gettext(message))

    def ngettext(self, singular: str, plural: str, number: int) -> str:
        key = (singular, plural, number)
        text = self._texts.get(key)
        return text if text is not None else self._kept(key, lambda: translation.ngettext(singular, plural, number))

    def text(self, value: object) -> str:
        """``str(value)`` in this language. A lazy text of ``gettext_lazy`` or ``pgettext_lazy``
        is kept by its arguments (the same message always reads the same); any other lazy
        value is converted each time, anything else is ``str()``."""
        if not isinstance(value, Promise):
            return str(value)
        lazy_text: Any = value  # gettext_lazy's proxy keeps its arguments in _args and _kw
        try:
            key = (type(value), lazy_text._args)
            text = self._texts.get(key)  # a TypeError for unhashable arguments
        except (AttributeError, TypeError):
            text = None
            key = None
        if text is not None:
            return text
        if key is None or lazy_text._kw or not all(type(arg) is str for arg in lazy_text._args):
            with translation.override(self.language):
                return str(value)
        return self._kept(key, lambda: str(value))


@lru_cache(maxsize=16)
def catalogue(language: str) -> Catalogue:
    return Catalogue(language)


# The catalogue of the live fragment being rendered (tables/render/fragment.py sets it around each
# render): a ContextVar read costs far less than Django's look-up of the active language.
RENDERING: ContextVar[Catalogue | None] = ContextVar("rendering", default=None)


def gettext(message: str) -> str:
    """Django's ``gettext``; inside a live render, one dict look-up (``Catalogue``)."""
    found = RENDERING.get()
    return found.gettext(message) if found is not None else translation.gettext(message)


def text(value: object) -> str:
    """``str(value)`` for a lazy text; inside a live render, looked up once per language."""
    found = RENDERING.get()
    return found.text(value) if found is not None else str(value)


def ngettext(singular: str, plural: str, number: int) -> str:
    """Django's ``ngettext``; inside a live render, one dict look-up (``Catalogue``)."""
    found = RENDERING.get()
    return (
        found.ngettext(singular, plural, number)
        if found is not None
        else translation.ngettext(singular, plural, number)
    )


def language() -> str | None:
    """The active language; inside a live render, the render's without asking Django."""
    found = RENDERING.get()
    return found.language if found is not None else translation.get_language()
