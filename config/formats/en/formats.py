# The site's dates in English (issue 26): day month year and a 24-hour clock, as the pages
# always showed them; the other names fall back to Django's English formats.
DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
