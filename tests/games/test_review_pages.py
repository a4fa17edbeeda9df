"""Reviews shown (issue 42): the game page's accuracy and costliest decisions, the replay's marks
and values, the profile's accuracy, each player's choice of who may read theirs, and never a
card the seat could not see at that decision."""

from __future__ import annotations

import re

import pytest
from django.db.models import Max
from django.urls import reverse

from accounts.models import User
from games.catalog import get_engine
from games.models import Match, MatchEvent, Review, ReviewDecision
from games.selectors.history import replay_frame
from games.services import reviews
from tests.games.history_helpers import play_to_end, started_match


def _reviewed(host, player, game: str, options: dict) -> Match:
    match = play_to_end(started_match(host, game, humans=(player,), options=options))
    assert match.status == Match.Status.FINISHED
    reviews.reviews_dispatch()
    for review in Review.objects.filter(match=match):
        assert reviews.review_run(review_id=review.pk)
    return match


@pytest.fixture
def reviewed(reviews_on, host, player) -> Match:
    return _reviewed(host, player, "sita", {"matches": 1})


def _mark_a_mistake(match: Match, seat: int) -> ReviewDecision:
    """Decision 1 of ``seat`` made a mistake (not a blunder, whatever the review found) costing 2.5
    more than any other of the seat's decisions cost: the page's costliest three always show it."""
    decisions = ReviewDecision.objects.filter(review__match=match, review__seat=seat)
    item = decisions.order_by("index")[1]
    best = next(row["action"] for row in item.values if row["action"] != item.action)
    loss = round(decisions.aggregate(Max("loss"))["loss__max"] or 0, 1) + 2.5
    ReviewDecision.objects.filter(pk=item.pk).update(mistake=True, blunder=False, loss=loss, best_action=best)
    return ReviewDecision.objects.get(pk=item.pk)


def test_the_game_page_shows_each_players_accuracy_and_costliest_decisions(reviewed, client, host) -> None:
    item = _mark_a_mistake(reviewed, 0)
    client.force_login(host)
    page = client.get(reverse("match", args=[reviewed.pk])).content.decode()
    assert 'id="review"' in page
    host_review = Review.objects.get(match=reviewed, seat=0)
    assert f"{host_review.accuracy:.0f} %" in page
    assert "the bot preferred" in page
    assert f"card {item.best_action['card']}" in page
    # Why, in a player's words: an average over deals like this one, never only "expected points".
    played, best = f"card {item.action['card']}", f"card {item.best_action['card']}"
    assert (
        f"With these cards, {best} took about {item.loss:.1f} fewer penalty points than {played} "
        f"on average over {item.samples} deals like this one." in page
    )
    assert page.count('class="card-panel review-player"') == 2


def test_a_review_waiting_says_so(reviews_on, host, player, client) -> None:
    match = play_to_end(started_match(host, "sita", humans=(player,), options={"matches": 1}))
    client.force_login(player)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "The review is being prepared" in page


def test_by_default_only_the_games_players_see_its_reviews(reviewed, client, player, outsider) -> None:
    client.force_login(outsider)
    assert 'id="review"' not in client.get(reverse("match", args=[reviewed.pk])).content.decode()
    assert client.get(reverse("match_reviews", args=[reviewed.pk])).json() == {"reviews": []}
    client.force_login(player)
    seats = [row["seat"] for row in client.get(reverse("match_reviews", args=[reviewed.pk])).json()["reviews"]]
    assert seats == [0, 1]


def test_each_player_chooses_who_sees_theirs(reviewed, client, host, player, outsider) -> None:
    User.objects.filter(pk=host.pk).update(review_visibility=User.ReviewVisibility.EVERYONE)
    User.objects.filter(pk=player.pk).update(review_visibility=User.ReviewVisibility.ME)
    client.force_login(outsider)
    assert [row["seat"] for row in client.get(reverse("match_reviews", args=[reviewed.pk])).json()["reviews"]] == [0]
    client.force_login(host)
    assert [row["seat"] for row in client.get(reverse("match_reviews", args=[reviewed.pk])).json()["reviews"]] == [0]
    client.force_login(player)
    assert [row["seat"] for row in client.get(reverse("match_reviews", args=[reviewed.pk])).json()["reviews"]] == [
        0,
        1,
    ]
    client.logout()
    assert [row["seat"] for row in client.get(reverse("match_reviews", args=[reviewed.pk])).json()["reviews"]] == [0]


def test_the_profile_setting_is_saved(client, player) -> None:
    client.force_login(player)
    url = reverse("profile", args=[player.username])
    client.post(url, {"display_name": "", "language": "", "review_visibility": "everyone"})
    assert User.objects.get(pk=player.pk).review_visibility == "everyone"


