"""The fair-deal protocol and the standalone verifier, without Django (RULINGS P30-P34)."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from games import catalog
from games.catalog import get_bot, get_engine
from games.records import fairness, verify

ROOT = Path(__file__).resolve().parents[2]
SECRET = "11" * 32
VALUES = ["0123456789abcdef0123456789abcdef", None, "fedcba9876543210fedcba9876543210"]
ACCOUNTS = [17, 3, 42]


def seats_of(values: list[str | None], accounts: list[int] | None = None) -> list[fairness.SeatInput]:
    accounts = accounts or [100 + seat for seat in range(len(values))]
    return [
        fairness.SeatInput(seat, "player" if value else "bot", accounts[seat], value)
        for seat, value in enumerate(values)
    ]


def played_record(
    game: str,
    options: dict,
    players: int,
    values: list[str | None],
    table_id: int = 7,
    version: str = "fair-v2",
    accounts: list[int] | None = None,
) -> dict:
    """A whole game dealt by ``version`` and played by the bots, with the fairness data the site adds."""
    commitment = fairness.commitment_of(SECRET)
    seats = seats_of(values, accounts)
    if version == "fair-v2":
        digest, seed = fairness.derive_seed_v2(SECRET, commitment, table_id, 1, seats)
        entries = [entry.as_dict() for entry in seats]
    else:
        digest, seed = fairness.derive_seed_v1(SECRET, commitment, values, table_id)
        entries = [{"seat": e.seat, "value": e.value, "by": e.by} for e in seats]
    engine = get_engine(game)
    state = engine.new_game(players, options, seed)
    actions, rng = [], random.Random(1)
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        action = get_bot(game)(engine.view(state, seat), rng)
        state = engine.apply(state, seat, action)
        actions.append([seat, action])
    record = json.loads(json.dumps(engine.record(state)))
    record["fairness"] = {
        "version": version,
        "commitment": commitment,
        "secret": SECRET,
        "table": table_id,
        "attempt": 1,
        "values": entries,
        "hmac": digest,
        "seed": seed,
        "actions": actions,
    }
    return record


@pytest.fixture(scope="module")
def record() -> dict:
    return played_record("sitaratas", {"deck": "classic", "order": "up_down"}, 3, VALUES, accounts=ACCOUNTS)


@pytest.fixture(scope="module")
def sita_record() -> dict:
    return played_record("sita", {"matches": 1}, 3, VALUES, accounts=ACCOUNTS)


@pytest.fixture(scope="module")
def v1_record() -> dict:
    return played_record("sitaratas", {"deck": "classic", "order": "up_down"}, 3, VALUES, version="fair-v1")


def test_the_v2_seed_is_the_hmac_of_a_message_binding_every_seat_the_table_and_the_attempt() -> None:
    commitment = fairness.commitment_of(SECRET)
    assert commitment == hashlib.sha256(bytes.fromhex(SECRET)).hexdigest()
    # docs/fairness.md, written out byte by byte as an outside verifier would.
    message = (
        b"fair-v2\x00"
        + bytes.fromhex(commitment)
        + (42).to_bytes(8, "big")
        + (2).to_bytes(4, "big")
        + bytes([3])
        + bytes([0, 1]) + (17).to_bytes(8, "big") + bytes.fromhex(VALUES[0])
        + bytes([1, 2]) + (3).to_bytes(8, "big")
        + bytes([2, 1]) + (42).to_bytes(8, "big") + bytes.fromhex(VALUES[2])
    )  # fmt: skip
    assert fairness.seed_message_v2(commitment, 42, 2, seats_of(VALUES, ACCOUNTS)) == message
    digest = hmac.new(bytes.fromhex(SECRET), message, hashlib.sha256).digest()
    assert fairness.derive_seed_v2(SECRET, commitment, 42, 2, seats_of(VALUES, ACCOUNTS)) == (
        digest.hex(),
        int.from_bytes(digest[:8], "big") >> 2,
    )


def test_the_v1_seed_is_still_the_hmac_of_commitment_values_in_seat_order_and_table_id() -> None:
    commitment = fairness.commitment_of(SECRET)
    message = bytes.fromhex(commitment) + bytes.fromhex(VALUES[0]) + bytes.fromhex(VALUES[2]) + (42).to_bytes(8, "big")
    digest = hmac.new(bytes.fromhex(SECRET), message, hashlib.sha256).digest()
    assert fairness.derive_seed_v1(SECRET, commitment, VALUES, 42) == (
        digest.hex(),
        int.from_bytes(digest[:8], "big") >> 2,
    )
    assert 0 <= fairness.derive_seed_v1(SECRET, commitment, VALUES, 42)[1] < 2**62  # fits Match.seed


def test_the_v2_seed_changes_with_any_seat_value_kind_account_attempt_or_table() -> None:
    commitment = fairness.commitment_of(SECRET)

    def seed(seats, table=5, attempt=1):
        return fairness.derive_seed_v2(SECRET, commitment, table, attempt, seats)[1]

    base = seed(seats_of(VALUES, ACCOUNTS))
    moved = seats_of([None, VALUES[0], VALUES[2]], ACCOUNTS)  # the same value on another seat
    other_account = seats_of(VALUES, [17, 3, 43])
    swapped_accounts = seats_of(VALUES, [42, 3, 17])
    flipped = seats_of([VALUES[0], None, "0" * 32], ACCOUNTS)
    variants = [seed(moved), seed(other_account), seed(swapped_accounts), seed(flipped)]
    variants += [seed(seats_of(VALUES, ACCOUNTS), table=6), seed(seats_of(VALUES, ACCOUNTS), attempt=2)]
    assert base not in variants and len(set(variants)) == len(variants)


def test_a_v2_message_refuses_what_does_not_fit_its_fields() -> None:
    commitment = fairness.commitment_of(SECRET)
    for table, attempt, seats, words in [
        (2**64, 1, seats_of(VALUES), "table id"),
        (1, 0, seats_of(VALUES), "attempt"),
        (1, 1, seats_of(VALUES, [2**64, 1, 2]), "account"),
        (1, 1, [fairness.SeatInput(0, "site", 1, VALUES[0])], "kind"),
        (1, 1, [fairness.SeatInput(0, "bot", 1, VALUES[0])], "bot but has a value"),
    ]:
        with pytest.raises(ValueError, match=words):
            fairness.seed_message_v2(commitment, table, attempt, seats)


def test_a_players_value_must_be_32_hex_digits() -> None:
    assert fairness.normalise_value(" 0123456789ABCDEF0123456789abcdef ") == "0123456789abcdef0123456789abcdef"
    for bad in (None, "", "abc", "g" * 32, "0" * 31, "0" * 33, 12345):
        with pytest.raises(ValueError, match="32 hexadecimal digits"):
            fairness.normalise_value(bad)


@pytest.mark.parametrize(
    ("game", "options", "players"),
    [
        ("sitaratas", {"deck": "jokers", "order": "down_up"}, 4),
        ("estimation", {"length": "micro"}, 4),
        ("sita", {"matches": 2}, 3),
    ],
)
def test_a_true_record_of_each_game_passes_every_check(game, options, players) -> None:
    values = [secrets.token_hex(16) if seat != 1 else None for seat in range(players)]
    checks = fairness.check_record(played_record(game, options, players, values), engines=catalog.ENGINES)
    assert all(check.ok is not False for check in checks), [check.line() for check in checks if not check.ok]
    names = [check.name for check in checks]
    assert names[:4] == ["inputs", "commitment", "timing", "seed"] and names[-1] == "play"
    assert sum(name.startswith("round ") for name in names) >= 2
    assert checks[0].detail.startswith("fair-v2, table 7, attempt 1")


def test_a_fair_v1_record_still_verifies_as_v1(v1_record) -> None:
    checks = fairness.check_record(v1_record, engines=catalog.ENGINES)
    assert all(check.ok is not False for check in checks)
    assert checks[0].detail.startswith("fair-v1") and "fair-v1 message" in checks[3].detail
    tampered = copy.deepcopy(v1_record)
    tampered["fairness"]["values"][2]["value"] = "00" * 16
    assert failing(tampered)[0] == "seed"


def failing(record: dict) -> list[str]:
    return [check.name for check in fairness.check_record(record, engines=catalog.ENGINES) if check.ok is False]


def test_a_tampered_hand_fails_the_check_of_its_round(record) -> None:
    tampered = copy.deepcopy(record)
    hands = tampered["rounds"][1]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # two cards swapped between seats
    assert "round 2" in failing(tampered) and "round 1" not in failing(tampered)


def test_a_tampered_secret_fails_the_commitment_check(record) -> None:
    tampered = copy.deepcopy(record)
    tampered["fairness"]["secret"] = "22" * 32
    assert failing(tampered)[0] == "commitment"


def test_a_tampered_player_value_fails_the_seed_check(record) -> None:
    tampered = copy.deepcopy(record)
    tampered["fairness"]["values"][2]["value"] = "00" * 16
    assert failing(tampered)[0] == "seed"
    assert "round 1" in failing(tampered)  # and the hands no longer follow from the inputs


def test_a_record_with_a_different_seed_fails_the_seed_check(record) -> None:
    tampered = copy.deepcopy(record)
    tampered["seed"] += 1
    assert failing(tampered) == ["seed", "play"]


def _tamper(record: dict, change) -> dict:
    tampered = copy.deepcopy(record)
    change(tampered["fairness"])
    return tampered


def _move_to_the_bot_seat(fair: dict) -> None:
    human, bot = fair["values"][0], fair["values"][1]
    bot["value"], bot["by"], human["value"], human["by"] = human["value"], "player", None, "bot"


def _relabel(fair: dict) -> None:
    fair["values"][0]["by"] = "bot"
    fair["values"][0]["value"] = None


def _swap_accounts(fair: dict) -> None:
    fair["values"][0]["account"], fair["values"][2]["account"] = fair["values"][2]["account"], 17


@pytest.mark.parametrize(
    "change",
    [
        _move_to_the_bot_seat,  # a human's value moved onto a bot's seat
        _relabel,  # a player's seat relabelled as a bot's
        lambda fair: fair.update(attempt=2),  # another attempt
        _swap_accounts,  # the players' accounts swapped between seats
        lambda fair: fair["values"][1].update(account=99),  # another account in the bot's seat
        lambda fair: fair.update(table=8),  # another table
    ],
    ids=["value moved to a bot's seat", "by relabelled", "attempt changed", "accounts swapped", "account replaced",
         "table changed"],
)  # fmt: skip
def test_each_tamper_with_the_seats_or_the_attempt_fails_the_seed_check(record, change) -> None:
    assert "seed" in failing(_tamper(record, change))


def test_a_value_relabelled_as_drawn_by_the_site_is_not_a_v2_record(record) -> None:
    tampered = _tamper(record, lambda fair: fair["values"][0].update(by="site"))
    with pytest.raises(fairness.Malformed, match="kind 'site' is not one of player, bot"):
        fairness.check_record(tampered, engines=catalog.ENGINES)


def test_the_players_replaced_by_names_is_not_a_record_the_site_writes(record) -> None:
    tampered = copy.deepcopy(record)
    tampered["players"] = ["Ada", "Bob", "Cy"]  # the engine would deal the same game for names
    with pytest.raises(fairness.Malformed, match="players is not a number of seats"):
        fairness.check_record(tampered, engines=catalog.ENGINES)


def test_a_card_written_as_a_float_fails_the_play_check(sita_record) -> None:
    tampered = copy.deepcopy(sita_record)
    turn = tampered["rounds"][0]["turns"][0]
    turn["chosen"][0] = float(turn["chosen"][0])  # 57 → 57.0: equal in Python, not in the record
    assert failing(tampered) == ["play"]
    in_actions = copy.deepcopy(sita_record)
    in_actions["fairness"]["actions"][0][1]["card"] = float(in_actions["fairness"]["actions"][0][1]["card"])
    assert "actions" in failing(in_actions)


def test_zero_for_false_fails_the_play_check(sita_record) -> None:
    tampered = copy.deepcopy(sita_record)
    placement = tampered["rounds"][0]["turns"][0]["placements"][0]
    assert placement["too_low"] is False
    placement["too_low"] = 0  # equal in Python, not in the record
    assert failing(tampered) == ["play"]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda fair: fair.update(table=2**64), "table id is not a whole number from 0 to 2^64 - 1"),
        (lambda fair: fair.update(table=True), "table id"),
        (lambda fair: fair.update(attempt=1.0), "attempt"),
        (lambda fair: fair["values"][0].update(account="17"), "account id"),
        (lambda fair: fair.update(actions=[[0, "play"]]), "action 1 is not [seat, action]"),
        (lambda fair: fair.update(seed=str(fair["seed"])), "seed is not a whole number"),
    ],
)
def test_malformed_fairness_data_is_not_verifiable_and_names_what_is_wrong(record, change, words) -> None:
    with pytest.raises(fairness.Malformed, match=words.replace("^", r"\^").replace("[", r"\[")):
        fairness.check_record(_tamper(record, change), engines=catalog.ENGINES)


def test_malformed_fairness_data_names_every_problem(record) -> None:
    tampered = copy.deepcopy(record)
    tampered["fairness"]["values"][1] = {"seat": 1, "value": "zz", "by": "bot", "account": 3}
    del tampered["fairness"]["actions"]
    with pytest.raises(fairness.Malformed) as refused:
        fairness.check_record(tampered, engines=catalog.ENGINES)
    assert "seat 2 is a bot but has a value" in str(refused.value) and "actions are missing" in str(refused.value)


def test_an_old_record_is_not_verifiable(record) -> None:
    old = {key: value for key, value in record.items() if key != "fairness"}
    with pytest.raises(fairness.NotVerifiable, match="not verifiable"):
        fairness.check_record(old, engines=catalog.ENGINES)


def test_the_command_line_verifier_prints_each_check_and_exits_non_zero_on_failure(record, tmp_path, capsys) -> None:
    good, bad, old, huge = (tmp_path / name for name in ("good.json", "bad.json", "old.json", "huge.json"))
    good.write_text(json.dumps(record))
    bad.write_text(json.dumps(_tamper(record, lambda fair: fair.update(secret="33" * 32))))
    old.write_text(json.dumps({key: value for key, value in record.items() if key != "fairness"}))
    huge.write_text(json.dumps(_tamper(record, lambda fair: fair.update(table=2**64))))

    assert verify.main([str(good)]) == 0
    out = capsys.readouterr().out
    assert "✓ commitment" in out and "✓ seed" in out and "✓ round 1" in out and "All checks passed" in out
    # It says what it did not prove: the commitment's timing, without the one the player noted.
    assert "· timing: not proved" in out and "Not proved: that the commitment was shown before the start" in out
    assert verify.main(["--commitment", record["fairness"]["commitment"], str(good)]) == 0
    out = capsys.readouterr().out
    assert "✓ timing" in out and "Proved: the secret was fixed before the start" in out
    assert verify.main(["--commitment", "ab" * 32, str(good)]) == 1
    assert "✗ timing" in capsys.readouterr().out
    assert verify.main([str(bad)]) == 1
    out = capsys.readouterr().out
    assert "✗ commitment" in out and "FAILED: commitment" in out
    assert verify.main([str(old)]) == 2
    assert "not verifiable" in capsys.readouterr().out
    assert verify.main([str(huge)]) == 2
    assert "table id is not a whole number" in capsys.readouterr().out
    assert verify.main([str(tmp_path / "missing.json")]) == 2


def test_the_verifier_runs_with_the_standard_library_and_the_engines_alone(record, tmp_path) -> None:
    """A fresh interpreter, without the site's settings; Django imports are made to fail."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    guard = (
        "import sys, runpy\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('django', 'channels', 'celery', 'psycopg', 'tables', 'config'):\n"
        "            raise ImportError('not allowed: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        f"sys.argv = ['games.records.verify', {str(path)!r}]\n"
        "runpy.run_module('games.records.verify', run_name='__main__')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", guard],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "✓ commitment" in result.stdout and "✗" not in result.stdout


