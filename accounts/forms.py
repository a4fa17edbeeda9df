from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.names import NameRefused, name_clean
from core.time_zones import zone_named

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def time_zone_known(name: str) -> bool:
    return zone_named(name) is not None


def language_choices() -> list[tuple[str, StrOrPromise]]:
    # Each language by its own name, so a reader of any of them finds theirs (issue 26).
    return [("", _("As my browser asks")), *settings.LANGUAGES]


class ProfileForm(forms.ModelForm):
    language = forms.ChoiceField(label=_("Language"), choices=language_choices, required=False)

    class Meta:
        model = User
        fields = ["display_name", "four_colour_suits", "language", "review_visibility", "time_zone"]
        help_texts = {
            "display_name": _("Shown at tables and in history. Leave empty to use your username."),
            "four_colour_suits": _("Draw clubs green and diamonds blue, so every suit has its own colour."),
            "review_visibility": _("Who may read the strong bot's review of your decisions in a finished game."),
        }
        labels = {
            "display_name": _("Display name"),
            "four_colour_suits": _("Four-colour suits"),
            "review_visibility": _("Who sees my game reviews"),
            "time_zone": _("Time zone"),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A form that leaves it out (an older page, a script) keeps the player's choice.
        self.fields["review_visibility"].required = False
        self.fields["time_zone"].required = False

    def clean_time_zone(self) -> str:
        """Issue 41: an IANA zone name (start times are shown in it); a form without it keeps the player's."""
        if "time_zone" not in self.data:
            return self.instance.time_zone
        name = (self.cleaned_data.get("time_zone") or "").strip()
        if name and not time_zone_known(name):
            raise forms.ValidationError(_("Choose a time zone such as Europe/Tallinn or Asia/Dubai."))
        return name

    def clean_review_visibility(self) -> str:
        return self.cleaned_data.get("review_visibility") or self.instance.review_visibility

    def clean_display_name(self) -> str:
        # RULING P54: the same rules as a username, so a rename cannot do what sign-up refuses.
        name = self.cleaned_data["display_name"]
        try:
            return name_clean(name) if name else name
        except NameRefused as error:
            raise forms.ValidationError(str(error)) from None


class AccountDeleteForm(forms.Form):
    """RULING P55: deleting one's own account asks for the password again (a browser left signed in
    must not be enough)."""

    password = forms.CharField(
        label=_("Your password"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"})
    )

    def __init__(self, *args, user: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password
