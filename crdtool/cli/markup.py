"""Rich console markup for text that comes from the user's input (names, messages, values).

Rich's own ``rich.markup.escape`` escapes a tag only when it closes within the text it is given: ``[/`` or
``[a`` alone is left as it is, and a line that joins such a text with a later ``]`` (another name, a message,
the report's own punctuation) holds a tag Rich refuses (``MarkupError: closing tag '[/ (]' ... doesn't match any
open tag``) or, worse, applies. :func:`escape` escapes every start of a tag, closed within the text or not, so
that each escaped text stays literal whatever is printed beside it on the line. No Rich import: a regular
expression.
"""

from __future__ import annotations

import re

#: the start of a Rich tag (rich/markup.py ``RE_TAGS``: ``[`` then ``[a-z#/@]``), with the backslashes before it
_TAG_START = re.compile(r"(\\*)(\[[a-z#/@])")


def _escaped(match: re.Match[str]) -> str:
    backslashes, start = match.groups()
    # Rich reads 2n backslashes before a tag as n literal ones, an odd one more as the tag's escape.
    return f"{backslashes}{backslashes}\\{start}"


def escape(text: str) -> str:
    """``text`` (a str) as console markup that Rich prints as ``text``, whatever markup surrounds it on its line.

    Equal to ``rich.markup.escape(text)`` wherever every tag start in ``text`` closes within it (Rich escapes
    the same starts the same way); unlike it, a start that does not close is escaped too. A trailing backslash
    is doubled, as Rich does, so that it cannot escape a tag that follows.
    """
    if "[" in text:
        text = _TAG_START.sub(_escaped, text)
    if text.endswith("\\") and not text.endswith("\\\\"):
        return text + "\\"
    return text
