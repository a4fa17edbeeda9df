from __future__ import annotations

import pytest
from django.test import override_settings


@pytest.mark.django_db
def test_health_answers_when_postgres_and_redis_answer(client) -> None:
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": True, "redis": True}


@pytest.mark.django_db
def test_health_fails_when_redis_is_gone(client) -> None:
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
        response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["redis"] is False
