"""The game catalogue (games/catalog.py) agrees with each game's own files, and the pages ask it."""

from __future__ import annotations

import pytest
from django.template import engines
from django.template.loader import get_template

from accounts.bots import BOT_LEVELS as LEVELS
from games import catalog
from games.bots import registry as bot_registry
from games.catalog import get_bot, get_engine
from games.engines import registry

GAMES = [game.name for game in catalog.GAMES]


def test_every_game_of_the_catalogue_has_each_of_its_parts() -> None:
    from tables.render.presenters import PRESENTERS

    for game in catalog.GAMES:
        assert game.engine.name == game.name
        assert callable(game.bot.choose) and callable(game.strong_bot.choose)
        assert callable(game.records.replay_steps) and callable(game.records.sheet_row)
        assert callable(PRESENTERS[game.name].present)
    assert set(PRESENTERS) == set(catalog.BY_NAME)
    # The pure tools' own lookups (games.records.storage and verify; the bot benchmarks) hold the same parts.
    assert {game.name: (game.bot, game.strong_bot) for game in catalog.GAMES} == bot_registry.BOTS
    assert set(LEVELS) < set(bot_registry.PLAYERS)  # every level a host chooses is a player the library makes
    # The pure tools find each engine by its game's name (games.records.storage, games.records.verify),
    # and find no engine the catalogue does not offer.
    assert dict(registry.ENGINES) == catalog.ENGINES
    assert all(registry.engine_for(game.name) is game.engine for game in catalog.GAMES)


def test_the_engines_lookup_finds_no_engine_in_a_module_that_is_not_one() -> None:
    for name in ("cards", "contract", "registry", "__init__", "poker", "../sita", ""):
        assert name not in registry.ENGINES
        with pytest.raises(ValueError):
            registry.engine_for(name)


def test_the_models_choices_are_the_catalogue_so_a_new_game_needs_no_migration() -> None:
    from django.apps import apps

    fields = [
        field
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if field.name == "game" and getattr(field, "choices", None)
    ]
    assert len(fields) >= 6  # Match, Rating, Table, QuickPlayChoice, Tournament, Season
    for field in fields:
        assert field.deconstruct()[3]["choices"] is catalog.choices


@pytest.mark.parametrize("name", GAMES)
def test_each_game_has_its_engine_bots_and_templates(name: str) -> None:
    game = catalog.get(name)
    engine = get_engine(name)
    assert (game.min_players, game.max_players) == (engine.min_players, engine.max_players)
    for level in LEVELS:
        assert callable(get_bot(name, level))
    engines["jinja2"].env.get_template(game.live_template)
    get_template(game.sheet_template)
    get_template(game.replay_template)


def test_an_unknown_game_or_level_has_no_engine_nor_bot() -> None:
    with pytest.raises(ValueError):
        get_engine("poker")
    with pytest.raises(ValueError):
        get_bot("sita", "grandmaster")


@pytest.mark.parametrize("name", GAMES)
def test_every_option_value_the_form_offers_is_one_the_engine_takes(name: str) -> None:
    game = catalog.get(name)
    engine = get_engine(name)
    for option in game.options:
        values = [choice.value for choice in option.choices] or [option.minimum, option.maximum]
        for value in values:
            assert engine.validate_options(game.min_players, {option.name: value})[option.name] == value


def test_an_unknown_game_is_refused() -> None:
    assert not catalog.known("poker")
    with pytest.raises(KeyError):
        catalog.get("poker")


def test_the_summary_line_speaks_each_option() -> None:
    assert catalog.options_summary("sitaratas", {"deck": "jokers", "order": "up_down"}) == [
        "With jokers",
        "1 → max → 1",
    ]
    assert catalog.options_summary("sita", {"matches": 3}) == ["3 matches"]
    assert catalog.options_summary("estimation", {"length": "mini"}) == ["Mini"]


def test_the_new_table_form_has_one_field_per_option_shown_for_its_game() -> None:
    from tables.forms import NewTableForm

    form = NewTableForm()
    shown = {field.name: games for field, games in form.game_fields()}
    for game in catalog.GAMES:
        for option in game.options:
            assert shown[option.field_name] == game.name
    assert shown["stake"].split() == [game.name for game in catalog.GAMES if game.staked]
    assert shown["players"].split() == [game.name for game in catalog.GAMES if not game.fixed_players]
