"""The store's old import path: the store is now the package :mod:`arena.storage`."""

from arena.storage import Begun, Store

__all__ = ["Begun", "Store"]
