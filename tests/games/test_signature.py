"""The Sitaratas and the signature on the result (RULINGS S9, S13, S14), against the real PostgreSQL."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Match, MatchPlayer, Signature
from games.selectors.history import sitaratas_player
from games.services import GameError, signature_add
from tables.render import fragment
from tests.conftest import make_user
from tests.games.history_helpers import finished_match, started_match

pytestmark = pytest.mark.django_db


def set_totals(match: Match, totals: list[int]) -> None:
    for seat, total in enumerate(totals):
        MatchPlayer.objects.filter(match=match, seat=seat).update(total=total)


@pytest.fixture
def finished(host, player, outsider) -> Match:
    """A finished three-player Sitaratas game with no bot, so the Sitaratas is a person."""
    return finished_match(host, "sitaratas", humans=(player, outsider))


def sitaratas_user(match: Match):
    return sitaratas_player(match).user


def test_the_sitaratas_is_the_lowest_total_and_the_earliest_seat_of_a_tie(finished) -> None:
    # RULING S9: the lowest total; on a tie for it, the earliest seat in table order, even though
    # that seat ranks ahead of the others it tied with.
    assert sitaratas_player(finished).seat == finished.record["sitaratas"]  # agrees with the engine's record
    for totals, seat in [([10, 5, 7], 1), ([10, 5, 5], 1), ([5, 5, 5], 0), ([9, 12, 4], 2), ([4, 12, 4], 0)]:
        set_totals(finished, totals)
        assert sitaratas_player(Match.objects.get(pk=finished.pk)).seat == seat, totals


def test_a_game_in_play_or_of_another_kind_has_no_sitaratas(host, player) -> None:
    assert sitaratas_player(started_match(host, "sitaratas", humans=(player,))) is None
    assert sitaratas_player(finished_match(make_user("sam"), "sita")) is None


def test_the_sitaratas_signs_once(finished) -> None:
    # RULING S13: once, only after the end, and the text is kept as written (trimmed, one line).
    user = sitaratas_user(finished)
    signature = signature_add(match_id=finished.pk, user=user, text="  Next time,\n the cards owe me.  ")
    assert (signature.user, signature.text) == (user, "Next time, the cards owe me.")
    with pytest.raises(GameError, match="already signed"):
        signature_add(match_id=finished.pk, user=user, text="And again")
    assert list(Signature.objects.values_list("text", flat=True)) == ["Next time, the cards owe me."]


def test_nobody_else_may_sign(finished) -> None:
    # RULING S13: not the other players, not an onlooker, not an admin.
    chosen = sitaratas_user(finished)
    others = [mp.user for mp in finished.match_players.exclude(user=chosen)]
    admin = make_user("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    for user in [*others, make_user("watcher"), admin]:
        with pytest.raises(GameError, match="Only the Sitaratas"):
            signature_add(match_id=finished.pk, user=user, text="mine")
    assert not Signature.objects.exists()


def test_a_bot_that_is_the_sitaratas_signs_nothing(host) -> None:
    # RULING S13: bots never sign; the offer is not shown to anyone else instead.
    match = finished_match(host, "sitaratas")  # the host and two bots
    bot_player = match.match_players.get(seat=1)
    set_totals(match, [50, 1, 40])
    assert sitaratas_player(match).user == bot_player.user and bot_player.user.is_bot
    with pytest.raises(GameError, match="Only the Sitaratas"):
        signature_add(match_id=match.pk, user=bot_player.user, text="beep")
    assert not Signature.objects.exists()


def test_it_refuses_to_sign_before_the_end(host, player, outsider) -> None:
    match = started_match(host, "sitaratas", humans=(player, outsider))
    for user in (host, player, outsider):
        with pytest.raises(GameError, match="once the game is over"):
            signature_add(match_id=match.pk, user=user, text="too soon")
    assert not Signature.objects.exists()


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "Write something"),
        ("  \n\t ", "Write something"),
        ("x" * 81, "at most 80"),
        (None, "short text"),
        (["a"], "short text"),
    ],
)
def test_it_refuses_an_empty_or_too_long_signature(finished, text, message) -> None:
    # RULING S14: 1 to 80 characters of text.
    with pytest.raises(GameError, match=message):
        signature_add(match_id=finished.pk, user=sitaratas_user(finished), text=text)
    assert not Signature.objects.exists()


def test_eighty_characters_are_accepted(finished) -> None:
    assert len(signature_add(match_id=finished.pk, user=sitaratas_user(finished), text="é" * 80).text) == 80


def test_the_signature_is_escaped_on_the_result_panel_the_game_page_and_the_history(finished) -> None:
    # RULING S14: shown as text everywhere, never as HTML.
    user = sitaratas_user(finished)
    signature_add(match_id=finished.pk, user=user, text='<script>alert("x")</script><b>bold</b>')
    escaped = "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;"
    client = Client()
    client.force_login(user)
    game_page = client.get(f"/games/{finished.pk}/").content.decode()
    history = client.get("/history/?game=sitaratas").content.decode()
    panel = fragment.render_live(fragment.load_snapshot(finished.table_id), user_id=user.pk, connected=set())
    for html in (game_page, history, panel):
        assert "<script>alert" not in html and "<b>bold</b>" not in html
        assert escaped in html.replace("&quot;", "&#34;")
        assert "is the Sitaratas" in html or "Sitaratas</span>" in html
    assert f"<strong><bdi>{user.name}</bdi></strong> is the Sitaratas, and signed" in game_page


def test_the_result_panel_offers_the_signature_to_the_sitaratas_alone(finished) -> None:
    # RULING S13: the form is in the Sitaratas' own view only, and gone once signed.
    user = sitaratas_user(finished)
    snap = fragment.load_snapshot(finished.table_id)
    players = list(finished.match_players.select_related("user"))
    for mp in players:
        html = fragment.render_live(snap, user_id=mp.user_id, connected=set())
        assert f"<strong><bdi>{user.name}</bdi></strong> is the Sitaratas." in html
        assert ('name="command" value="sign"' in html) == (mp.user_id == user.pk)
    assert 'value="sign"' not in fragment.render_live(snap, user_id=None, connected=set())  # a spectator
    signature_add(match_id=finished.pk, user=user, text="Well played, all")
    html = fragment.render_live(fragment.load_snapshot(finished.table_id), user_id=user.pk, connected=set())
    assert 'value="sign"' not in html and '<q class="signature">Well played, all</q>' in html


def test_the_history_names_the_sitaratas_of_each_game(finished) -> None:
    user = sitaratas_user(finished)
    html = Client().get("/history/").content.decode()
    row = html[html.index(f"#{finished.pk}") :]
    row = row[: row.index("</tr>")]
    assert row.count("Sitaratas</span>") == 1
    name_at = row.index(user.name)
    assert row.index("Sitaratas</span>") > name_at


def test_an_admin_clears_a_signature_and_it_is_not_offered_again(finished, admin_client) -> None:
    # RULING S15: moderation clears the text; the Sitaratas cannot sign again.
    user = sitaratas_user(finished)
    signature = signature_add(match_id=finished.pk, user=user, text="something rude")
    asked = admin_client.post("/admin/games/signature/", {"action": "clear_text", "_selected_action": [signature.pk]})
    assert asked.status_code == 200  # RULING P19: it asks why first; nothing is cleared yet
    signature.refresh_from_db()
    assert signature.text == "something rude"
    response = admin_client.post(
        "/admin/games/signature/",
        {"action": "clear_text", "_selected_action": [signature.pk], "apply": "1", "reason": "Insulting"},
    )
    assert response.status_code == 302
    from django.contrib.admin.models import LogEntry

    assert LogEntry.objects.filter(object_id=str(signature.pk), change_message__contains="Insulting").exists()
    signature.refresh_from_db()
    assert signature.text == ""
    with pytest.raises(GameError, match="already signed"):
        signature_add(match_id=finished.pk, user=user, text="something nicer")
    html = fragment.render_live(fragment.load_snapshot(finished.table_id), user_id=user.pk, connected=set())
    assert f"<strong><bdi>{user.name}</bdi></strong> is the Sitaratas." in html and 'value="sign"' not in html
    assert "something rude" not in Client().get(f"/games/{finished.pk}/").content.decode()
