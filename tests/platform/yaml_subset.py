"""A reader for the small part of YAML that ``docker-compose.yml`` uses, for checking it in tests
where PyYAML is not installed.

Block mappings and sequences by indentation, ``- key: value`` items, plain and double-quoted
scalars, flow sequences written as JSON, ``{}``, comments, and anchors (``&name``) with aliases
(``*name``) used as whole values. Anything else raises :class:`ValueError`, so a file this reader
accepts is read the way YAML reads it.
"""

from __future__ import annotations

import json
import re
from typing import Any

_KEY = re.compile(r"^(?P<key>[A-Za-z0-9_.\-]+):(?:\s+(?P<rest>.*))?$")


def _strip_comment(line: str) -> str:
    quoted = False
    for index, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == "#" and not quoted and (index == 0 or line[index - 1] == " "):
            return line[:index].rstrip()
    return line.rstrip()


def _scalar(text: str, anchors: dict[str, Any]) -> Any:
    if text.startswith("*"):
        return anchors[text[1:]]
    if text.startswith('"') or text.startswith("["):
        return json.loads(text)
    if text == "{}":
        return {}
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if text[:1] in "'{&|>!%@`":
        raise ValueError(f"unsupported YAML: {text!r}")
    return text


def load(text: str) -> Any:
    lines = [(len(raw) - len(raw.lstrip(" ")), raw.strip()) for raw in map(_strip_comment, text.splitlines())]
    lines = [(indent, content) for indent, content in lines if content]
    anchors: dict[str, Any] = {}
    value, end = _block(lines, 0, lines[0][0], anchors)
    if end != len(lines):
        raise ValueError(f"unexpected indentation at: {lines[end][1]!r}")
    return value


def _value_after(rest: str | None, lines, index: int, indent: int, anchors) -> tuple[Any, int]:
    """The value of ``key: rest``; a block below when ``rest`` is empty or only an anchor."""
    anchor = None
    if rest and rest.startswith("&"):
        anchor, _, rest = rest[1:].partition(" ")
    if rest:
        value = _scalar(rest, anchors)
    elif index < len(lines) and lines[index][0] > indent:
        value, index = _block(lines, index, lines[index][0], anchors)
    elif index < len(lines) and lines[index][0] == indent and lines[index][1].startswith("- "):
        value, index = _block(lines, index, indent, anchors)
    else:
        value = None
    if anchor:
        anchors[anchor] = value
    return value, index


def _block(lines, index: int, indent: int, anchors) -> tuple[Any, int]:
    if lines[index][1].startswith("- "):
        items = []
        while index < len(lines) and lines[index][0] == indent and lines[index][1].startswith("- "):
            content = lines[index][1][2:]
            match = _KEY.match(content)
            if match:  # "- key: value" opens a mapping whose other keys sit two columns in
                inner = [(indent + 2, content), *lines[index + 1 :]]
                value, used = _block(inner, 0, indent + 2, anchors)
                items.append(value)
                index += used
            else:
                items.append(_scalar(content, anchors))
                index += 1
        return items, index
    mapping: dict[str, Any] = {}
    while index < len(lines) and lines[index][0] == indent:
        match = _KEY.match(lines[index][1])
        if not match:
            raise ValueError(f"expected 'key: value', got {lines[index][1]!r}")
        key = match["key"]
        if key in mapping:
            raise ValueError(f"duplicate key {key!r}")
        mapping[key], index = _value_after(match["rest"], lines, index + 1, indent, anchors)
    return mapping, index
