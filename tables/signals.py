"""What the table life cycle tells the apps above it, which tables may not import.

``match_finished`` is sent inside the settle transaction, after the result, payouts and ratings
are written; a receiver that has work to do queues it after commit.
"""

from __future__ import annotations

from django.dispatch import Signal

match_finished = Signal()  # sender: Match; kwargs: match
