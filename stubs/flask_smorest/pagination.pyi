# See __init__.pyi: the part of flask_smorest/pagination.py the platform uses.

from typing import Any

class PaginationParameters:
    page: int
    page_size: int
    item_count: int | None

    def __init__(self, page: int, page_size: int) -> None: ...
    @property
    def first_item(self) -> int: ...
    @property
    def last_item(self) -> int: ...

class Page:
    def __init__(self, collection: Any, page_params: PaginationParameters) -> None: ...
    @property
    def items(self) -> list[Any]: ...
    @property
    def item_count(self) -> int: ...
