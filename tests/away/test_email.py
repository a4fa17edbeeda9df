"""The e-mail fallback's limits and its one-click unsubscribe (RULING P76, RFC 8058)."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.utils import timezone

from notifications import kinds, services
from notifications.models import Preference
from tables.models import TableInvite
from tests.tables.helpers import open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def mailed(player, eager_bots):
    """The player asked for invitations and turns by e-mail, at a verified address."""
    EmailAddress.objects.create(user=player, email=player.email, verified=True, primary=True)
    services.preferences_set(user=player, choices={kinds.INVITE: {"email": True}, kinds.YOUR_TURN: {"email": True}})
    return player


@pytest.fixture
def notify(django_capture_on_commit_callbacks):
    """``services.notify``, then its after-commit work: the delivery, which mails."""

    def run(**arguments):
        with django_capture_on_commit_callbacks(execute=True):
            return services.notify(**arguments)

    return run


def invited(host, game: str, player):
    """A table waiting for players with ``player`` invited to it: an invitation that still stands
    (an invitation withdrawn or gone stale is not sent, RULING P74)."""
    table = open_table(host, game)
    TableInvite.objects.create(table=table, user=player, invited_by=host, created_at=timezone.now())
    return table


def unsubscribe_path(message) -> str:
    header = message.extra_headers["List-Unsubscribe"]
    return re.fullmatch(r"<https?://[^/]+(/unsubscribe/[^>]+/)>", header).group(1)


def test_a_table_mails_a_player_at_most_once_an_hour(mailed, notify, host) -> None:
    table = invited(host, "sita", mailed)
    notify(user=mailed, kind=kinds.INVITE, actor=host, table=table, data={"game": "sita"})
    notify(user=mailed, kind=kinds.YOUR_TURN, table=table, data={"game": "sita"})
    assert len(mail.outbox) == 1
    other = invited(host, "sitaratas", mailed)
    notify(user=mailed, kind=kinds.INVITE, actor=host, table=other, data={"game": "sitaratas"})
    assert len(mail.outbox) == 2


def test_a_player_gets_a_bounded_number_of_mails_an_hour(mailed, notify, host, settings) -> None:
    settings.EMAILS_PER_HOUR = 2
    for game in ("sita", "sitaratas", "estimation"):
        notify(user=mailed, kind=kinds.INVITE, actor=host, table=invited(host, game, mailed), data={"game": game})
    assert len(mail.outbox) == 2


def test_every_mail_offers_one_click_unsubscribe(mailed, notify, host) -> None:
    notify(user=mailed, kind=kinds.INVITE, actor=host, table=invited(host, "sita", mailed), data={"game": "sita"})
    (message,) = mail.outbox
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe_path(message) in message.body


def test_following_the_link_only_asks_and_the_post_unsubscribes_without_a_login(mailed, notify, host, client) -> None:
    notify(user=mailed, kind=kinds.INVITE, actor=host, table=invited(host, "sita", mailed), data={"game": "sita"})
    path = unsubscribe_path(mail.outbox[0])
    page = client.get(path)  # what a scanner that follows every link does
    assert page.status_code == 200 and "<form" in page.content.decode()
    assert Preference.objects.get(user=mailed, kind=kinds.INVITE).email is True
    # What a mail program's button sends (RFC 8058): a POST, no session, no CSRF token.
    client.logout()
    answer = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200 and "no more e-mails" in answer.content.decode()
    assert Preference.objects.get(user=mailed, kind=kinds.INVITE).email is False
    # Only that kind: the others stay as the player chose them.
    assert Preference.objects.get(user=mailed, kind=kinds.YOUR_TURN).email is True


def test_a_forged_or_altered_token_unsubscribes_no_one(mailed, notify, host, client) -> None:
    notify(user=mailed, kind=kinds.INVITE, actor=host, table=invited(host, "sita", mailed), data={"game": "sita"})
    path = unsubscribe_path(mail.outbox[0])
    altered = path[:-3] + ("A" if path[-3] != "A" else "B") + path[-2:]
    assert client.post(altered).status_code == 404
    assert client.post("/unsubscribe/not-a-token/").status_code == 404
    assert Preference.objects.get(user=mailed, kind=kinds.INVITE).email is True
