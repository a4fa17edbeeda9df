"""A player's devices: added by their browser, listed, removed; the VAPID pair (issue 40, RULING P74)."""

from __future__ import annotations

import json
import time
from io import StringIO

import pytest
from django.core.management import call_command

from away.models import Device
from away.services import DeviceError, device_add
from tests.away.push_service import check_vapid

pytestmark = pytest.mark.django_db


def add(client, subscription) -> object:
    return client.post(
        "/profile/devices/add/",
        data=json.dumps({**subscription.info(), "name": "Firefox · Android"}),
        content_type="application/json",
    )


def test_a_browser_adds_itself_and_its_player_sees_it_listed(client, host, push_service, push_settings) -> None:
    client.force_login(host)
    subscription = push_service.subscribe()
    response = add(client, subscription)
    assert response.status_code == 200 and response.json()["ok"]
    device = Device.objects.get(user=host)
    assert device.endpoint == subscription.endpoint and device.p256dh == subscription.p256dh
    page = client.get("/profile/devices/").content.decode()
    assert "Firefox · Android" in page and push_settings.VAPID_PUBLIC_KEY in page


def test_the_page_offers_nothing_without_vapid_keys(client, host, settings) -> None:
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    client.force_login(host)
    page = client.get("/profile/devices/").content.decode()
    assert 'id="push-subscribe"' not in page and "does not send notices" in page


@pytest.mark.parametrize(
    "endpoint",
    ["http://fcm.googleapis.com/fcm/send/x", "https://evil.example.com/push", "https://127.0.0.1:9/push", "file:///x"],
)
def test_an_address_that_is_not_a_push_service_is_refused(host, push_service, push_settings, endpoint) -> None:
    keys = push_service.subscribe().info()["keys"]
    with pytest.raises(DeviceError):
        device_add(user=host, endpoint=endpoint, **keys)
    assert not Device.objects.exists()


def test_a_known_push_service_over_https_is_accepted(host, push_service, push_settings) -> None:
    keys = push_service.subscribe().info()["keys"]
    device_add(user=host, endpoint="https://fcm.googleapis.com/fcm/send/abc", **keys)
    device_add(user=host, endpoint="https://updates.push.services.mozilla.com/wpush/v2/abc", **keys)
    assert Device.objects.filter(user=host).count() == 2


def test_keys_of_the_wrong_shape_are_refused(client, host, push_service, push_settings) -> None:
    client.force_login(host)
    info = push_service.subscribe().info()
    info["keys"]["p256dh"] = info["keys"]["auth"]
    response = client.post("/profile/devices/add/", data=json.dumps(info), content_type="application/json")
    assert response.status_code == 400 and "keys" in response.json()["error"]
    assert not Device.objects.exists()


def test_the_same_browser_signed_in_as_another_account_is_now_only_that_ones(
    host, player, push_service, push_settings
) -> None:
    info = push_service.subscribe().info()
    device_add(user=host, endpoint=info["endpoint"], **info["keys"])
    device_add(user=player, endpoint=info["endpoint"], **info["keys"])
    assert list(Device.objects.values_list("user", flat=True)) == [player.pk]


def test_a_player_removes_their_own_device_and_not_anyone_elses(
    client, host, player, push_service, push_settings
) -> None:
    mine = push_service.subscribe().info()
    theirs = push_service.subscribe().info()
    device_add(user=host, endpoint=mine["endpoint"], **mine["keys"])
    other = device_add(user=player, endpoint=theirs["endpoint"], **theirs["keys"])
    client.force_login(host)
    client.post(f"/profile/devices/{other.pk}/remove/")
    assert Device.objects.filter(pk=other.pk).exists()
    own = Device.objects.get(user=host)
    response = client.post(f"/profile/devices/{own.pk}/remove/", follow=True)
    assert not Device.objects.filter(user=host).exists()
    assert "removed" in response.content.decode()


def test_logging_out_forgets_the_browsers_subscription(client, host, push_service, push_settings) -> None:
    info = push_service.subscribe().info()
    device_add(user=host, endpoint=info["endpoint"], **info["keys"])
    client.force_login(host)
    assert client.post("/profile/devices/forget/", {"endpoint": info["endpoint"]}).status_code == 204
    assert not Device.objects.exists()


def test_a_player_has_a_bounded_number_of_devices(host, push_service, push_settings) -> None:
    push_settings.PUSH_DEVICES_PER_USER = 2
    for _ in range(2):
        info = push_service.subscribe().info()
        device_add(user=host, endpoint=info["endpoint"], **info["keys"])
    info = push_service.subscribe().info()
    with pytest.raises(DeviceError, match="already have 2 devices"):
        device_add(user=host, endpoint=info["endpoint"], **info["keys"])


def test_the_command_makes_a_vapid_pair_whose_tokens_a_push_service_accepts(settings) -> None:
    out = StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = lines["VAPID_PRIVATE_KEY"], lines["VAPID_PUBLIC_KEY"]
    from away import vapid

    headers = vapid.signer().sign(
        {"sub": "mailto:ops@example.com", "aud": "https://push.example", "exp": int(time.time()) + 600}
    )
    claims = check_vapid(headers["Authorization"], origin="https://push.example", now=time.time())
    assert claims["k"] == settings.VAPID_PUBLIC_KEY
