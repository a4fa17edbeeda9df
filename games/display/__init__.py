"""Games in the reader's words, at the Django edge of the pure records (``games.records``).

``scoresheets`` is the one score-sheet builder's result with its notes in the viewer's language
(live play and history alike, docs/style.md §21), ``endings`` why a game ended or a table
closed, ``charts`` the running totals as a small inline SVG (its geometry is
``games.records.charts``), ``figures`` the one way a figure is written (right in both directions), ``ratings`` the
rating on the scale players read (1500 for a
newcomer, provisional at first). Nothing here reads or writes rows.
"""
