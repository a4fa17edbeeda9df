# Estonian dates (issue 26): Django's date ("1. detsember 2026") with the time after it.
DATETIME_FORMAT = "j. F Y, H:i"
TIME_FORMAT = "H:i"
# Django's Estonian formats group no digits; coins and points read better as 1 000.
NUMBER_GROUPING = 3
