"""The platform's one store, in Redis: see :mod:`arena.storage.matches`."""

from arena.storage.matches import GAME_ENTRANT, Begun, LadderEntry, LadderPage, LadderRow, MatchStart, Store

__all__ = ["GAME_ENTRANT", "Begun", "LadderEntry", "LadderPage", "LadderRow", "MatchStart", "Store"]
