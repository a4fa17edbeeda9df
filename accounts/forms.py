from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.models import User


def language_choices() -> list[tuple[str, str]]:
    # Each language by its own name, so a reader of any of them finds theirs (issue 26).
    return [("", _("As my browser asks")), *settings.LANGUAGES]


class ProfileForm(forms.ModelForm):
    language = forms.ChoiceField(label=_("Language"), choices=language_choices, required=False)

    class Meta:
        model = User
        fields = ["display_name", "four_colour_suits", "language", "review_visibility"]
        help_texts = {
            "display_name": _("Shown at tables and in history. Leave empty to use your username."),
            "four_colour_suits": _("Draw clubs green and diamonds blue, so every suit has its own colour."),
            "review_visibility": _("Who may read the strong bot's review of your decisions in a finished game."),
        }
        labels = {
            "display_name": _("Display name"),
            "four_colour_suits": _("Four-colour suits"),
            "review_visibility": _("Who sees my game reviews"),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A form that leaves it out (an older page, a script) keeps the player's choice.
        self.fields["review_visibility"].required = False

    def clean_review_visibility(self) -> str:
        return self.cleaned_data.get("review_visibility") or self.instance.review_visibility
