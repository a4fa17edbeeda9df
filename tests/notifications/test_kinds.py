"""The kinds of notification are one registry (notifications/kinds.py): every kind has all its
parts, the pages and channels read them there, and a new kind needs no migration."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from away import push
from notifications import kinds, texts
from notifications.models import Notification, Preference, Sent

# The kinds as they were before the registry: rows, e-mails and device notices depend on each value.
BEFORE = {
    "friend_request": ("Friend requests", "%(name)s asks to be your friend.", 24 * 3600, False),
    "friend_accepted": ("Accepted friend requests", "%(name)s accepted your friend request.", 24 * 3600, False),
    "invite": ("Invitations to a table", "%(name)s invites you to a %(game)s table (#%(table)s).", 3600, False),
    "rematch_offer": ("Rematch offers", "%(name)s offers a rematch of %(game)s.", 300, False),
    "table_starting": ("Your table is starting", "Your %(game)s table (#%(table)s) is starting.", 300, True),
    "tournament_starting": (
        "A tournament is starting",
        "The tournament %(title)s starts in %(minutes)s min.",
        300,
        True,
    ),
    "round_ready": (
        "Your next tournament round is ready",
        "Round %(round)s of %(title)s: your table is ready.",
        300,
        True,
    ),
    "your_turn": ("It is your turn", "It is your turn at the %(game)s table (#%(table)s).", 900, True),
}


def test_every_kind_has_a_label_a_sentence_and_a_time_to_live() -> None:
    for kind in kinds.all_kinds():
        assert str(kind.label) and str(kind.sentence)
        assert kind.ttl > 0
        assert len(kind.code) <= Notification._meta.get_field("kind").max_length


def test_the_existing_kinds_keep_their_codes_words_lifetimes_and_urgency_in_their_order() -> None:
    assert [kind.code for kind in kinds.all_kinds()][: len(BEFORE)] == list(BEFORE)
    for code, (label, sentence, ttl, urgent) in BEFORE.items():
        kind = kinds.get(code)
        assert (str(kind.label), str(kind.sentence), kind.ttl, kind.urgent) == (label, sentence, ttl, urgent)


@pytest.mark.django_db
def test_each_kind_reads_as_its_own_sentence_and_is_pushed_as_the_registry_says(host, player) -> None:
    now = timezone.now()
    for kind in kinds.all_kinds():
        row = Notification(
            recipient=player, actor=host, kind=kind.code, data={"game": "sita"}, created_at=now, expires_at=now
        )
        assert (
            texts.text(row)
            == (
                str(kind.sentence)
                % {
                    "name": host.name,
                    "game": "SITA",
                    "table": "",
                    "title": "",
                    "round": "",
                    "minutes": "",
                    "rank": "",
                    "players": "",
                    "prize": "",
                }
            ).strip()
        )
        assert push.ttl_of(row, now=now) == kind.ttl


@pytest.mark.django_db
def test_a_retired_kind_still_reads_and_lives_a_day(host, player) -> None:
    now = timezone.now()
    row = Notification(recipient=player, actor=host, kind="retired_kind", created_at=now, expires_at=now)
    assert texts.text(row) == f"{host.name} sent you a notification."
    assert push.ttl_of(row, now=now) == 24 * 3600
    assert not kinds.get(row.kind).urgent and not kinds.known(row.kind)


@pytest.mark.django_db
def test_the_preferences_page_lists_each_kind_with_each_way(client, player) -> None:
    client.force_login(player)
    page = client.get(reverse("notification_settings")).content.decode()
    for kind in kinds.all_kinds():
        assert f'<th scope="row">{kind.label}</th>' in page
        for way in Preference.WAYS:
            assert f'name="{kind.code}-{way}"' in page


def test_the_models_choices_are_the_registry_so_a_new_kind_needs_no_migration() -> None:
    for model in (Notification, Preference, Sent):
        field = model._meta.get_field("kind")
        assert field.deconstruct()[3]["choices"] is kinds.choices
        assert [code for code, _label in field.choices] == [kind.code for kind in kinds.all_kinds()]


def test_a_code_too_long_for_its_column_or_taken_by_another_kind_is_refused() -> None:
    with pytest.raises(ValueError):
        kinds.register(kinds.Kind("x" * 33, "Label", "Sentence"))
    with pytest.raises(ValueError):
        kinds.register(kinds.Kind(kinds.INVITE, "Another label", "Another sentence"))
    assert str(kinds.get(kinds.INVITE).label) == "Invitations to a table"
