"""deploy/nginx/ as config/proxy.py renders it: the file nginx itself accepts, every name filled in."""

from __future__ import annotations

import subprocess

import pytest

from config import proxy
from tests.helpers import needs_tool


def test_a_name_without_a_value_is_refused() -> None:
    with pytest.raises(KeyError, match="listen"):
        proxy.render("server { {{ listen }} }", {})


def test_the_production_file_routes_a_tables_sockets_by_their_path_and_limits_per_address() -> None:
    text = proxy.production_conf("cards.example.com", ["127.0.0.1:8001", "127.0.0.1:8002"])
    assert "{{" not in text
    assert "hash $uri consistent;" in text
    assert text.count("server 127.0.0.1:8002 max_fails=1 fail_timeout=2s;") == 2  # both upstreams
    assert "X-Forwarded-For $proxy_add_x_forwarded_for" in text
    assert "limit_conn sitaratas_sockets" in text and "zone=sitaratas_openings" in text
    assert "ssl_certificate /etc/letsencrypt/live/cards.example.com/fullchain.pem;" in text
    assert "return 301 https://$host$request_uri;" in text


@needs_tool(proxy.nginx_binary(), "nginx is not installed (apt-get install nginx)")
def test_nginx_accepts_the_local_configuration(tmp_path) -> None:
    front = proxy.LocalProxy(["127.0.0.1:9"], 1, prefix=tmp_path)
    front.write()
    checked = subprocess.run([*front.command(), "-t"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
