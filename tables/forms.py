"""The "New table" form: each game's own settings, validated by the engine itself."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from config.i18n import lazy_format

from games.engines import get_engine
from tables import clock

GAMES = [("sitaratas", _("Sitaratas")), ("estimation", _("Estimation")), ("sita", _("SITA"))]


class NewTableForm(forms.Form):
    game = forms.ChoiceField(choices=GAMES, widget=forms.RadioSelect)
    players = forms.IntegerField(label=_("Players"), min_value=2, max_value=10, required=False,
                                 help_text=_("Sitaratas 3–6, SITA 2–10; Estimation is always 4."))
    deck = forms.ChoiceField(label=_("Deck"), choices=[("classic", _("Classic · 36 cards")), ("jokers", _("With jokers · 38 cards"))],
                             required=False)
    order = forms.ChoiceField(label=_("Order"), choices=[("up_down", _("1 → max → 1")), ("down_up", _("max → 1 → max"))],
                              required=False)
    length = forms.ChoiceField(label=_("Length"), choices=[("micro", _("Micro · 5 rounds")), ("mini", _("Mini · 10 rounds")),
                                                           ("full", _("Full · 18 rounds"))], required=False)
    # Not named "matches": a form control of that name shadows the form element's own
    # ``matches`` method in the browser, and htmx calls it (TypeError: e.matches is not a function).
    match_count = forms.IntegerField(label=_("Matches"), min_value=1, max_value=10, required=False, initial=1)
    stake = forms.IntegerField(label=_("Stake"), min_value=0, required=False, initial=0,
                               help_text=_("Coins each player stakes (Estimation; 0 = unstaked)."))
    # RULING P9: off, 30, 60 or 120 seconds per decision; blank is the game's default.
    clock = forms.ChoiceField(
        label=_("Turn clock"), required=False,
        choices=[("", _("The game's default"))] + [(str(s), lazy_format(_("%(seconds)s s per decision"), seconds=s)
                                                     if s else _("Off")) for s in clock.CHOICES],
        help_text=_("When a player's time runs out the house plays for them. Default: Estimation and SITA 60 s, "
                    "Sitaratas off. A staked table needs a clock."),
    )

    def clean(self) -> dict:
        data = super().clean()
        game = data.get("game")
        if not game:
            return data
        players = 4 if game == "estimation" else data.get("players")
        if players is None:
            raise forms.ValidationError(_("Choose how many players."))
        options = self.game_options(game, data)
        try:
            data["options"] = get_engine(game).validate_options(players, options)
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None
        data["seat_count"] = players
        data["stake"] = (data.get("stake") or 0) if game == "estimation" else 0
        try:
            data["clock_seconds"] = clock.validate(
                game=game, seconds=int(data["clock"]) if data.get("clock") else None, stake=data["stake"])
        except ValueError as error:
            self.add_error("clock", str(error))
        return data

    @staticmethod
    def game_options(game: str, data: dict) -> dict:
        keys = {"sitaratas": ["deck", "order"], "estimation": ["length"], "sita": ["matches"]}[game]
        fields = {"matches": "match_count"}  # option name -> form field, where they differ
        return {key: data[fields.get(key, key)] for key in keys if data.get(fields.get(key, key)) not in (None, "")}
