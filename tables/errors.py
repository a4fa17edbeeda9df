class TableError(Exception):
    """A refused table or game action; the message is shown to the player as it is."""
