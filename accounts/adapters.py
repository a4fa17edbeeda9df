"""allauth customisation, through its adapter only (docs/style.md §11)."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context
from django import forms
from django.contrib.sites.shortcuts import get_current_site
from django.utils import translation

from accounts import services, sessions
from accounts.names import NameRefused, name_clean
from core.addresses import limit_key, request_address
from core.i18n import supported

# A page to come back to once signed up and verified (a table's invitation link, RULING P66): kept in
# the session, so it survives the sign-up form, the "check your mail" page and the confirmation.
RETURN_AFTER_SIGN_UP = "return_after_sign_up"


def _return_path(request) -> str | None:
    path = request.session.get(RETURN_AFTER_SIGN_UP) if request is not None else None
    return path if isinstance(path, str) and path.startswith("/") and not path.startswith("//") else None


class AccountAdapter(DefaultAccountAdapter):
    def get_login_redirect_url(self, request) -> str:
        return _return_path(request) or super().get_login_redirect_url(request)

    def get_signup_redirect_url(self, request) -> str:
        return _return_path(request) or super().get_signup_redirect_url(request)

    def get_email_verification_redirect_url(self, email_address) -> str:
        return _return_path(context.request) or super().get_email_verification_redirect_url(email_address)

    def clean_username(self, username: str, shallow: bool = False) -> str:
        # RULING P54: normalised first, so the uniqueness check sees the form that is stored; a
        # person must not pass for a bot, an admin or a deleted account ("deleted-<own id>"
        # could never be deleted, RULING P23).
        try:
            username = name_clean(username)
        except NameRefused as error:
            raise forms.ValidationError(str(error)) from None
        return super().clean_username(username, shallow=shallow)

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        # Issue 26: a mail to a player is in the language of their profile when they chose one
        # (a reset asked for from a friend's browser still reaches them in their own); otherwise
        # in the page's language, which is what allauth's templates and catalogues follow.
        user = context.get("user")
        language = supported(getattr(user, "language", "")) if user is not None else None
        with translation.override(language or translation.get_language()):
            super().send_mail(template_prefix, email, context)

    def get_client_ip(self, request) -> str:
        # Issue 34: the one reading of the client's address (core/addresses.py), so allauth's
        # limits count the player behind the proxy, not the proxy.
        return request_address(request)

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        # RULING P18: failed logins counted per account and address. allauth counts per typed login
        # text alone, which locks the account for everyone; keyed on the text, its username and its
        # e-mail address would each get their own five guesses. The account the text names counts
        # once whichever way it is written; text that names no account counts as itself.
        address = limit_key(self.get_client_ip(request))
        return f"{get_current_site(request).domain}:{login_account(credentials)}:{address}"

    def set_password(self, user, password: str) -> None:
        # Issue 34: a signed-in player changing their own password stays signed in on this browser
        # under a new session key, made just after this save; its table sockets are told of the
        # save first and must wait for the new key rather than close (accounts/sessions.py).
        request = context.request
        user.set_password(password)
        if request is not None and request.user == user and request.session.session_key:
            # The hash the session will carry: a later change elsewhere makes another, which still ends it.
            sessions.rotation_expect(request.session.session_key, auth_hash=user.get_session_auth_hash())
        services.password_save(user=user)


def login_account(credentials: dict) -> str:
    """The account a login's text names (``user:<id>``), or the text itself when it names none."""
    from allauth.account.utils import filter_users_by_email, filter_users_by_username

    if credentials.get("email"):
        users = filter_users_by_email(credentials["email"], prefer_verified=True)
        text = credentials["email"]
    else:
        text = credentials.get("username") or ""
        users = list(filter_users_by_username(text)) if text else []
    if len(users) == 1:
        return f"user:{users[0].pk}"
    return f"login:{text.strip().lower()}"
