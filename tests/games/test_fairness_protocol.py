"""The fair-deal protocol and the standalone verifier, without Django (RULINGS P30-P34)."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games import verify
from games.bots import get_bot
from games.engines import get_engine
from games.records import fairness

ROOT = Path(__file__).resolve().parents[2]
SECRET = "11" * 32
VALUES = ["0123456789abcdef0123456789abcdef", None, "fedcba9876543210fedcba9876543210"]


def played_record(game: str, options: dict, players: int, values: list[str | None], table_id: int = 7) -> dict:
    """A whole game dealt by fair-v1 and played by the bots, with the fairness data the site adds."""
    commitment = fairness.commitment_of(SECRET)
    digest, seed = fairness.derive_seed(SECRET, commitment, values, table_id)
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
        "version": "fair-v1",
        "commitment": commitment,
        "secret": SECRET,
        "table": table_id,
        "attempt": 1,
        "values": [
            {"seat": seat, "value": value, "by": "player" if value else "bot"} for seat, value in enumerate(values)
        ],
        "hmac": digest,
        "seed": seed,
        "actions": actions,
    }
    return record


@pytest.fixture(scope="module")
def record() -> dict:
    return played_record("sitaratas", {"deck": "classic", "order": "up_down"}, 3, VALUES)


def test_the_seed_is_the_hmac_of_commitment_values_in_seat_order_and_table_id() -> None:
    commitment = fairness.commitment_of(SECRET)
    assert commitment == hashlib.sha256(bytes.fromhex(SECRET)).hexdigest()
    message = bytes.fromhex(commitment) + bytes.fromhex(VALUES[0]) + bytes.fromhex(VALUES[2]) + (42).to_bytes(8, "big")
    digest = hmac.new(bytes.fromhex(SECRET), message, hashlib.sha256).digest()
    assert fairness.derive_seed(SECRET, commitment, VALUES, 42) == (
        digest.hex(),
        int.from_bytes(digest[:8], "big") >> 2,
    )
    assert 0 <= fairness.derive_seed(SECRET, commitment, VALUES, 42)[1] < 2**62  # fits Match.seed


def test_the_seed_changes_when_any_players_value_changes() -> None:
    commitment = fairness.commitment_of(SECRET)
    base = fairness.derive_seed(SECRET, commitment, VALUES, 5)[1]
    for seat in (0, 2):
        for flipped in ("0" * 32, VALUES[seat][:-1] + ("0" if VALUES[seat][-1] != "0" else "1")):
            changed = list(VALUES)
            changed[seat] = flipped
            assert fairness.derive_seed(SECRET, commitment, changed, 5)[1] != base, (seat, flipped)
    swapped = [VALUES[2], None, VALUES[0]]  # the same values in another seat order
    assert fairness.derive_seed(SECRET, commitment, swapped, 5)[1] != base
    assert fairness.derive_seed(SECRET, commitment, VALUES, 6)[1] != base  # another table
    assert fairness.derive_seed("22" * 32, fairness.commitment_of("22" * 32), VALUES, 5)[1] != base


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
    values = [fairness.new_value() if seat != 1 else None for seat in range(players)]
    checks = fairness.check_record(played_record(game, options, players, values))
    assert all(check.ok for check in checks), [check.line() for check in checks if not check.ok]
    names = [check.name for check in checks]
    assert names[:3] == ["inputs", "commitment", "seed"] and names[-1] == "play"
    assert sum(name.startswith("round ") for name in names) >= 2


def failing(record: dict) -> list[str]:
    return [check.name for check in fairness.check_record(record) if not check.ok]


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


def test_malformed_fairness_data_fails_the_inputs_check_without_crashing(record) -> None:
    tampered = copy.deepcopy(record)
    tampered["fairness"]["values"][1] = {"seat": 1, "value": "zz", "by": "bot"}
    del tampered["fairness"]["actions"]
    checks = fairness.check_record(tampered)
    assert [c.name for c in checks] == ["inputs"] and not checks[0].ok
    assert "seat 2 is a bot but has a value" in checks[0].detail and "actions are missing" in checks[0].detail


def test_an_old_record_is_not_verifiable(record) -> None:
    old = {key: value for key, value in record.items() if key != "fairness"}
    with pytest.raises(fairness.NotVerifiable, match="not verifiable"):
        fairness.check_record(old)


def test_the_command_line_verifier_prints_each_check_and_exits_non_zero_on_failure(record, tmp_path, capsys) -> None:
    good, bad, old = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "old.json"
    good.write_text(json.dumps(record))
    tampered = copy.deepcopy(record)
    tampered["fairness"]["secret"] = "33" * 32
    bad.write_text(json.dumps(tampered))
    old.write_text(json.dumps({key: value for key, value in record.items() if key != "fairness"}))

    assert verify.main([str(good)]) == 0
    out = capsys.readouterr().out
    assert "✓ commitment" in out and "✓ seed" in out and "✓ round 1" in out and "All checks passed" in out
    assert verify.main([str(bad)]) == 1
    out = capsys.readouterr().out
    assert "✗ commitment" in out and "FAILED: commitment" in out
    assert verify.main([str(old)]) == 2
    assert "not verifiable" in capsys.readouterr().out
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
        f"sys.argv = ['games.verify', {str(path)!r}]\n"
        "runpy.run_module('games.verify', run_name='__main__')\n"
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
