"""Deleting an account by anonymising it: the person goes, games and ledger stay (RULING P23)."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.sessions.models import Session
from django.test import Client

from accounts.models import User
from accounts.services import AccountError, account_anonymise
from games.models import MatchPlayer, Signature
from games.selectors.history import sitaratas_player
from games.services import signature_add
from payouts.models import Entry
from tests.conftest import make_user
from tests.games.history_helpers import finished_match
from tests.payouts.helpers import assert_coins_conserved, assert_passes_conserved, wallet
from tests.tables.helpers import open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(db) -> User:
    user = make_user("root")
    user.is_staff = user.is_superuser = True
    user.save()
    return user


def test_it_removes_the_person_and_keeps_games_and_ledger(admin, host, player, outsider) -> None:
    match = finished_match(host, "sitaratas", humans=(player, outsider))
    chosen = sitaratas_player(match).user
    signature_add(match_id=match.pk, user=chosen, text="my name is on this")
    EmailAddress.objects.create(user=chosen, email=chosen.email, primary=True, verified=True)
    client = Client()
    client.force_login(chosen)
    entries, coins = Entry.objects.filter(account__user=chosen).count(), wallet(chosen)
    seats = list(MatchPlayer.objects.filter(user=chosen).values_list("match_id", "seat", "place", "total"))

    account_anonymise(user_id=chosen.pk, by=admin)

    chosen.refresh_from_db()
    assert chosen.username == f"deleted-{chosen.pk}" and chosen.name == f"deleted-{chosen.pk}"
    assert (chosen.email, chosen.display_name, chosen.is_active, chosen.has_usable_password()) == ("", "", False, False)
    assert not EmailAddress.objects.filter(user=chosen).exists()
    assert not any(s.get_decoded().get("_auth_user_id") == str(chosen.pk) for s in Session.objects.all())
    assert client.get("/wallet/").status_code == 302  # signed out: sent to log in
    assert Signature.objects.get(match=match).text == ""  # RULING S15: the row stays, cleared
    # The ledger and the games are untouched (RULING P7): same rows, same balance, same results.
    assert Entry.objects.filter(account__user=chosen).count() == entries and wallet(chosen) == coins
    assert list(MatchPlayer.objects.filter(user=chosen).values_list("match_id", "seat", "place", "total")) == seats
    assert_coins_conserved()
    assert_passes_conserved()
    page = Client().get(f"/games/{match.pk}/").content.decode()
    assert f"deleted-{chosen.pk}" in page and "my name is on this" not in page


def test_it_is_refused_while_the_player_sits_at_an_open_table(admin, host) -> None:
    table = open_table(host, "sitaratas")  # the host's seat reserves a pass
    with pytest.raises(AccountError, match="waiting or playing"):
        account_anonymise(user_id=host.pk, by=admin)
    host.refresh_from_db()
    assert host.username == "hana" and host.is_active
    assert table.seats.filter(user=host).exists()


def test_only_an_admin_may_delete_and_never_a_bot_or_twice(admin, host, player) -> None:
    with pytest.raises(AccountError, match="Only an admin"):
        account_anonymise(user_id=player.pk, by=host)
    bot = User.objects.filter(is_bot=True).first()
    with pytest.raises(AccountError, match="bot"):
        account_anonymise(user_id=bot.pk, by=admin)
    account_anonymise(user_id=player.pk, by=admin)
    with pytest.raises(AccountError, match="already deleted"):
        account_anonymise(user_id=player.pk, by=admin)


def test_the_admin_action_anonymises_and_plain_deletion_is_gone(admin, player) -> None:
    client = Client()
    client.force_login(admin)
    changelist = client.get("/admin/accounts/user/").content.decode()
    assert 'value="delete_accounts"' in changelist and 'value="delete_selected"' not in changelist
    asked = client.post("/admin/accounts/user/", {"action": "delete_accounts", "_selected_action": [player.pk]})
    assert asked.status_code == 200 and "reason" in asked.content.decode()  # RULING P19: it asks why first
    player.refresh_from_db()
    assert player.username != f"deleted-{player.pk}"
    response = client.post(
        "/admin/accounts/user/",
        {
            "action": "delete_accounts",
            "_selected_action": [player.pk],
            "apply": "1",
            "reason": "The player asked to be forgotten",
        },
    )
    assert response.status_code == 302
    from django.contrib.admin.models import LogEntry

    assert LogEntry.objects.filter(object_id=str(player.pk), change_message__contains="asked to be forgotten").exists()
    player.refresh_from_db()
    assert player.username == f"deleted-{player.pk}"
