"""What social tells the apps above it, which it may not import.

``relation_ended`` is sent inside the transaction of a block or an unfriending, with the two
players' ids (``user_ids``): what either may see of the other's private tables changes with it
(RULINGS P66, P67), and the tables app has their open sockets decide again. ``relation_began``,
sent when two players become friends or a block is lifted, lets the open views of those tables
offer a seat to whom it now seats.
"""

from __future__ import annotations

from django.dispatch import Signal

relation_ended = Signal()  # sender: the function that ended it; kwargs: user_ids
# A friendship made or a block lifted: who may sit at the other's private tables changes (issue 53).
relation_began = Signal()  # sender: the function that began it; kwargs: user_ids
