"""Private tables and their invitations (RULINGS P66, P67, P68)."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from notifications import kinds
from notifications.models import Notification
from social import services as social
from tables import selectors
from tables.errors import TableError
from tables.models import Spectators, Table, TableInvite
from tables.selectors import privacy
from tables.services import invites, lobby
from tables.services.privacy import privacy_set
from tests.conftest import make_user
from tests.social.helpers import befriend
from tests.tables.helpers import open_table, start_table

pytestmark = pytest.mark.django_db


def private_table(host, *, spectators: str = Spectators.ANYONE, seat_count: int = 3) -> Table:
    table = open_table(host, "sita", seat_count=seat_count)
    return privacy_set(table_id=table.pk, host=host, private=True, spectators=spectators)


def test_a_private_table_is_not_in_the_public_lobby(host) -> None:
    public = open_table(host, "sita")
    private = private_table(host)
    listed = set(selectors.open_tables().values_list("pk", flat=True))
    assert public.pk in listed and private.pk not in listed


def test_only_the_hosts_friends_and_invited_players_may_sit(host, player, outsider) -> None:
    table = private_table(host)
    with pytest.raises(TableError, match="friends and invited"):
        lobby.seat_take(table_id=table.pk, user=outsider, position=1)
    assert not table.seats.filter(user=outsider).exists()
    befriend(host, player)
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    TableInvite.objects.create(table=table, user=outsider, created_at=table.created_at)
    lobby.seat_take(table_id=table.pk, user=outsider, position=2)
    assert table.seats.exclude(user=None).count() == 3


def test_a_player_blocked_by_the_host_may_not_sit_even_if_invited(host, player) -> None:
    table = private_table(host)
    TableInvite.objects.create(table=table, user=player, created_at=table.created_at)
    social.block(user=host, blocked_id=player.pk)
    with pytest.raises(TableError):
        lobby.seat_take(table_id=table.pk, user=player, position=1)
    assert not privacy.may_watch(table=table, user=player)


@pytest.mark.parametrize(
    ("spectators", "stranger", "friend_of_a_seat"),
    [(Spectators.ANYONE, True, True), (Spectators.FRIENDS, False, True), (Spectators.NOBODY, False, False)],
)
def test_spectators_follow_the_hosts_choice(host, player, outsider, spectators, stranger, friend_of_a_seat) -> None:
    befriend(host, player)
    table, _match = start_table(host, "sita", seat_count=2, guests=[player])
    Table.objects.filter(pk=table.pk).update(private=True, spectators=spectators)
    table.refresh_from_db()
    pal = make_user("pal")
    befriend(player, pal)  # a friend of a seated player, not of the host
    assert privacy.may_watch(table=table, user=outsider) is stranger
    assert privacy.may_watch(table=table, user=pal) is friend_of_a_seat
    assert privacy.may_watch(table=table, user=player)  # a seat always sees its own table
    assert (privacy.open_refusal(table.pk, outsider) is None) is stranger


def test_a_public_table_stays_open_to_everyone(host, outsider) -> None:
    table = open_table(host, "sita")
    assert privacy.may_sit(table=table, user=outsider) and privacy.may_watch(table=table, user=outsider)
    assert privacy.open_refusal(table.pk, outsider) is None


def test_only_the_host_sets_privacy_and_only_before_the_start(host, player) -> None:
    table = open_table(host, "sita", seat_count=2)
    with pytest.raises(TableError):
        privacy_set(table_id=table.pk, host=player, private=True, spectators=Spectators.NOBODY)
    with pytest.raises(TableError):
        privacy_set(table_id=table.pk, host=host, private=True, spectators="everyone")
    table.refresh_from_db()
    assert not table.private and table.spectators == Spectators.ANYONE


def test_the_link_invites_whoever_follows_it_and_renewing_revokes_it(host, outsider) -> None:
    table = private_table(host)
    url = invites.link_give(table_id=table.pk, host=host)
    token = url.rstrip("/").rsplit("/", 1)[1]
    assert invites.link_follow(token=token, user=outsider).pk == table.pk
    assert privacy.may_sit(table=table, user=outsider)

    invites.link_renew(table_id=table.pk, host=host)
    late = make_user("late")
    with pytest.raises(TableError, match="not valid"):
        invites.link_follow(token=token, user=late)
    assert not TableInvite.objects.filter(user=late).exists()
    with pytest.raises(TableError, match="not valid"):
        invites.link_follow(token=token[:-2] + "xx", user=late)


def test_the_link_expires_with_the_table(host, player, outsider) -> None:
    table = open_table(host, "sita", seat_count=2)
    token = invites.link_give(table_id=table.pk, host=host).rstrip("/").rsplit("/", 1)[1]
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    from tests.helpers import fair_value

    lobby.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    with pytest.raises(TableError, match="expired"):
        invites.link_follow(token=token, user=outsider)


def test_only_the_host_has_the_link(host, player) -> None:
    table = private_table(host)
    with pytest.raises(TableError):
        invites.link_give(table_id=table.pk, host=player)
    with pytest.raises(TableError):
        invites.link_renew(table_id=table.pk, host=player)


def test_inviting_a_friend_notifies_them_and_e_mails_if_they_asked(
    host, player, eager_bots, django_capture_on_commit_callbacks
) -> None:
    befriend(host, player)
    EmailAddress.objects.create(user=player, email=player.email, verified=True, primary=True)
    from notifications.services import preferences_set

    preferences_set(user=player, choices={kinds.INVITE: {"email": True}})
    table = private_table(host)
    with django_capture_on_commit_callbacks(execute=True):
        invites.invite_send(table_id=table.pk, by=host, user_id=player.pk)
    note = Notification.objects.get(recipient=player, kind=kinds.INVITE)
    assert note.table_id == table.pk and note.actor == host and note.data == {"game": "sita"}
    assert len(mail.outbox) == 1 and f"/tables/{table.pk}/" in mail.outbox[0].body
    with pytest.raises(TableError, match="already invited"):
        invites.invite_send(table_id=table.pk, by=host, user_id=player.pk)


def test_only_friends_are_invited_and_not_by_a_guest_of_a_private_table(host, player, outsider) -> None:
    table = private_table(host)
    with pytest.raises(TableError, match="your friends"):
        invites.invite_send(table_id=table.pk, by=host, user_id=outsider.pk)
    befriend(host, player)
    befriend(player, outsider)
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    with pytest.raises(TableError):
        invites.invite_send(table_id=table.pk, by=player, user_id=outsider.pk)
    assert not TableInvite.objects.exists()


def test_invitations_are_limited_per_hour(host, settings) -> None:
    settings.INVITES_PER_HOUR = 1
    pals = [make_user(f"pal{n}") for n in range(2)]
    for pal in pals:
        befriend(host, pal)
    table = private_table(host)
    invites.invite_send(table_id=table.pk, by=host, user_id=pals[0].pk)
    with pytest.raises(TableError, match="1 invitation in the last hour"):
        invites.invite_send(table_id=table.pk, by=host, user_id=pals[1].pk)
    assert TableInvite.objects.count() == 1


def test_a_muting_friends_invitation_is_dropped_quietly(host, player) -> None:
    from chat.models import PersonalMute

    befriend(host, player)
    PersonalMute.objects.create(owner=player, muted=host)
    table = private_table(host)
    assert invites.invite_send(table_id=table.pk, by=host, user_id=player.pk) is None
    assert not Notification.objects.filter(recipient=player, kind=kinds.INVITE).exists()


def test_the_table_page_and_lobby_refuse_a_stranger(client, host, outsider) -> None:
    table = private_table(host, spectators=Spectators.FRIENDS)
    client.force_login(outsider)
    page = client.get(f"/tables/{table.pk}/", follow=True)
    assert page.redirect_chain[-1][0] == "/"
    assert b"This table is private" in page.content
    assert f"/tables/{table.pk}/".encode() not in client.get("/").content


def test_a_newcomer_following_the_link_signs_up_verifies_and_lands_at_the_table(client, host, settings) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    table = private_table(host)
    path = invites.link_give(table_id=table.pk, host=host)
    page = client.get(path)
    assert page.status_code == 302 and "/accounts/signup/" in page["Location"]
    client.post(
        "/accounts/signup/",
        {
            "username": "newbie",
            "email": "newbie@example.com",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
    )
    confirmation = [line for line in mail.outbox[-1].body.split() if "/accounts/confirm-email/" in line][0]
    confirmed = client.post(confirmation[confirmation.index("/accounts/") :])
    assert confirmed.status_code == 302
    landed = client.get(confirmed["Location"], follow=True)
    assert landed.redirect_chain[-1][0] == f"/tables/{table.pk}/"
    newbie = TableInvite.objects.get(table=table).user
    assert newbie.username == "newbie"
    lobby.seat_take(table_id=table.pk, user=newbie, position=1)


def test_the_hosts_panel_invites_a_friend_and_renews_the_link(client, host, player) -> None:
    befriend(host, player)
    table = private_table(host)
    client.force_login(host)
    page = client.get(f"/tables/{table.pk}/")
    assert b'id="invite-panel"' in page.content and b'id="invite-link"' in page.content
    old = table.__class__.objects.get(pk=table.pk).invite_nonce
    panel = client.post(f"/tables/{table.pk}/invite/", {"user": player.pk}, HTTP_HX_REQUEST="true")
    assert b"Invitation sent." in panel.content
    client.post(f"/tables/{table.pk}/invite/renew/")
    assert Table.objects.get(pk=table.pk).invite_nonce != old


def _link(table, host) -> str:
    return invites.link_give(table_id=table.pk, host=host).rstrip("/").rsplit("/", 1)[1]


def test_a_player_who_blocked_the_host_is_told_so_at_the_link_of_a_private_table(host, outsider) -> None:
    """RULING P67: the blocker knows their own block; they are told plainly, and it keeps them out."""
    table = private_table(host)
    social.block(user=outsider, blocked_id=host.pk)
    with pytest.raises(TableError, match="You blocked this player, hana") as refused:
        invites.link_follow(token=_link(table, host), user=outsider)
    assert "not valid" not in str(refused.value)
    assert not TableInvite.objects.filter(table=table, user=outsider).exists()
    assert not privacy.may_sit(table=table, user=outsider)


def test_a_player_who_blocked_the_host_lands_at_a_public_table_by_its_link(host, outsider) -> None:
    """RULING P67: a block hides nothing at a public table but chat; its link leads there as for anyone."""
    table = open_table(host, "sita", seat_count=3)
    social.block(user=outsider, blocked_id=host.pk)
    assert invites.link_follow(token=_link(table, host), user=outsider).pk == table.pk
    lobby.seat_take(table_id=table.pk, user=outsider, position=1)


def test_a_player_the_host_blocked_gets_the_neutral_answer_at_the_link(host, outsider) -> None:
    table = private_table(host)
    social.block(user=host, blocked_id=outsider.pk)
    with pytest.raises(TableError, match="not valid") as refused:
        invites.link_follow(token=_link(table, host), user=outsider)
    assert "block" not in str(refused.value).lower()


def test_the_link_page_tells_the_blocker_why_and_the_blocked_nothing(client, host, player, outsider) -> None:
    table = private_table(host)
    url = invites.link_give(table_id=table.pk, host=host)
    social.block(user=outsider, blocked_id=host.pk)
    social.block(user=host, blocked_id=player.pk)
    client.force_login(outsider)
    page = client.get(url, follow=True)
    assert "You blocked this player, hana, who hosts this table" in page.content.decode()
    client.force_login(player)
    page = client.get(url, follow=True).content.decode()
    assert "This invitation link is not valid" in page and "block" not in page.split("<main", 1)[-1].lower()


def test_a_challenge_opens_a_private_table_with_your_last_options_and_invites_the_friend(host, player) -> None:
    """Issue 53: "Challenge" from a friend's row or profile."""
    befriend(host, player)
    last = lobby.table_create(host=host, game="sita", seat_count=5, options={"matches": 2}, clock_seconds=30)
    lobby.table_close(table_id=last.pk, by=host)
    table = invites.challenge(by=host, user_id=player.pk, game="sita")
    assert (table.game, table.seat_count, table.options["matches"], table.clock) == ("sita", 5, 2, 30)
    assert table.private and table.host == host and not table.stake
    assert TableInvite.objects.filter(table=table, user=player, invited_by=host).exists()
    assert Notification.objects.filter(recipient=player, kind=kinds.INVITE, table=table).exists()


