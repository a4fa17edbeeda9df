# Arabic dates (issue 26): Django's date ("1 ديسمبر، 2026") with its 12-hour time after it.
DATETIME_FORMAT = "j F، Y، g:i A"
