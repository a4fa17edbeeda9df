"""Each game's facts, in one place: every other part of the site asks here.

A game is its engine (``games.engines.<name>``), its bots, the options a host chooses at the
new-table form, which of the site's rules apply to it (a stake, a game pass, a dismissal vote,
the Sitaratas' signature), its default turn clock, the presenter that shapes its live view and
the templates that draw it live and in history. Adding a game is one entry here and that game's
own files: engine, bots, records (games.records.<name>), presenter, templates.

The presenter is named by its dotted path and imported only when a table is drawn: games sit
below tables (docs/design.md) and never import them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy


@dataclass(frozen=True)
class Choice:
    value: str
    label: str  # in the new-table form
    short: str  # in a table's one-line summary (lobby, table, history)


@dataclass(frozen=True)
class Option:
    """One engine option the host chooses: from ``choices``, or a whole number when there are none."""

    name: str  # the engine's option key
    label: str
    choices: tuple[Choice, ...] = ()
    minimum: int = 1
    maximum: int = 1
    initial: int | str | None = None
    # A whole number's summary, e.g. "3 matches": an ngettext_lazy keyed on "num".
    short: str = ""
    # The form field's name where it cannot be the option's: a control named "matches" shadows
    # the form element's own ``matches`` method in the browser, and htmx calls it.
    field: str = ""

    @property
    def field_name(self) -> str:
        return self.field or self.name

    def summary(self, value: object) -> str:
        """The chosen value in the words of a table's summary line."""
        if not self.choices:
            return self.short % {"num": value}
        return next((str(choice.short) for choice in self.choices if choice.value == value), "")


@dataclass(frozen=True)
class Game:
    name: str  # the engine's name: games.engines.<name>, the key stored on tables and matches
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    staked: bool = False  # RULING P5: only Estimation tables take stakes
    costs_pass: bool = False  # RULING P6: only Sitaratas costs a game pass
    dismissal_vote: bool = False  # RULING S12: only Sitaratas can be dismissed by vote
    signature: bool = False  # RULING S13: only Sitaratas names a Sitaratas, who may sign
    clock: int = 60  # RULING P9: seconds per decision a new table starts with (0 = off)
    numbered_cards: bool = False  # its cards are whole numbers (SITA, RULING T1), not "10H"
    round_word: str = _("Round")  # what the game calls one of its rounds
    tagline: str = ""  # one line of what the game is, for the lobby's card
    art: str = ""  # the lobby card's picture, a static file
    presenter: str = ""  # dotted path of the module that shapes its live view (tables.live.presenters.<name>)
    live_template: str = ""  # Jinja2, inside the table's live fragment
    sheet_template: str = ""  # the score sheet of the game's history page
    replay_template: str = ""  # one step of the game's replay
    # RULING P64: a reviewed decision losing at least this many expected points is a mistake,
    # at least ``blunder`` a blunder; ``mistake`` is also the accuracy formula's scale.
    mistake: float = 1.5
    blunder: float = 4.0

    @property
    def fixed_players(self) -> bool:
        return self.min_players == self.max_players


GAMES: tuple[Game, ...] = (
    Game(
        name="sitaratas",
        title=_("Sitaratas"),
        min_players=3,
        max_players=6,
        options=(
            Option(
                "deck",
                _("Deck"),
                (
                    Choice("classic", _("Classic · 36 cards"), _("Classic deck")),
                    Choice("jokers", _("With jokers · 38 cards"), _("With jokers")),
                ),
            ),
            Option(
                "order",
                _("Order"),
                (
                    Choice("up_down", _("1 → max → 1"), _("1 → max → 1")),
                    Choice("down_up", _("max → 1 → max"), _("max → 1 → max")),
                ),
            ),
        ),
        # RULING P9: the rule book says a lost connection never skips a turn (S11), so its tables
        # start without a clock; the host may still choose one.
        costs_pass=True,
        dismissal_vote=True,
        signature=True,
        clock=0,
        tagline=_(
            "Bid the exact number of tricks you will take, round after round; the lowest total is the Sitaratas."
        ),
        art="img/games/sitaratas.svg",
        presenter="tables.live.presenters.sitaratas",
        live_template="tables/games/sitaratas.html",
        sheet_template="games/_sheet_sitaratas.html",
        replay_template="games/_replay_tricks.html",
    ),
    Game(
        name="estimation",
        title=_("Estimation"),
        min_players=4,
        max_players=4,
        options=(
            Option(
                "length",
                _("Length"),
                (
                    Choice("micro", _("Micro · 5 rounds"), _("Micro")),
                    Choice("mini", _("Mini · 10 rounds"), _("Mini")),
                    Choice("full", _("Full · 18 rounds"), _("Full")),
                ),
            ),
        ),
        staked=True,
        mistake=4.0,
        blunder=10.0,
        tagline=_(
            "Four players estimate their tricks, and the estimates never add up to thirteen: someone always misses."
        ),
        art="img/games/estimation.svg",
        presenter="tables.live.presenters.estimation",
        live_template="tables/games/estimation.html",
        sheet_template="games/_sheet_estimation.html",
        replay_template="games/_replay_tricks.html",
    ),
    Game(
        name="sita",
        title=_("SITA"),
        min_players=2,
        max_players=10,
        options=(
            Option(
                "matches",
                _("Matches"),
                minimum=1,
                maximum=10,
                initial=1,
                short=ngettext_lazy("%(num)s match", "%(num)s matches", "num"),
                field="match_count",
            ),
        ),
        round_word=_("Match"),
        numbered_cards=True,
        mistake=2.0,
        blunder=5.0,
        tagline=_("Everyone plays a card at once; lay the sixth card of a row and you take its penalty points."),
        art="img/games/sita.svg",
        presenter="tables.live.presenters.sita",
        live_template="tables/games/sita.html",
        sheet_template="games/_sheet_sita.html",
        replay_template="games/_replay_sita.html",
    ),
)
BY_NAME = {game.name: game for game in GAMES}
DEFAULT = GAMES[0].name  # the game a form or a page offers first


def get(name: str) -> Game:
    """The game called ``name``; KeyError for any other name."""
    return BY_NAME[name]


def choices() -> list[tuple[str, str]]:
    """``(name, title)`` per game, for model and form choices."""
    return [(game.name, game.title) for game in GAMES]


def titles() -> dict[str, str]:
    return {game.name: game.title for game in GAMES}


def known(name: object) -> bool:
    return name in BY_NAME


def options_summary(name: str, options: dict) -> list[str]:
    """A table's options in words, one per option, in the catalogue's order."""
    return [option.summary(options.get(option.name)) for option in get(name).options if option.name in options]
