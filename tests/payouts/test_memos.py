"""A ledger row's memo reads in the reader's language (issue 26); the stored memo stays English."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from payouts import services
from payouts.memos import memo_text
from payouts.models import Transfer
from payouts.services import payout_memo


@pytest.mark.parametrize(
    ("stored", "estonian"),
    [
        ("Welcome coins.", "Tervitusmündid."),
        (payout_memo(3, [1, 3, 3]), "Osa potist: jagatud teine 3 panustajast, mängus 3. koht."),
        (payout_memo(2, [2]), "Su panus tagasi: panustasid ainsana (mängus 2. koht)."),
        ("Table closed before the start: spam", "Laud suleti enne algust: spam"),
        # Issue 53: the host's own closing, stored in English, read in the reader's language.
        ("Table closed before the start: Closed by the host, Ann.", "Laud suleti enne algust: Sulges võõrustaja Ann."),
        ("Dismissed by vote. Stake refunded.", "Katkestatud hääletusega."),  # the row's heading says the rest
        ("Aborted by root: server trouble, refunding Stake refunded.", "Katkestas root: server trouble, refunding."),
        ("For the tournament, well played", "For the tournament, well played"),  # an admin's own words
    ],
)
def test_each_memo_the_services_write_reads_as_one_estonian_sentence(stored, estonian) -> None:
    with translation.override("et"):
        assert memo_text(stored) == estonian


def test_the_wallet_shows_the_welcome_memo_in_the_reader_s_language(client, player) -> None:
    services.coins_grant(user=player, amount=10)  # its memo: "Welcome coins."
    assert Transfer.objects.filter(user=player, memo="Welcome coins.").exists()
    client.force_login(player)
    page = client.get(reverse("wallet"), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert "عملات الترحيب." in page and "Welcome coins." not in page
