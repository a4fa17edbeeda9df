"""Friends, friend requests and blocks: three small tables of our own (docs/social.md).

``models`` holds ``Friendship`` (two rows a friendship, one each way), ``FriendRequest`` and
``Block``; ``services`` every write, one transaction each (RULINGS P67, P68); ``selectors`` the
reads other apps use (``are_friends``, ``friend_ids``, ``blocked_either_way``: single indexed
queries, keyword-only); ``events`` the block's event for the outbox; the hourly limits are
``core.limits``'; ``signals`` what social tells the apps
above it (a relation ended), which it may not import. ``views``, ``urls`` and ``templatetags``
are the friend and block actions on the profiles; the friends page itself is ``pages.friends``,
since it reads tables.
"""
