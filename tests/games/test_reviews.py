"""Game reviews (issue 42): queued when a game ends, evaluated from each seat's own view on the
review queue, stored once, never for a game in play, within the queue limits; the admin re-runs."""

from __future__ import annotations

import math

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse

from config.celery import app
from core import metrics
from games import catalog
from games.catalog import get_engine
from games.models import Match, MatchEvent, Review, ReviewDecision
from games.services import reviews
from tests.conftest import make_user
from tests.games.history_helpers import finished_match, play_to_end, started_match


def short_game(host, *humans) -> Match:
    """A one-match SITA game at three seats, every action through the services (real events)."""
    return play_to_end(started_match(host, "sita", humans=humans, options={"matches": 1}))


@pytest.fixture
def played(reviews_on, host, player) -> Match:
    match = short_game(host, player)
    assert match.status == Match.Status.FINISHED
    return match


def test_a_finished_game_asks_a_review_for_each_human_seat_only(played, host, player) -> None:
    rows = Review.objects.filter(match=played).order_by("seat")
    assert [(row.seat, row.user) for row in rows] == [(0, host), (1, player)]
    assert {row.status for row in rows} == {Review.Status.PENDING}


def test_reviews_are_asked_after_the_games_commit_and_run_on_the_review_queue(
    reviews_on, host, eager_bots, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    sent = []
    monkeypatch.setattr("games.tasks.review_run.delay", lambda review_id: sent.append(review_id))
    match = started_match(host, "sita", options={"matches": 1})
    with django_capture_on_commit_callbacks(execute=True):
        match = play_to_end(match)
    review = Review.objects.get(match=match)
    assert sent == [review.pk]
    assert review.status == Review.Status.QUEUED
    route = app.amqp.router.route({}, "games.tasks.review_run")
    assert route["queue"].name == app.conf.task_routes["games.tasks.review_run"]["queue"]
    assert route["queue"].name != app.conf.task_default_queue


def test_a_review_stores_every_decision_from_the_seats_own_view(played, host, monkeypatch) -> None:
    seen = []
    real = reviews.evaluate
    monkeypatch.setattr(reviews, "evaluate", lambda view, rng, samples: seen.append(view) or real(view, rng, samples))
    review = Review.objects.get(match=played, seat=0)
    reviews.reviews_dispatch()
    assert reviews.review_run(review_id=review.pk)

    engine = get_engine("sita")
    state = engine.new_game(played.players, played.options, played.seed)
    expected = []
    for event in MatchEvent.objects.filter(match=played).order_by("version"):
        if event.seat == 0 and len(engine.legal_actions(state, 0)) > 1:
            expected.append((event.version, engine.view(state, 0), event.action))
        state = engine.apply(state, event.seat, event.action)
    assert seen == [view for _, view, _ in expected]
    items = list(ReviewDecision.objects.filter(review=review))
    assert [(item.version, item.action) for item in items] == [(version, action) for version, _, action in expected]
    assert [item.index for item in items] == list(range(1, len(items) + 1))
    for item, (_, view, _) in zip(items, expected):
        assert all(row["action"] in view["legal_actions"] for row in item.values)
        assert item.best_action == item.values[0]["action"]
        assert item.loss == pytest.approx(max(0.0, item.value - item.best_value))  # SITA: fewer is better

    review.refresh_from_db()
    game = catalog.get("sita")
    assert review.status == Review.Status.DONE
    assert review.decisions == len(items)
    assert review.mistakes == sum(game.mistake <= item.loss < game.blunder for item in items)
    assert review.blunders == sum(item.loss >= game.blunder for item in items)
    assert review.average_loss == pytest.approx(sum(item.loss for item in items) / len(items))
    assert review.accuracy == pytest.approx(
        sum(100 * math.exp(-item.loss / game.mistake) for item in items) / len(items)
    )
    assert review.runs == 1 and review.samples == sum(item.samples for item in items)


def test_a_decisions_generator_is_fixed_when_it_opens_not_by_the_choices_locked_in_before_it(
    played, monkeypatch
) -> None:
    """In SITA's simultaneous choice the two players' decisions of a turn open together: each is
    weighed with the generator of that moment, whichever of them locked in first (RULING P65)."""
    used: dict[tuple[int, int], int] = {}  # (seat, decision's version) -> the generator's version
    real = reviews.secret_rng
    versions: list[tuple[int, int]] = []

    def recorded(purpose, match_id, seat, version):
        versions.append((seat, version))
        return real(purpose, match_id, seat, version)

    monkeypatch.setattr(reviews, "secret_rng", recorded)
    reviews.reviews_dispatch()
    for review in Review.objects.filter(match=played).order_by("seat"):
        versions.clear()
        assert reviews.review_run(review_id=review.pk)
        items = list(ReviewDecision.objects.filter(review=review).order_by("index"))
        for item, (seat, version) in zip(items, versions, strict=True):
            used[(seat, item.version)] = version
    turns: dict[tuple[int, int], dict[int, int]] = {}
    for item in ReviewDecision.objects.filter(review__match=played, action__type="choose"):
        turns.setdefault((item.round, item.moment), {})[item.review.seat] = used[(item.review.seat, item.version)]
    both = [by_seat for by_seat in turns.values() if len(by_seat) == 2]
    assert both  # the two players chose cards in the same turns
    assert all(by_seat[0] == by_seat[1] for by_seat in both), both


def test_running_a_review_twice_stores_it_once(played) -> None:
    review = Review.objects.get(match=played, seat=1)
    reviews.reviews_dispatch()
    assert reviews.review_run(review_id=review.pk)
    stored = list(ReviewDecision.objects.filter(review=review).values_list("pk", flat=True))
    assert not reviews.review_run(review_id=review.pk)
    assert list(ReviewDecision.objects.filter(review=review).values_list("pk", flat=True)) == stored
    assert Review.objects.get(pk=review.pk).runs == 1


def test_a_game_in_play_is_never_reviewed(reviews_on, host) -> None:
    match = play_to_end(started_match(host, "sita", options={"matches": 1}), stop_after=3)
    assert match.status == Match.Status.PLAYING
    review = Review.objects.create(
        match=match, seat=0, user=host, status=Review.Status.QUEUED, requested_at=match.started_at
    )
    assert not reviews.review_run(review_id=review.pk)
    assert not ReviewDecision.objects.filter(review=review).exists()
    assert Review.objects.get(pk=review.pk).status == Review.Status.QUEUED


@pytest.mark.parametrize("cost", [0.0, 0.01, 10.0])
def test_every_decision_is_weighed_on_the_same_count_of_samples_however_slow_the_cpu(
    played, settings, monkeypatch, cost
) -> None:
    """RULING P64: the budget is a count of samples, so a busy (or a faster) worker gives the
    same review, figure for figure."""
    clock = [0.0]  # a CPU clock of the test's own: each sample of each action costs ``cost``
    real = reviews.evaluate

    def timed(view, rng, samples):
        evaluation = real(view, rng, samples)
        clock[0] += cost * samples * len(evaluation.values)
        return evaluation

    monkeypatch.setattr(reviews, "evaluate", timed)
    monkeypatch.setattr(reviews.time, "thread_time", lambda: clock[0])
    settings.REVIEW_SAMPLES = 30
    review = Review.objects.get(match=played, seat=0)
    reviews.reviews_dispatch()
    reviews.review_run(review_id=review.pk)
    items = list(ReviewDecision.objects.filter(review=review).order_by("index"))
    assert items and {item.samples for item in items} == {30}
    figures = [(item.action, item.values, item.loss) for item in items]
    clock[0] = 0.0
    Review.objects.filter(pk=review.pk).update(status=Review.Status.QUEUED)
    monkeypatch.setattr(reviews, "evaluate", real)
    reviews.review_run(review_id=review.pk)
    stored = ReviewDecision.objects.filter(review=review).order_by("index")
    again = [(item.action, item.values, item.loss) for item in stored]
    assert again == figures
    review.refresh_from_db()
    assert review.samples == 30 * len(items)


def test_the_queue_keeps_to_the_per_player_and_site_wide_limits(reviews_on, settings, host, player) -> None:
    settings.REVIEW_QUEUE_PER_USER = 1
    settings.REVIEW_QUEUE_SITE = 2
    third = make_user("tiia")
    for _ in range(2):
        finished_match(host, "sita", humans=(player, third))
    assert Review.objects.filter(status=Review.Status.PENDING).count() == 6
    first = reviews.reviews_dispatch()
    assert len(first) == 2
    assert len({Review.objects.get(pk=pk).user_id for pk in first}) == 2  # one each: the player limit
    assert reviews.reviews_dispatch() == []  # the site is full
    assert metrics.REVIEWS_WAITING._value.get() == 6
    Review.objects.filter(pk=first[0]).update(status=Review.Status.DONE)
    still = Review.objects.get(pk=first[1]).user_id
    pending = Review.objects.filter(status=Review.Status.PENDING).exclude(user_id=still)
    oldest = pending.order_by("requested_at", "pk").first()
    assert reviews.reviews_dispatch() == [oldest.pk]  # the oldest whose player has none in line


def test_metrics_count_the_reviews_time(played) -> None:
    before = metrics.REVIEW_DECISIONS.labels("sita")._value.get()
    review = Review.objects.get(match=played, seat=0)
    reviews.reviews_dispatch()
    reviews.review_run(review_id=review.pk)
    review.refresh_from_db()
    assert metrics.REVIEW_DECISIONS.labels("sita")._value.get() == before + review.decisions
    assert review.cpu_seconds > 0


def test_an_admin_re_runs_a_review_saying_why(played, admin_user, client, monkeypatch) -> None:
    monkeypatch.setattr("games.tasks.review_run.delay", lambda review_id: None)
    review = Review.objects.get(match=played, seat=0)
    reviews.reviews_dispatch()
    reviews.review_run(review_id=review.pk)
    client.force_login(admin_user)
    url = reverse("admin:games_review_changelist")
    asked = client.post(url, {"action": "rerun", "_selected_action": [review.pk]})
    assert b"Reason" in asked.content
    assert Review.objects.get(pk=review.pk).status == Review.Status.DONE  # nothing yet

    client.post(url, {"action": "rerun", "_selected_action": [review.pk], "apply": "1", "reason": "new bot"})
    review.refresh_from_db()
    assert review.status == Review.Status.PENDING and review.reason == "new bot"
    assert LogEntry.objects.filter(object_id=str(review.pk), change_message__contains="new bot").exists()
    reviews.reviews_dispatch()
    assert reviews.review_run(review_id=review.pk)
    assert Review.objects.get(pk=review.pk).runs == 2


def test_a_re_run_is_refused_without_a_reason_or_while_waiting(played, admin_user, player) -> None:
    review = Review.objects.get(match=played, seat=0)
    with pytest.raises(reviews.ReviewError, match="already waiting"):
        reviews.review_rerun(review_id=review.pk, by=admin_user, reason="again")
    with pytest.raises(reviews.ReviewError, match="reason"):
        reviews.review_rerun(review_id=review.pk, by=admin_user, reason=" ")
    with pytest.raises(reviews.ReviewError, match="admin"):
        reviews.review_rerun(review_id=review.pk, by=player, reason="again")
    assert Review.objects.get(pk=review.pk).reason == ""


def test_a_review_whose_worker_died_waits_in_line_again(played, settings) -> None:
    from datetime import timedelta

    review = Review.objects.get(match=played, seat=0)
    reviews.reviews_dispatch()
    started = played.ended_at
    Review.objects.filter(pk=review.pk).update(status=Review.Status.RUNNING, started_at=started)
    budget = reviews.STALE_AFTER
    reviews.reviews_dispatch(now=started + budget - timedelta(seconds=1))
    assert Review.objects.get(pk=review.pk).status == Review.Status.RUNNING  # still within its time
    queued = reviews.reviews_dispatch(now=started + budget + timedelta(seconds=1))
    assert review.pk in queued
    assert reviews.review_run(review_id=review.pk)
