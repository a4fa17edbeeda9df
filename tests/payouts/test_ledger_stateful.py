"""A stateful property test: random grants, seats, leaves, starts, finishes, dismissals and aborts.

After every step the coins in wallets, held stakes and pots equal the coins ever granted,
and every pass is in exactly one place (RULINGS P4–P8). Runs against the real PostgreSQL in the
test's one transaction, each step in a savepoint that ends as a commit would: the checks
PostgreSQL defers to COMMIT run there, so the zero-sum trigger checks every transfer of the step,
and a step it refuses is undone alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from games.models import Match
from payouts import services as payouts
from tables import tasks
from tables.errors import TableError
from tables.models import Table
from tables.services import endings, lobby, votes
from tests.conftest import make_user
from tests.helpers import fair_value
from tests.payouts.helpers import assert_coins_conserved, assert_passes_conserved, play_to_end
from tests.tables.helpers import fill_with_bots

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
names = itertools.count()


@contextmanager
def committed() -> Iterator[None]:
    """The block as one transaction that commits: SET CONSTRAINTS ALL IMMEDIATE runs the deferred
    checks before its savepoint is released, and an error there undoes the block alone."""
    with transaction.atomic():
        yield
        connection.check_constraints()


class LedgerMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        with committed():
            self.users = [make_user(f"u{next(names)}") for _ in range(4)]
            self.admin = make_user(f"admin{next(names)}")
            self.admin.is_staff = True
            self.admin.save()
        self.tables: list[int] = []

    @rule(who=st.integers(0, 3), coins=st.integers(1, 500), passes=st.integers(0, 2))
    @committed()
    def grant(self, who, coins, passes) -> None:
        payouts.coins_grant(user=self.users[who], amount=coins, by=self.admin, memo="stateful test")
        if passes:
            payouts.pass_grant(user=self.users[who], amount=passes, by=self.admin, memo="stateful test")

    @rule(who=st.integers(0, 3), game=st.sampled_from(["estimation", "sitaratas"]), stake=st.integers(0, 700))
    @committed()
    def open(self, who, game, stake) -> None:
        try:
            table = lobby.table_create(
                host=self.users[who],
                game=game,
                seat_count=4 if game == "estimation" else 3,
                stake=stake if game == "estimation" else 0,
            )
        except TableError:
            return
        self.tables.append(table.pk)

    @rule(who=st.integers(0, 3), pick=st.integers(0, 50), position=st.integers(1, 3))
    @committed()
    def seat(self, who, pick, position) -> None:
        if self.tables:
            with suppress(TableError):  # a refusal is a legal outcome of a random step
                lobby.seat_take(table_id=self._table(pick), user=self.users[who], position=position)

    @rule(who=st.integers(0, 3), pick=st.integers(0, 50))
    @committed()
    def leave(self, who, pick) -> None:
        if self.tables:
            with suppress(TableError):  # a refusal is a legal outcome of a random step
                lobby.seat_leave(table_id=self._table(pick), user=self.users[who])

    @rule(pick=st.integers(0, 50))
    @committed()
    def start(self, pick) -> None:
        if not self.tables:
            return
        table = Table.objects.get(pk=self._table(pick))
        if table.status != Table.Status.LOBBY:
            return
        table.seats.exclude(user=None).update(is_ready=True)
        fill_with_bots(table, table.host)
        with suppress(TableError):  # a refusal is a legal outcome of a random step
            lobby.table_start(table_id=table.pk, host=table.host, entropy=fair_value())

    @rule(pick=st.integers(0, 50))
    @committed()
    def finish(self, pick) -> None:
        match = self._playing(pick, "estimation")
        if match is not None:
            play_to_end(match)

    @rule(pick=st.integers(0, 50))
    @committed()
    def dismiss(self, pick) -> None:
        match = self._playing(pick, "sitaratas")
        if match is None:
            return
        humans = [mp.user for mp in match.match_players.filter(user__is_bot=False)]
        with suppress(TableError):  # a refusal is a legal outcome of a random step
            votes.vote_propose(match_id=match.pk, user=humans[0])
            for human in humans[1:]:
                votes.vote_cast(match_id=match.pk, user=human, yes=True)

    @rule(pick=st.integers(0, 50))
    @committed()
    def abort(self, pick) -> None:
        if self.tables:
            match = Match.objects.filter(table_id=self._table(pick), status=Match.Status.PLAYING).first()
            if match is not None:
                endings.match_abort(match_id=match.pk, by=self.admin, reason="stateful test")

    @rule(pick=st.integers(0, 50))
    @committed()
    def close(self, pick) -> None:
        if self.tables:
            with suppress(TableError):  # a refusal is a legal outcome of a random step
                lobby.table_close(table_id=self._table(pick), by=self.admin, reason="stateful test")

    @invariant()
    def coins_and_passes_are_conserved(self) -> None:
        assert_coins_conserved()
        assert_passes_conserved()

    def _table(self, pick: int) -> int:
        return self.tables[pick % len(self.tables)]

    def _playing(self, pick: int, game: str) -> Match | None:
        if not self.tables:
            return None
        return Match.objects.filter(table_id=self._table(pick), game=game, status=Match.Status.PLAYING).first()


def test_random_ledger_sequences_never_create_lose_or_double_count(monkeypatch) -> None:
    monkeypatch.setattr(tasks.vote_expire, "apply_async", lambda args, countdown: None)
    run_state_machine_as_test(
        LedgerMachine,
        settings=settings(
            max_examples=12,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
