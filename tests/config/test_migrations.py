"""The models and their migrations agree: a model change without its migration fails the suite."""

from __future__ import annotations

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_every_model_change_has_its_migration() -> None:
    # --check exits non-zero (SystemExit) when makemigrations would write a file; --dry-run writes none.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
