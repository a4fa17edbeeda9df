from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from core.time_zones import typed_time_note
from games import catalog


class TournamentForm(forms.Form):
    """A new tournament: its game, and for that game the options the catalogue lets a tournament's
    creator choose (``Option.tournament_label``); the others are their defaults at every table."""

    name = forms.CharField(label=_("Name"), max_length=80)
    game = forms.ChoiceField(label=_("Game"), choices=catalog.choices)
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=10, initial=3)
    table_size = forms.IntegerField(label=_("Players per table"), min_value=2, max_value=10, initial=4)
    min_players = forms.IntegerField(label=_("Minimum players"), min_value=2, initial=4)
    max_players = forms.IntegerField(label=_("Maximum players"), min_value=2, initial=32)
    entry_fee = forms.IntegerField(label=_("Entry fee (coins)"), min_value=0, initial=0, required=False)
    prize_split = forms.CharField(
        label=_("Prize split"), initial="50/30/20", required=False, help_text=_("Percent per place, best first.")
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Issue 53: read in the zone the request activated (core/time_zones.py), and it says which.
        self.fields["starts_at"].help_text = typed_time_note()
        for option in _tournament_options():
            self.fields[option.field_name] = _option_field(option)
        # Each game's options right after the game, as the page shows them.
        self.order_fields(["name", "game", *(option.field_name for option in _tournament_options())])

    def game_options(self) -> dict:
        """The chosen game's options that its creator set (the rest are the engine's defaults)."""
        game = catalog.BY_NAME.get(self.cleaned_data.get("game") or "")
        if game is None:
            return {}
        return {
            option.name: self.cleaned_data[option.field_name]
            for option in game.options
            if option.tournament_label and self.cleaned_data.get(option.field_name) not in (None, "")
        }


def _tournament_options() -> list[catalog.Option]:
    return [option for game in catalog.GAMES for option in game.options if option.tournament_label]


def _option_field(option: catalog.Option) -> forms.Field:
    if option.choices:
        return forms.ChoiceField(
            label=option.tournament_label, required=False, choices=[(c.value, c.short) for c in option.choices]
        )
    return forms.IntegerField(
        label=option.tournament_label,
        required=False,
        min_value=option.minimum,
        max_value=option.maximum,
        initial=option.initial,
    )
