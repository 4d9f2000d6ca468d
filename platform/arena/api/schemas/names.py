"""What a name given to the platform may be: text people can read, one rule for every kind of name.

Bots, tournaments and organizers are shown by name on every page, in every list and in the API's
answers, to people who tell them apart by it. So a name (:class:`Name`) is:

- Unicode text: every character a Unicode scalar value. JSON can carry a lone surrogate
  (``"x\\ud800"``), which is no character at all: it cannot be written as UTF-8, so a page or an
  answer showing it could not be sent;
- normalised to NFC, so that one name typed two ways (``é`` as one character or as ``e`` and a
  combining accent) is the same name, as stored and as compared;
- free of what does not show or shows as something else: control characters (``Cc``), format
  characters (``Cf``: zero-width spaces and joiners, right-to-left and other bidirectional
  overrides, which reorder the text around them), private-use characters (``Co``), code points no
  character is assigned to yet (``Cn``, noncharacters among them) and line or paragraph separators
  (``Zl``, ``Zp``);
- not blank: white space around it (spaces, tabs, line ends) is taken off, and something must
  remain;
- at most :data:`MAX_NAME_LENGTH` characters (code points, after normalisation).

A name refused is a 422 naming the field, with what is wrong and where (the position and the
code point), so that its author can find a character they cannot see.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import ValidationError, fields, validate

MAX_NAME_LENGTH = 64
"""The longest name, in characters (Unicode code points)."""
UNREADABLE = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character (zero-width or bidirectional)",
    "Co": "a private-use character",
    "Cs": "a lone surrogate, which is not a character",
    "Cn": "a code point that is not an assigned character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
"""The Unicode general categories refused in a name, with what each is called in the refusal."""


def _refused_character(text: str) -> str | None:
    """Why ``text`` cannot be a name because of one of its characters (the first such), or None."""
    for position, character in enumerate(text, start=1):
        category = unicodedata.category(character)
        if category in UNREADABLE:
            return f"character {position} (U+{ord(character):04X}) is {UNREADABLE[category]}"
    return None


def readable_name(value: str) -> str:
    """``value`` as the name it stands for (NFC, no spaces around), or :class:`ValidationError`
    saying why it is not one.

    >>> readable_name(" Cafe\\u0301 ")
    'Café'
    >>> readable_name("x\\u202eevil")
    Traceback (most recent call last):
    ...
    marshmallow.exceptions.ValidationError: character 2 (U+202E) is an invisible formatting ...
    """
    name = value.strip()  # a tab or line end pasted around a name goes, as spaces do
    refused = _refused_character(name)  # before normalising: a lone surrogate is not text to normalise
    if refused is not None:
        raise ValidationError(refused)
    name = unicodedata.normalize("NFC", name)
    if not name:
        raise ValidationError("must not be blank")
    if len(name) > MAX_NAME_LENGTH:
        raise ValidationError(f"must be at most {MAX_NAME_LENGTH} characters (it has {len(name)})")
    return name


class Name(fields.String):
    """A name given to the platform (a bot's, a tournament's, an organizer's): see the module's
    docstring. Loaded as its NFC form with no spaces around; shown as stored."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {
            "description": f"1 to {MAX_NAME_LENGTH} characters of readable Unicode text, stored in NFC; "
            "no control, invisible formatting (zero-width, bidirectional) or private-use characters",
            **kwargs.pop("metadata", {}),
        }
        # the length again as a validator: the OpenAPI document shows it (minLength, maxLength)
        super().__init__(validate=validate.Length(1, MAX_NAME_LENGTH), metadata=metadata, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        return readable_name(text)
