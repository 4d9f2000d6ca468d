"""Drawing helpers every game's board picture may use: :mod:`.svg`, a small SVG writer with a
common seat palette. Pure string building, no I/O; the pictures themselves are the games' own."""
