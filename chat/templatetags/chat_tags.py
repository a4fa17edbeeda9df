"""``{% match_chat match %}``: a finished game's chat on its page, for its players only.

The games app's page loads this tag rather than importing chat: chat is the higher layer.
"""

from __future__ import annotations

from django import template

from chat.selectors import match_messages

register = template.Library()


@register.inclusion_tag("chat/_match_chat.html", takes_context=True)
def match_chat(context, match) -> dict:
    request = context.get("request")
    messages = match_messages(match=match, user=getattr(request, "user", None))
    return {"chat_messages": messages, "match": match}
