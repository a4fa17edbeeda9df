from django import forms

from accounts.models import User


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "four_colour_suits"]
        help_texts = {"display_name": "Shown at tables and in history. Leave empty to use your username."}
        labels = {"four_colour_suits": "Four-colour suits"}
