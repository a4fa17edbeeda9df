# Estonian dates (issue 26): Django's date ("1. detsember 2026") with the time after it.
DATETIME_FORMAT = "j. F Y, H:i"
TIME_FORMAT = "H:i"
