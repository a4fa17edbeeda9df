from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games import catalog


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    game = forms.ChoiceField(label=_("Game"), choices=catalog.choices)
    length = forms.ChoiceField(
        label=_("Estimation length"),
        required=False,
        choices=[("micro", _("Micro")), ("mini", _("Mini")), ("full", _("Full"))],
    )
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("In your own time zone."),
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=10, initial=3)
    table_size = forms.IntegerField(label=_("Players per table"), min_value=2, max_value=10, initial=4)
    min_players = forms.IntegerField(label=_("Minimum players"), min_value=2, initial=4)
    max_players = forms.IntegerField(label=_("Maximum players"), min_value=2, initial=32)
    entry_fee = forms.IntegerField(label=_("Entry fee (coins)"), min_value=0, initial=0, required=False)
    prize_split = forms.CharField(
        label=_("Prize split"), initial="50/30/20", required=False, help_text=_("Percent per place, best first.")
    )
