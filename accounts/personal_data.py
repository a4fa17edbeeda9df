"""What each app holds about a player, for the data export and for deleting an account (RULINGS
P23, P55).

Accounts sits below the apps that hold most of a player's rows (games, the ledger, chat, friends,
devices, tournaments), so it does not import them: each app registers, from its
``AppConfig.ready``, one ``PersonalData`` per kind of data it keeps, naming the models it covers.
The export (accounts/export.py) asks every registration with an ``export``; deleting an account
(accounts/services.py) runs every ``erase`` in the deletion's transaction. Each registration says
what goes (``erase``) and, for what stays, why (``kept``): a model with a foreign key to the user
that no registration names is caught by tests/accounts/test_personal_data.py, so a new app's rows
are neither forgotten by the export nor left behind by a deletion.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from accounts.models import User


@dataclass(frozen=True)
class PersonalData:
    """One kind of data an app keeps about a player.

    ``models`` are the labels ("social.Friendship") of the models whose rows it covers; ``export``
    returns the player's part of them, JSON-ready, as the export's section ``name``; ``erase``
    removes (or clears) what goes when the account is deleted, inside the deletion's transaction;
    ``kept`` says, for the admin and the tests, which rows stay and why (RULING P23).
    """

    name: str
    models: tuple[str, ...]
    export: Callable[[User], Any] | None = None
    erase: Callable[[User], None] | None = None
    kept: str | None = None

    def __post_init__(self) -> None:
        if self.erase is None and not self.kept:
            # Deletion must decide for every row about a person: it goes, or it stays for a reason.
            raise ValueError(f"Personal data {self.name!r} neither erases nor says why it is kept.")
        if not self.models:
            raise ValueError(f"Personal data {self.name!r} names no model.")


_REGISTRY: dict[str, PersonalData] = {}


def register(data: PersonalData) -> None:
    """Add (or replace, on a second ``ready``) the registration ``data.name``."""
    _REGISTRY[data.name] = data


def registered() -> list[PersonalData]:
    """Every registration, by name: the export's sections come in this order."""
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def covered_models() -> set[str]:
    return {label for data in _REGISTRY.values() for label in data.models}


def erase_all(user: User) -> None:
    """Run every registered ``erase`` for ``user``; the caller holds the deletion's transaction,
    so a failure in any app leaves the account exactly as it was."""
    for data in registered():
        if data.erase is not None:
            data.erase(user)
