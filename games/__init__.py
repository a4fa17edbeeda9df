"""Games: the pure library of the rules, and the site's side of the games played.

The library imports no Django and nothing of the site (docs/style.md §1; ``.importlinter``):
``engines`` (the rules, one module per game), ``bots`` (players that see only a seat's view;
``evaluate``, every legal action's expected result for reviews and hints) and ``records`` (the
score sheet, replays, places, the fair-deal protocol, the state's storage and the record checker
``python -m games.records.verify``). The site reaches them through ``catalog`` (Django's side:
its titles are translated), which holds each game's facts (title, players, options, stake, pass,
vote, signature, default clock, templates) with its engine, bots and records modules and the bot
levels' players (``get_bot``); every other place asks it, so a new game is one entry there plus
its engine, bots, records, templates, rules and its presenter,
``tables/render/presenters/<game>.py``, found by the game's name (a test checks each game has
every part; the models' choices are the catalogue's function, so no migration).

The site's side is an app like any other (docs/style.md §5): ``models`` (``Match``, one attempt
at a table; ``MatchPlayer``; ``MatchEvent``, the append-only action log; ``Rating``;
``Signature``, the Sitaratas' signature; ``Review`` and ``ReviewDecision``), ``services`` (the
writes: the signature, ratings, reviews), ``selectors`` (the reads: history, the fair-deal
panel, the profile's figures, reviews, a player's export), ``display`` (records in the reader's
words, and charts), ``tasks`` (the review queue), ``views``/``urls`` (history pages, replays,
downloads) and ``templatetags`` (cards and options in words; a player's games and review figures
on their profile, which accounts, below games, cannot ask for itself).
"""
