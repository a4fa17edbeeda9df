"""The client's address, from the peer or from our own proxies' X-Forwarded-For (issue 34, finding 3)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from allauth import app_settings as allauth_settings
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory

from accounts.adapters import AccountAdapter
from config.env import env_proxies
from core import addresses
from tests.config.helpers import ROOT, start_django


def test_without_a_proxy_the_address_is_the_peer_whatever_the_header_says(settings) -> None:
    settings.TRUSTED_PROXIES = 0
    request = RequestFactory().get("/", REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert addresses.request_address(request) == "198.51.100.7"


def test_behind_one_proxy_the_address_is_the_entry_the_proxy_appended(settings) -> None:
    settings.TRUSTED_PROXIES = 1
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert addresses.request_address(request) == "198.51.100.7"


def test_a_spoofed_entry_left_of_the_proxies_is_never_read(settings) -> None:
    # The client sent "X-Forwarded-For: 127.0.0.1, 203.0.113.1"; our one proxy appended the real peer.
    settings.TRUSTED_PROXIES = 1
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="127.0.0.1, 203.0.113.1, 198.51.100.7"
    )
    assert addresses.request_address(request) == "198.51.100.7"


def test_behind_several_proxies_the_right_most_untrusted_entry_is_the_client(settings) -> None:
    # A CDN in front of the load balancer: the CDN appends the client, the balancer the CDN.
    settings.TRUSTED_PROXIES = 2
    chain = "6.6.6.6, 198.51.100.7, 192.0.2.50"  # spoof, client (seen by the CDN), CDN (seen by the balancer)
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=chain)
    assert addresses.request_address(request) == "198.51.100.7"


def test_a_chain_shorter_than_the_proxies_gives_its_first_entry_and_no_header_the_peer() -> None:
    assert addresses.from_chain("10.0.0.2", ["192.0.2.50"], 2) == "192.0.2.50"
    assert addresses.from_chain("10.0.0.2", [], 2) == "10.0.0.2"
    assert addresses.from_chain("10.0.0.2", ["not-an-address"], 1) == "10.0.0.2"
    assert addresses.from_chain(None, [], 0) == addresses.UNKNOWN


def test_several_headers_count_as_one_list_in_order() -> None:
    assert addresses.from_chain("10.0.0.2", ["6.6.6.6", "198.51.100.7"], 1) == "198.51.100.7"
    assert addresses.from_chain("10.0.0.2", ["6.6.6.6, 198.51.100.7", "[2001:db8::1]"], 1) == "2001:db8::1"


def test_a_socket_scope_is_read_the_same_way(settings) -> None:
    scope = {
        "type": "websocket",
        "client": ["10.0.0.2", 51234],
        "headers": [(b"host", b"cards.example.com"), (b"x-forwarded-for", b"127.0.0.1, 198.51.100.7")],
    }
    settings.TRUSTED_PROXIES = 0
    assert addresses.scope_address(scope) == "10.0.0.2"
    settings.TRUSTED_PROXIES = 1
    assert addresses.scope_address(scope) == "198.51.100.7"
    assert addresses.scope_address({"type": "websocket", "headers": []}) == addresses.UNKNOWN


def test_an_ipv6_client_counts_as_its_64_and_a_mapped_ipv4_as_itself() -> None:
    assert addresses.limit_key("2001:db8:1:2:aaaa::1") == addresses.limit_key("2001:db8:1:2:bbbb::9")
    assert addresses.limit_key("2001:db8:1:2::1") != addresses.limit_key("2001:db8:1:3::1")
    assert addresses.limit_key("::ffff:198.51.100.7") == "198.51.100.7"


def test_allauth_counts_the_same_address_and_trusts_the_same_number_of_proxies(settings) -> None:
    settings.TRUSTED_PROXIES = settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.7")
    assert AccountAdapter(request).get_client_ip(request) == "198.51.100.7"
    assert allauth_settings.TRUSTED_PROXY_COUNT == 1


@pytest.mark.parametrize(
    ("value", "count"), [(None, 0), ("false", 0), ("true", 1), ("0", 0), ("1", 1), ("2", 2), (" 3 ", 3)]
)
def test_the_proxy_setting_is_a_count_and_still_takes_true_and_false(monkeypatch, value, count) -> None:
    if value is None:
        monkeypatch.delenv("DJANGO_BEHIND_PROXY", raising=False)
    else:
        monkeypatch.setenv("DJANGO_BEHIND_PROXY", value)
    assert env_proxies("DJANGO_BEHIND_PROXY") == count


@pytest.mark.parametrize("value", ["maybe", "-1", "1.5"])
def test_a_bad_proxy_count_stops_start_up(monkeypatch, value) -> None:
    monkeypatch.setenv("DJANGO_BEHIND_PROXY", value)
    with pytest.raises(ImproperlyConfigured, match="DJANGO_BEHIND_PROXY"):
        env_proxies("DJANGO_BEHIND_PROXY")


def test_the_settings_read_the_count() -> None:
    code = "import django; django.setup(); from django.conf import settings as s; "
    code += "print(s.TRUSTED_PROXIES, s.ALLAUTH_TRUSTED_PROXY_COUNT, s.SECURE_PROXY_SSL_HEADER is not None)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "DJANGO_BEHIND_PROXY": "2"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.split() == ["2", "2", "True"], result.stderr
    assert start_django(DJANGO_BEHIND_PROXY="two").returncode != 0


def test_an_entry_with_a_port_is_its_address() -> None:
    # Some load balancers write the client's port too: read as the peer (the proxy), every client
    # behind it would share one bucket.
    assert addresses.from_chain("10.0.0.5", ["198.51.100.7:5678"], 1) == "198.51.100.7"
    assert addresses.from_chain("10.0.0.5", ["[2001:db8::1]:443"], 1) == "2001:db8::1"
