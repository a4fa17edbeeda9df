"""Each viewer reads the table in their own language (issue 26): two seats of one table, one
in Arabic and one in Estonian, over the real socket; refusals too; the shared render caches
keep one entry per language."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.utils import translation

from tables.render import fragment
from tests.tables.helpers import start_table
from tests.tables.socket_helpers import connect, drain

# Transactional: the consumer works on Channels' threads, on connections of their own.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ARABIC_ROUND, ESTONIAN_ROUND = "الجولة", "Voor"


async def refusal(communicator) -> str:
    """The next frame that is not a push of the table: the other player's arrival may still be on
    its way to this socket (a presence push) when the refusal is asked for."""
    while 'id="live' in (frame := await communicator.receive_from()):  # a whole view or changed regions
        pass
    return frame


@database_sync_to_async
def start_sitaratas(host, player):
    host.language = "ar"  # chosen on the profile
    host.save(update_fields=["language"])
    return start_table(host, "sitaratas", seat_count=3, guests=[player])[0]


async def test_an_arabic_and_an_estonian_player_each_get_their_own_language(host, player) -> None:
    table = await start_sitaratas(host, player)
    arabic, connected = await connect(table.pk, host, accept_language="et")  # the profile wins
    assert connected
    # No language on the profile: the browser's Accept-Language decides.
    estonian, connected = await connect(table.pk, player, accept_language="et-EE,et;q=0.9,en;q=0.5")
    assert connected
    arabic_html, estonian_html = " ".join(await drain(arabic)), " ".join(await drain(estonian))
    assert ARABIC_ROUND in arabic_html and "Voor" not in arabic_html
    assert "Trump" in estonian_html and ARABIC_ROUND not in estonian_html
    assert "Round" not in arabic_html and "Round" not in estonian_html

    # A refusal goes to its sender alone, in that sender's language.
    await arabic.send_json_to({"command": "no_such_command"})
    await estonian.send_json_to({"command": "no_such_command"})
    assert "أمر غير معروف." in await refusal(arabic)
    assert "Tundmatu käsk." in await refusal(estonian)
    for communicator in (arabic, estonian):
        await communicator.disconnect()


async def test_a_browser_without_a_language_gets_english(host, player) -> None:
    table = await start_sitaratas(host, player)
    socket, _ = await connect(table.pk, player)
    html = " ".join(await drain(socket))
    assert "Round" in html and ESTONIAN_ROUND not in html
    await socket.disconnect()


async def test_a_shared_block_is_rendered_once_per_language(host, player) -> None:
    table = await start_sitaratas(host, player)
    snap = await database_sync_to_async(fragment.load_snapshot)(table.pk)
    rendered = {}
    for language in ("et", "ar", "et"):
        with translation.override(language):
            rendered.setdefault(language, []).append(fragment.render_live(snap, user_id=None, connected=set()))
    # The score sheet, shared by every viewer of a version, is in each viewer's language.
    assert "Punktileht" in rendered["et"][0] and "ورقة النقاط" in rendered["ar"][0]
    assert "ورقة النقاط" not in rendered["et"][1] and "Punktileht" in rendered["et"][1]
