"""One page of a stored ladder, as the API and the web pages both show it.

The rows and their ranking are pure functions (:mod:`arena.ladders.rows`); this reads the page's rows
from the store and shows each with :func:`arena.ladders.rows.display_row`.
"""

from __future__ import annotations

from typing import Any

from arena.ladders.rows import competition_ranks, display_row, ranked_by
from arena.storage import Store
from referee.game import VariantSpec


def page(
    store: Store, game_id: str, variant: str, spec: VariantSpec, offset: int, limit: int
) -> dict[str, Any]:
    """One page of a stored ladder for display: what the API and the web page both show.

    Reads only the page's rows (and names: never the bots' records), whatever the ladder's size.
    """
    found = store.ladders.page(game_id, variant, offset, limit)
    ranks = competition_ranks([e.key for e in found.entries], first_rank=found.first_rank, offset=offset)
    return {
        "game": game_id,
        "variant": variant,
        "rated": spec.rated,
        "team": spec.team,
        "ranked_by": ranked_by(spec),
        "total": found.total,
        "offset": offset,
        "limit": limit,
        "refit": found.refit if spec.rated else None,
        "entries": [
            {**display_row(e.bot_id, e.name, e.row, spec, e.refit), "rank": rank}
            for e, rank in zip(found.entries, ranks, strict=True)
        ],
    }