def test_the_replay_marks_each_mistake_and_shows_the_values_at_a_decision(reviewed, client, host) -> None:
    item = _mark_a_mistake(reviewed, 0)
    client.force_login(host)
    url = reverse("match_replay", args=[reviewed.pk])
    first = client.get(url).content.decode()
    steps = replay_frame(match=reviewed, step=0)["steps"]
    step = next(
        i for i, s in enumerate(steps) if s["round"]["number"] == item.round and s.get("turn_number") == item.moment
    )
    assert f'href="?step={step}"' in first  # the mark links to the mistake's step
    page = client.get(url, {"step": step}).content.decode()
    assert 'class="review-decision mistake"' in page
    assert "Value of each action" in page
    assert f"averaged over {item.samples} deals like this one" in page
    assert "Chance of leading: in how many of those deals you were ahead of every other player" in page
    for row in item.values:
        assert f"card {row['action']['card']}" in page
    # A step with no decision of a visible review shows the marks only.
    assert 'class="review-decision' not in client.get(url, {"step": 0}).content.decode()


def test_the_profile_shows_average_accuracy_per_game(reviewed, client, host, outsider) -> None:
    client.force_login(host)
    page = client.get(reverse("profile", args=[host.username])).content.decode()
    assert 'id="review-accuracy"' in page
    assert f"{Review.objects.get(match=reviewed, seat=0).accuracy:.0f} %" in page
    client.force_login(outsider)  # "the players of that game": not across games
    assert 'id="review-accuracy"' not in client.get(reverse("profile", args=[host.username])).content.decode()


def _hands_at_each_decision(match: Match, seat: int) -> dict[int, list]:
    engine = get_engine(match.game)
    state = engine.new_game(match.players, match.options, match.seed)
    hands = {}
    for event in MatchEvent.objects.filter(match=match).order_by("version"):
        if event.seat == seat:
            hands[event.version] = (
                engine.view(state, seat)["hand"],
                [engine.view(state, other)["hand"] for other in range(match.players) if other != seat],
            )
        state = engine.apply(state, event.seat, event.action)
    return hands


@pytest.mark.parametrize(("game", "options"), [("sita", {"matches": 1}), ("estimation", {"length": "micro"})])
def test_a_review_never_shows_a_card_its_seat_could_not_see(reviews_on, host, player, client, game, options) -> None:
    match = _reviewed(host, player, game, options)
    client.force_login(host)
    data = client.get(reverse("match_reviews", args=[match.pk])).json()["reviews"]
    versions = {item.index: item.version for item in ReviewDecision.objects.filter(review__match=match, review__seat=0)}
    hands = _hands_at_each_decision(match, 0)
    mine = next(row for row in data if row["seat"] == 0)
    assert mine["decisions"]
    for decision in mine["decisions"]:
        own, others = hands[versions[decision["index"]]]
        hidden = {card for hand in others for card in hand} - set(own)
        mentioned = [decision["action"], decision["best_action"], *(row["action"] for row in decision["values"])]
        cards = {action["card"] for action in mentioned if "card" in action}
        assert cards <= set(own)
        assert not cards & hidden
    # Nor on the page: the replay's review of seat 0's decision holds none of the others' cards.
    first = ReviewDecision.objects.filter(review__match=match, review__seat=0, moment__gt=0).order_by("index").first()
    steps = replay_frame(match=match, step=0)["steps"]
    step = next(
        index
        for index, frame in enumerate(steps)
        if frame["round"]["number"] == first.round
        and frame.get("trick_number", frame.get("turn_number")) == first.moment
    )
    page = client.get(reverse("match_replay", args=[match.pk]), {"step": step}).content.decode()
    shown = re.search(r'<div class="review-decision[^"]*" data-seat="0">.*?</details>', page, re.S)
    assert shown is not None
    own, others = hands[first.version]
    cells = set(re.findall(r"<td>(?:card )?([^<\s]+)", shown.group(0)))
    assert cells
    assert not cells & ({str(card) for hand in others for card in hand} - {str(card) for card in own})


def test_a_reviewed_player_muted_site_wide_is_named_as_public_lists_name_them(
    reviewed, client, host, player, admin_user
) -> None:
    # RULING P54: the review's names follow the mute as every other list does, each in <bdi>.
    from datetime import timedelta

    from django.utils import timezone

    from chat import services as chat

    player.display_name = "FREE COINS at evil.example"
    player.save()
    chat.mute_create(user=player, by=admin_user, reason="spam", until=timezone.now() + timedelta(hours=1))
    client.force_login(host)
    page = client.get(reverse("match", args=[reviewed.pk])).content.decode()
    review_panel = page[page.index('id="review"') :]
    assert f"<bdi>Player {player.pk}</bdi>" in review_panel[: review_panel.index("</section>")]
    assert "FREE COINS" not in page  # nor in the players' list or the fairness panel


def test_a_review_names_cards_and_trumps_as_the_table_shows_them() -> None:
    # As the clock's rows do (games.selectors.history.card_text): 9♣ and ♠, never the codes 9C and S.
    from games.selectors.reviews import action_text

    assert action_text({"type": "play", "card": "9C"}) == "9♣"
    assert action_text({"type": "call", "tricks": 5, "trump": "S"}) == "call 5 ♠"
