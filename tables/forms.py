"""The "New table" form: each game's own settings, validated by the engine itself."""

from __future__ import annotations

from django import forms

from games.engines import get_engine
from tables import clock

GAMES = [("sitaratas", "Sitaratas"), ("estimation", "Estimation"), ("sita", "SITA")]


class NewTableForm(forms.Form):
    game = forms.ChoiceField(choices=GAMES, widget=forms.RadioSelect)
    players = forms.IntegerField(min_value=2, max_value=10, required=False,
                                 help_text="Sitaratas 3–6, SITA 2–10; Estimation is always 4.")
    deck = forms.ChoiceField(choices=[("classic", "Classic · 36 cards"), ("jokers", "With jokers · 38 cards")], required=False)
    order = forms.ChoiceField(choices=[("up_down", "1 → max → 1"), ("down_up", "max → 1 → max")], required=False)
    length = forms.ChoiceField(choices=[("micro", "Micro · 5 rounds"), ("mini", "Mini · 10 rounds"), ("full", "Full · 18 rounds")], required=False)
    # Not named "matches": a form control of that name shadows the form element's own
    # ``matches`` method in the browser, and htmx calls it (TypeError: e.matches is not a function).
    match_count = forms.IntegerField(label="Matches", min_value=1, max_value=10, required=False, initial=1)
    stake = forms.IntegerField(min_value=0, required=False, initial=0, help_text="Coins each player stakes (Estimation; 0 = unstaked).")
    # RULING P9: off, 30, 60 or 120 seconds per decision; blank is the game's default.
    clock = forms.ChoiceField(
        label="Turn clock", required=False,
        choices=[("", "The game's default")] + [(str(s), f"{s} s per decision" if s else "Off") for s in clock.CHOICES],
        help_text="When a player's time runs out the house plays for them. Default: Estimation and SITA 60 s, "
                  "Sitaratas off. A staked table needs a clock.",
    )

    def clean(self) -> dict:
        data = super().clean()
        game = data.get("game")
        if not game:
            return data
        players = 4 if game == "estimation" else data.get("players")
        if players is None:
            raise forms.ValidationError("Choose how many players.")
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
