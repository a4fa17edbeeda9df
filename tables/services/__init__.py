"""The write side of tables (docs/style.md §5–7): one module per part of a table's life.

``lobby`` (tables, seats, bots, the clock choice, the start, the close), ``quickplay`` ("Play
now", RULING P71), ``rematch`` (the same game again at a new table, RULING P70), ``scheduled``
(a table the site starts at a set time: a tournament's round, RULING P80), ``play`` (players'
and bots' moves), ``timeouts`` (the turn clock's expiries, away seats, "I'm back", the beat
sweep), ``endings`` (aborts and abandoned games), ``votes`` (the dismissal vote), ``signatures``
(the Sitaratas' signature at the table), ``recovery`` (work a lost task should have done),
``personal`` (a deleted account's rows at finished tables), ``privacy`` (the host's choice of
who may see a table, and the access version every such change raises), ``invites``
(invitations and the table's link), ``turn_notices`` (RULING P74's notices), ``collusion``
(where a seat was taken from). Their reads are the same modules of ``tables.selectors``. Every
public function there is one transaction with keyword-only arguments. ``steps`` holds the parts
of a write that run in their caller's transaction, under its lock (a move's apply and save, a
game's end), and ``handoff`` the steps where a table's life meets payouts, ratings and reviews;
only the modules of this package call them.
"""
