"""Text as it can be shown: every lone surrogate replaced by U+FFFD, the replacement character.

Names are checked as they come in (:mod:`arena.api.schemas.names`), but records written before that
rule may hold a lone surrogate (JSON can carry ``"\\ud800"``, UTF-8 cannot). What shows stored text
(a page, an API answer, a line the command line prints) passes it through here on its way out, so
that one such record never makes a page, an answer or a command fail for everyone. A pair of
surrogates that stands for one character is joined into it.
"""

from __future__ import annotations

from typing import Any


def well_formed(text: str) -> str:
    """``text`` with each lone surrogate as U+FFFD; ``text`` itself when it has none (the usual case,
    costing one encoding attempt).

    >>> well_formed("x\\ud800"), well_formed("\\ud83c\\udf0b"), well_formed("plain")
    ('x�', '🌋', 'plain')
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def well_formed_json(value: Any) -> Any:
    """A JSON-like value (dicts, lists, tuples, strings, anything else as it is) with every string in
    it, keys included, made :func:`well_formed`."""
    if isinstance(value, str):
        return well_formed(value)
    if isinstance(value, dict):
        return {well_formed_json(key): well_formed_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [well_formed_json(item) for item in value]
    return value
