"""The run's template database (tests/template_db.py): named after the test database without the
worker's suffix, and dropped at the end only by the run that marked it."""

from __future__ import annotations

import pytest
from psycopg import sql

from tests import template_db


def test_the_template_is_named_after_the_test_database_without_the_worker_s_suffix(monkeypatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw3")
    assert template_db.template_name({"NAME": "site", "TEST": {"NAME": "test_site_gw3"}}) == "test_site_template"
    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    assert template_db.template_name({"NAME": "site", "TEST": {}}) == "test_site_template"


@pytest.mark.django_db
def test_only_the_run_that_marked_the_template_drops_it() -> None:
    from django.db import connection

    settings = {
        **connection.settings_dict,
        "NAME": "probe",
        "TEST": {"NAME": f"{connection.settings_dict['NAME']}_probe"},
    }
    name = template_db.template_name(settings)
    with template_db.maintenance(settings) as admin:
        template_db.drop(admin, name)
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        admin.execute(sql.SQL("COMMENT ON DATABASE {} IS 'run-a'").format(sql.Identifier(name)))
    try:
        template_db.drop_template(settings, "run-b")
        with template_db.maintenance(settings) as admin:
            assert template_db.marked_run(admin, name) == "run-a"
        template_db.drop_template(settings, "run-a")
        with template_db.maintenance(settings) as admin:
            assert template_db.marked_run(admin, name) is None
            assert not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
    finally:
        with template_db.maintenance(settings) as admin:
            template_db.drop(admin, name)
