"""``manage.py verify_matches``: replays every match and checks the ledgers (issue 28)."""

from __future__ import annotations

import logging
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.catalog import get_engine
from games.models import Match, MatchEvent, MatchPlayer
from ops.tasks import verify_matches_nightly
from tests.conftest import make_user
from tests.ops.helpers import finished_staked_game
from tests.tables.helpers import start_sitaratas_with_a_bot

pytestmark = pytest.mark.django_db


def verify(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("verify_matches", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def refused(*args: str) -> tuple[str, str]:
    err = StringIO()
    with pytest.raises(CommandError) as raised:
        call_command("verify_matches", *args, stdout=StringIO(), stderr=err)
    return str(raised.value), err.getvalue()


def test_untouched_games_and_ledgers_report_no_difference(host, player, outsider) -> None:
    finished = finished_staked_game(host, player)
    in_play = start_sitaratas_with_a_bot(outsider, make_user("otto"))
    assert finished.status == Match.Status.FINISHED and in_play.status == Match.Status.PLAYING

    out, err = verify()

    assert "2 match(es)" in out and out.strip().endswith("OK") and err == ""
    assert f"{MatchEvent.objects.count()} event(s)" in out


def test_a_tampered_state_is_reported_with_a_non_zero_exit(host, player) -> None:
    match = start_sitaratas_with_a_bot(host, player)
    engine = get_engine(match.game)
    state = engine.loads(match.state)
    # Another legal state: the game as if the next move had been made, with no event logged for it.
    seat = engine.to_act(state)[0]
    moved_on = engine.dumps(engine.apply(state, seat, engine.legal_actions(state, seat)[0]))
    Match.objects.filter(pk=match.pk).update(state=moved_on)

    summary, report = refused()

    assert "1 difference(s)" in summary
    assert f"match {match.pk} (table {match.table_id}, sitaratas): stored state differs" in report


def test_a_finished_games_fair_deal_data_is_checked_too(host, player) -> None:
    # RULING P33: the record carries the revealed secret; a secret that does not match the
    # commitment published before the start is a difference.
    finished = finished_staked_game(host, player)
    assert "fairness" in finished.record
    verify()  # untouched, it verifies
    record = {**finished.record, "fairness": {**finished.record["fairness"], "secret": "00" * 32}}
    Match.objects.filter(pk=finished.pk).update(record=record)

    summary, report = refused()

    assert "fair deal check failed: ✗ commitment" in report


def test_a_lost_event_a_wrong_record_and_a_wrong_payout_are_each_reported(host, player) -> None:
    match = finished_staked_game(host, player)
    MatchPlayer.objects.filter(match=match, user=host).update(payout=7)
    record = dict(match.record, totals=[total + 1 for total in match.record["totals"]])
    Match.objects.filter(pk=match.pk).update(record=record)

    _, report = refused()

    assert "stored record differs from the replayed game's record" in report
    assert f"players' recorded payouts {{user {host.pk}: 7" in report

    MatchEvent.objects.filter(match=match, version=3).delete()
    _, report = refused()
    assert "event log has version 4 where 3 was expected (a move lost or doubled)" in report


def test_since_limits_the_replay_to_recent_games(host, player) -> None:
    match = start_sitaratas_with_a_bot(host, player)
    Match.objects.filter(pk=match.pk).update(state="tampered")

    out, _ = verify("--since", "2999-01-01")

    assert "0 match(es)" in out and out.strip().endswith("OK")
    with pytest.raises(CommandError):
        call_command("verify_matches", "--since", "not a date", stdout=StringIO(), stderr=StringIO())


def test_the_nightly_task_logs_the_result(host, player, caplog) -> None:
    match = start_sitaratas_with_a_bot(host, player)
    with caplog.at_level(logging.INFO, logger="ops.integrity"):
        assert verify_matches_nightly() is True
    assert caplog.records[-1].levelname == "INFO" and caplog.records[-1].differences == 0

    Match.objects.filter(pk=match.pk).update(state="tampered")
    with caplog.at_level(logging.INFO, logger="ops.integrity"):
        assert verify_matches_nightly() is False
    assert caplog.records[-1].levelname == "ERROR" and "stored state differs" in caplog.records[-1].getMessage()
