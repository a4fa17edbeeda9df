"""The "New table" form: each game's own settings, validated by the engine itself."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from core.i18n import lazy_format
from games import catalog
from games.catalog import get_engine
from tables import clock
from tables.models import Spectators
from tables.render import clock_view


def _players_help() -> str:
    """Each game's player count, as the catalogue gives it ("Sitaratas: 3–6 players · …")."""
    return " · ".join(
        _("%(game)s: %(count)s players")
        % {
            "game": game.title,
            "count": game.min_players if game.fixed_players else f"{game.min_players}–{game.max_players}",
        }
        for game in catalog.GAMES
    )


def _clock_help() -> str:
    """What the clock does, and each game's default clock (RULING P9)."""
    defaults = " · ".join(f"{game.title} {clock_view.label(game.clock)}" for game in catalog.GAMES)
    return " ".join(
        [
            str(_("When a player's time runs out the house plays for them. A staked table needs a clock.")),
            _("Default: %(defaults)s.") % {"defaults": defaults},
        ]
    )


def _option_field(option: catalog.Option) -> forms.Field:
    if option.choices:
        return forms.ChoiceField(
            label=option.label, choices=[(c.value, c.label) for c in option.choices], required=False
        )
    return forms.IntegerField(
        label=option.label, min_value=option.minimum, max_value=option.maximum, required=False, initial=option.initial
    )


class NewTableForm(forms.Form):
    """The game, its player count and options (one field per catalogue option), a stake for a
    game that takes one, and the turn clock."""

    game = forms.ChoiceField(choices=catalog.choices, widget=forms.RadioSelect)
    players = forms.IntegerField(label=_("Players"), min_value=2, max_value=10, required=False)
    stake = forms.IntegerField(
        label=_("Stake"),
        min_value=0,
        required=False,
        initial=0,
        help_text=_("Coins each player stakes (0 = unstaked)."),
    )
    # RULING P9: off, 30, 60 or 120 seconds per decision; blank is the game's default.
    clock = forms.ChoiceField(
        label=_("Turn clock"),
        required=False,
        choices=[("", _("The game's default"))]
        + [(str(s), lazy_format(_("%(seconds)s s per decision"), seconds=s) if s else _("Off")) for s in clock.CHOICES],
    )

    # RULING P65: unrated, bots in every other seat, and the play screen's Hint button.
    practice = forms.BooleanField(
        label=_("Practice"),
        required=False,
        help_text=_("Play alone against bots, unrated, with hints from the strong bot on request."),
    )

    # RULING P66: friends and invited only, and who may watch such a table.
    private = forms.BooleanField(
        label=_("Friends and invited only"),
        required=False,
        help_text=_("Not listed in the lobby. Your friends may sit, and anyone you invite or send the link to."),
    )
    spectators = forms.ChoiceField(
        label=_("Who may watch a private table"), required=False, choices=Spectators.choices, initial=Spectators.FRIENDS
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Built per form, in the viewer's language, from the catalogue.
        self.fields["players"].help_text = _players_help()
        self.fields["clock"].help_text = _clock_help()
        for game in catalog.GAMES:
            for option in game.options:
                self.fields[option.field_name] = _option_field(option)

    def game_fields(self) -> list[tuple[forms.BoundField, str]]:
        """The fields that belong to some games only, each with the names of those games (the
        page shows a field only while one of its games is chosen)."""
        variable = " ".join(game.name for game in catalog.GAMES if not game.fixed_players)
        staked = " ".join(game.name for game in catalog.GAMES if game.staked)
        fields = [(self["players"], variable)]
        fields += [(self[option.field_name], game.name) for game in catalog.GAMES for option in game.options]
        return fields + [(self["stake"], staked)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}  # Django's clean returns cleaned_data
        game = catalog.BY_NAME.get(data.get("game") or "")
        if game is None:
            return data
        players = game.min_players if game.fixed_players else data.get("players")
        if players is None:
            raise forms.ValidationError(_("Choose how many players."))
        options = self.game_options(game, data)
        try:
            data["options"] = get_engine(game.name).validate_options(players, options)
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None
        data["seat_count"] = players
        data["stake"] = (data.get("stake") or 0) if game.staked else 0
        practice = bool(data.get("practice"))
        try:
            data["clock_seconds"] = clock.validate(
                game=game.name, seconds=int(data["clock"]) if data.get("clock") else None, stake=data["stake"]
            )
        except ValueError as error:
            self.add_error("clock", str(error))
        if practice and data["stake"]:
            self.add_error("practice", _("A practice table has no stake."))  # RULING P65
        else:
            data["practice"] = practice
        data["private"] = bool(data.get("private"))
        data["spectators"] = data.get("spectators") or Spectators.ANYONE
        return data

    @staticmethod
    def game_options(game: catalog.Game, data: dict) -> dict:
        return {
            option.name: data[option.field_name]
            for option in game.options
            if data.get(option.field_name) not in (None, "")
        }
