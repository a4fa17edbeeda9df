"""How a move's rows are stored (issue 9): games/migrations/0004."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def _one(sql: str) -> object:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


def test_the_match_state_is_compressed_with_lz4_where_the_server_has_it() -> None:
    has_lz4 = _one("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
    method = _one("SELECT attcompression FROM pg_attribute WHERE attrelid = 'games_match'::regclass AND attname = 'state'")
    assert method == ("l" if has_lz4 else "")  # '' is the server's default, pglz


def test_match_events_are_found_by_match_through_the_unique_version_index_alone() -> None:
    indexes = _one("SELECT array_agg(indexdef ORDER BY indexname) FROM pg_indexes WHERE tablename = 'games_matchevent'")
    by_match = [index for index in indexes if "(match_id" in index]
    assert len(by_match) == 1 and "UNIQUE" in by_match[0] and "(match_id, version)" in by_match[0]
