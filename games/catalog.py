"""Each game's facts, in one place: every other part of the site asks here.

A game is its engine, its bots and its record helpers (the modules themselves, each checked by
mypy against its contract: ``games.engines.contract.Engine``, ``games.bots.Bot`` and
``StrongBot``, ``games.records.GameRecords``), the options a host chooses at the new-table form,
which of the site's rules apply to it (a stake, a game pass, a dismissal vote, the Sitaratas'
signature), its default turn clock and the templates that draw it live and in history. Adding a
game is one entry here and that game's own files: engine, bots, records, templates, its rules
(``docs/rules/<name>.md``) and its presenter, ``tables.render.presenters.<name>`` (games sit below
tables and never import them: tables finds it by the game's name). The models' ``choices`` is
:func:`choices` itself, so a new game needs no migration either; a test checks each game has
every part.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from accounts.bots import BOT_LEVELS, DEFAULT_BOT_LEVEL
from games.bots import Bot, Move, StrongBot, plain, strong_estimation, strong_sita, strong_sitaratas
from games.bots import estimation as estimation_bot
from games.bots import evaluate as evaluation
from games.bots import registry as bot_registry
from games.bots import sita as sita_bot
from games.bots import sitaratas as sitaratas_bot
from games.bots.budget import Budget
from games.bots.evaluate import Evaluation
from games.engines import estimation, sita, sitaratas
from games.engines.contract import JSON, Engine
from games.records import GameRecords
from games.records import estimation as estimation_records
from games.records import sita as sita_records
from games.records import sitaratas as sitaratas_records

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


@dataclass(frozen=True)
class Choice:
    value: str
    label: StrOrPromise  # in the new-table form
    short: StrOrPromise  # in a table's one-line summary (lobby, table, history)


@dataclass(frozen=True)
class Option:
    """One engine option the host chooses: from ``choices``, or a whole number when there are none."""

    name: str  # the engine's option key
    label: StrOrPromise
    choices: tuple[Choice, ...] = ()
    minimum: int = 1
    maximum: int = 1
    initial: int | str | None = None
    # A whole number's summary, e.g. "3 matches": an ngettext_lazy keyed on "num".
    short: StrOrPromise = ""
    # The form field's name where it cannot be the option's: a control named "matches" shadows
    # the form element's own ``matches`` method in the browser, and htmx calls it.
    field: str = ""
    # The option's label on the new-tournament form, where a tournament's creator chooses it too;
    # empty: every table of a tournament plays the option's default.
    tournament_label: StrOrPromise = ""

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
    name: str  # the engine's name, the key stored on tables and matches
    title: StrOrPromise
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    engine: Engine[Any, Any, Any]
    bot: Bot[Any]  # the normal (rule-based) bot; the easy bot is it with mistakes (RULING P47)
    strong_bot: StrongBot[Any]  # RULING P48
    records: GameRecords[Any]
    staked: bool = False  # RULING P5: only Estimation tables take stakes
    costs_pass: bool = False  # RULING P6: only Sitaratas costs a game pass
    dismissal_vote: bool = False  # RULING S12: only Sitaratas can be dismissed by vote
    signature: bool = False  # RULING S13: only Sitaratas names a Sitaratas, who may sign
    clock: int = 60  # RULING P9: seconds per decision a new table starts with (0 = off)
    numbered_cards: bool = False  # its cards are whole numbers (SITA, RULING T1), not "10H"
    # What a trick game's seats declare each round: "bid" (Sitaratas: each seat its tricks, the
    # rounds told by hand size) or "estimate" (Estimation: Dash Calls, an auction for the Caller,
    # then the estimates; the rounds told by kind). "" for a game without tricks.
    declares: str = ""
    round_word: StrOrPromise = _("Round")  # what the game calls one of its rounds
    tagline: StrOrPromise = ""  # one line of what the game is, for the lobby's card
    art: str = ""  # the lobby card's picture, a static file
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
        engine=sitaratas,
        bot=sitaratas_bot,
        strong_bot=strong_sitaratas,
        records=sitaratas_records,
        # RULING P9: the rule book says a lost connection never skips a turn (S11), so its tables
        # start without a clock; the host may still choose one.
        declares="bid",
        costs_pass=True,
        dismissal_vote=True,
        signature=True,
        clock=0,
        tagline=_(
            "Bid the exact number of tricks you will take, round after round; the lowest total is the Sitaratas."
        ),
        art="img/games/sitaratas.svg",
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
                tournament_label=_("Estimation length"),
            ),
        ),
        engine=estimation,
        bot=estimation_bot,
        strong_bot=strong_estimation,
        records=estimation_records,
        declares="estimate",
        staked=True,
        mistake=4.0,
        blunder=10.0,
        tagline=_(
            "Four players estimate their tricks, and the estimates never add up to thirteen: someone always misses."
        ),
        art="img/games/estimation.svg",
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
        engine=sita,
        bot=sita_bot,
        strong_bot=strong_sita,
        records=sita_records,
        round_word=_("Match"),
        numbered_cards=True,
        mistake=2.0,
        blunder=5.0,
        tagline=_("Everyone plays a card at once; lay the sixth card of a row and you take its penalty points."),
        art="img/games/sita.svg",
        live_template="tables/games/sita.html",
        sheet_template="games/_sheet_sita.html",
        replay_template="games/_replay_sita.html",
    ),
)
if TYPE_CHECKING:
    # A Game holds any game (Any above); here mypy checks each engine and records module with the
    # game's own types, so both sides of a record's rounds agree on their keys.
    _typed: tuple[
        tuple[
            Engine[sitaratas.State, sitaratas.Action, sitaratas.SitaratasRound], GameRecords[sitaratas.SitaratasRound]
        ],
        tuple[
            Engine[estimation.State, estimation.Action, estimation.EstimationRound],
            GameRecords[estimation.EstimationRound],
        ],
        tuple[Engine[sita.State, sita.Action, sita.SitaRound], GameRecords[sita.SitaRound]],
    ] = ((sitaratas, sitaratas_records), (estimation, estimation_records), (sita, sita_records))

BY_NAME = {game.name: game for game in GAMES}
ENGINES: dict[str, Engine[Any, Any, Any]] = {game.name: game.engine for game in GAMES}
DEFAULT = GAMES[0].name  # the game a form or a page offers first
# The games by name where code needs one game's rules (each name only here).
SITARATAS, ESTIMATION, SITA = (BY_NAME[name] for name in ("sitaratas", "estimation", "sita"))


def get(name: str) -> Game:
    """The game called ``name``; KeyError for any other name."""
    return BY_NAME[name]


def get_engine(name: object) -> Engine[Any, Any, Any]:
    """The engine of the game called ``name``; ValueError (a message a player can read) for any
    other name."""
    engine = ENGINES.get(name) if isinstance(name, str) else None
    if engine is None:
        raise ValueError(f"Unknown game: {name!r}.")
    return engine


def get_bot(name: str, level: str = DEFAULT_BOT_LEVEL) -> Move[Any]:
    """The move of ``name``'s bot at ``level`` (accounts.bots.BOT_LEVELS, RULING P45; "random" is
    the engine tests' baseline), built by the library's own lookup (``games.bots.registry``);
    ValueError for any other game or level."""
    if name not in BY_NAME or (level not in BOT_LEVELS and level != "random"):
        raise ValueError(f"No {level!r} bot for {name!r}.")
    return bot_registry.bot_for(name, level)


def house_move(name: str) -> Move[Any]:
    """RULING P11: what the house plays for a player's seat (the clock's move, an away seat's): the
    game's normal bot, or the bot module's own ``house`` where its game has one (SITA's takes the
    cheapest row)."""
    house = getattr(get(name).bot, "house", None)
    return plain(house) if house is not None else get_bot(name)


def evaluate(view: JSON, rng: random.Random, samples: int) -> Evaluation:
    """Every legal action's worth for the seat whose ``view`` this is (games.bots.evaluate), weighed
    by its game's strong bot."""
    return evaluation.evaluate(get(view["game"]).strong_bot, view, rng, samples)


def bot_move(name: str, level: str, view: JSON, rng: random.Random, budget: Budget) -> Any:
    """The action of ``name``'s bot at ``level`` for ``view``; a strong bot spends ``budget``
    (the others sample nothing, and leave ``budget.done`` at 0)."""
    return get_bot(name, level)(view, rng, budget)


def choices() -> list[tuple[str, StrOrPromise]]:
    """``(name, title)`` per game, for model and form choices."""
    return [(game.name, game.title) for game in GAMES]


def titles() -> dict[str, StrOrPromise]:
    return {game.name: game.title for game in GAMES}


def known(name: object) -> bool:
    return name in BY_NAME


def options_summary(name: str, options: JSON) -> list[str]:
    """A table's options in words, one per option, in the catalogue's order."""
    return [option.summary(options.get(option.name)) for option in get(name).options if option.name in options]
