from django import forms

from accounts.models import User


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name"]
        help_texts = {"display_name": "Shown at tables and in history. Leave empty to use your username."}
