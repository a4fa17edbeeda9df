# Arabic dates (issue 26): Django's date ("1 ديسمبر، 2026") with its 12-hour time after it.
DATETIME_FORMAT = "j F، Y، g:i A"
# Django's Arabic formats group no digits; coins and points read better as 1.000.
NUMBER_GROUPING = 3