def test_a_challenge_without_an_earlier_table_uses_the_games_defaults(host, player) -> None:
    befriend(host, player)
    table = invites.challenge(by=host, user_id=player.pk, game="estimation")
    assert table.game == "estimation" and table.seat_count == 4


def test_only_a_friend_can_be_challenged(host, outsider) -> None:
    with pytest.raises(TableError, match="challenge your friends"):
        invites.challenge(by=host, user_id=outsider.pk, game="sita")
    with pytest.raises(TableError, match="no such game"):
        invites.challenge(by=host, user_id=outsider.pk, game="chess")
    assert not Table.objects.filter(host=host).exists()


def test_the_challenge_view_lands_at_the_new_table(client, host, player) -> None:
    befriend(host, player)
    client.force_login(host)
    page = client.post(f"/tables/challenge/{player.pk}/", {"game": "sita"})
    table = Table.objects.get(host=host)
    assert page.status_code == 302 and page["Location"] == f"/tables/{table.pk}/"
    assert "challenge-" in client.get("/friends/").content.decode()
    assert f'id="challenge-{player.pk}"' in client.get(f"/players/{player.username}/").content.decode()


def test_the_invited_say_who_answered(host, player, outsider) -> None:
    from tables.selectors.invites import invited_answers

    befriend(host, player)
    table = private_table(host)
    invites.invite_send(table_id=table.pk, by=host, user_id=player.pk)
    invites.link_follow(token=_link(table, host), user=outsider)
    assert [row["answer"] for row in invited_answers(table)] == ["pending", "pending"]
    lobby.seat_take(table_id=table.pk, user=outsider, position=1)
    assert {row["name"]: row["answer"] for row in invited_answers(table)} == {"piet": "pending", "olga": "seated"}
