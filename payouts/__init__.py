"""Coins and game passes: one append-only, double-entry ledger (docs/style.md §8; RULINGS P4–P8).

``models`` holds the ``Account``, ``Transfer`` and ``Entry`` rows, whose constraints and
triggers keep every transfer summing to zero and every row unchanged (RULING P7); ``services``
every write (grants, stakes held and released, the pot collected, settled and refunded, passes
reserved, used and restored; the generic ``hold``, ``release``, ``collect``, ``pay_out`` and
``refund`` of an owner's account, which tournaments' pot builds on), ``owners`` the owner key of
an account (a table, a tournament: a kind and an id, so payouts imports neither), ``selectors``
balances, pots and a
player's history; ``split`` the pot split, a pure function (RULING P5). ``flows`` reads coin
flows between pairs of accounts for the admin's report (RULING P72), ``memos`` a row's memo in
the reader's language, ``signals`` new accounts' starting coins and passes. Payouts knows no
game rules and no app above it: it is handed a table (``owners.TableRef``, a Protocol) and
placements.
"""
