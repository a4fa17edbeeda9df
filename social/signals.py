"""What social tells the apps above it, which it may not import.

``relation_ended`` is sent inside the transaction of a block or an unfriending, with the two
players' ids (``user_ids``): what either may see of the other's private tables changes with it
(RULINGS P66, P67), and the tables app has their open sockets decide again.
"""

from __future__ import annotations

from django.dispatch import Signal

relation_ended = Signal()  # sender: the function that ended it; kwargs: user_ids
