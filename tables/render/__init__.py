"""The table's render: what one viewer sees, built from a snapshot (apart from the socket).

``fragment`` renders a table page's lobby or game for one viewer from
``tables.selectors.snapshot``; ``presenters`` (one module per game, found in its one registry
keyed by the catalogue) shape an engine's view for its template; ``templates`` is the Jinja2
environment of ``templates/jinja2/`` with the blocks every viewer shares rendered once per
version or round; ``regions`` sends a socket only the parts of its view that changed;
``widgets`` the fragment's one-click socket forms; ``play_screen`` the pieces the fragment and
the table page share; ``clock_view`` the turn clock's words and countdowns. Nothing here writes
or imports the write side (``.importlinter``).
"""