def test_a_deal_from_the_sites_secret_alone_says_so_and_proves_no_players_part(tmp_path, capsys) -> None:
    """Every human absent at a scheduled table's start: every seat the house's, no value sent. The
    record still checks, but nothing in it came from a player, so the verifier must not read as if
    it had (issue 55)."""
    house = played_record("sita", {"matches": 1}, 3, [None, None, None], accounts=ACCOUNTS)
    path = tmp_path / "house.json"
    path.write_text(json.dumps(house))
    assert verify.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "✓ seed" in out and "0 player value(s)" in out
    assert "All checks passed.\n" not in out
    assert "no player sent a value: the deal comes from the site's secret alone" in out
    assert "Proved: the seed follows from the secret, its commitment and the inputs above" not in out
    assert "Not proved: that the site did not choose the cards." in out
    # A noted commitment proves the secret's timing, not that the site did not pick it.
    assert verify.main(["--commitment", house["fairness"]["commitment"], str(path)]) == 0
    out = capsys.readouterr().out
    assert "Proved: the secret was fixed before the start" not in out and "did not choose the cards" in out
    # One player's value is enough for the usual proof.
    assert fairness.site_alone({"values": [{"by": "bot"}, {"by": "player"}]}) is False


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda fair: fair.update(note="dealt by hand"), "keys the protocol does not write: note"),
        (
            lambda fair: fair["values"][0].update(name="Tiia"),
            "seat 1's entry has keys the protocol does not write: name",
        ),
        (lambda fair: fair.pop("attempt"), "lacks attempt"),
        (lambda fair: fair.pop("hmac"), "lacks hmac"),
    ],
)
def test_a_fairness_key_the_protocol_does_not_write_or_a_missing_one_is_refused(record, change, words) -> None:
    with pytest.raises(fairness.Malformed, match=words):
        fairness.check_record(_tamper(record, change), engines=catalog.ENGINES)


def test_a_fair_v1_record_needs_no_attempt_its_message_does_not_bind(v1_record) -> None:
    """docs/fairness.md: fair-v1 binds no attempt; the site wrote one, but a record without it
    is as checkable, and one with an extra key is not."""
    bare = _tamper(v1_record, lambda fair: fair.pop("attempt"))
    checks = fairness.check_record(bare, engines=catalog.ENGINES)
    assert all(check.ok is not False for check in checks)
    with pytest.raises(fairness.Malformed, match="keys the protocol does not write: account"):
        fairness.check_record(
            _tamper(v1_record, lambda fair: fair["values"][0].update(account=17)), engines=catalog.ENGINES
        )
