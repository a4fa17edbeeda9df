"""Running the site: the integrity check, the metrics endpoint and the log hooks (docs/ops.md).

``integrity`` replays every game and checks the ledgers and the fair deals, behind ``manage.py
verify_matches`` and its nightly task (``tasks``); ``views`` is the Prometheus endpoint, behind
a bearer token; ``signals`` hooks the ledger's transfers and Celery's tasks into the metrics and
logs without a line in the code they watch. Nothing here writes a row of another app.
"""
