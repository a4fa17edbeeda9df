"""The live socket of a table: its consumer, the messages it reads, the snapshot and views it
pushes, presence, and the fan-out of one move to every socket of a process."""
