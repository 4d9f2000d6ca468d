"""Renown: tokens scored on the scientist card, cashed onto the public track.

Tokens are scored by action cards at science locations and by position bonuses; the lead scientist
gains one extra token each time it scores. Only cashed renown counts at the end. In the Claim
renown step a scientist in the Science Station trades every token one for one; once lava has taken
every space of the Science Station, a scientist in the Town Hall trades three tokens for two.

>>> from referee.boulderville.edition import EDITION
>>> EDITION.rules.cash_rates["town_hall"]
(3, 2)
"""

from __future__ import annotations

from referee.boulderville.edition import EDITION
from referee.boulderville.table import LAVA, Table


def score_renown(table: Table, seat: int, tokens: int, reason: str) -> None:
    """Put ``tokens`` renown tokens on the seat's scientist card (plus the lead's extra one)."""
    if tokens <= 0:
        return
    extra = EDITION.rules.lead_bonus_tokens if seat == table.lead else 0
    table.scientists[seat].tokens += tokens + extra
    table.log("renown_scored", seat=seat, tokens=tokens + extra, lead_extra=extra, reason=reason)


STATION = EDITION.board.spaces_of("science_station")


def station_destroyed(table: Table) -> bool:
    terrain = table.terrain
    if not terrain:
        return False
    for space in STATION:  # noqa: SIM110 (a plain loop: asked for every observation's terrain part)
        if terrain.get(space) != LAVA:
            return False
    return True


def cashing_place(table: Table) -> str:
    """Where tokens can be traded now: the Science Station, or the Town Hall once it is lost."""
    return "town_hall" if station_destroyed(table) else "science_station"


def claim_renown(table: Table) -> None:
    """Step 3e for every seat in lead order: trade tokens at the cashing place, as many as the rate allows."""
    place = cashing_place(table)
    give, gain = EDITION.rules.cash_rates[place]
    spaces = EDITION.board.spaces_of(place)
    for seat in table.lead_order():
        scientist = table.scientists[seat]
        if scientist.space not in spaces or scientist.tokens < give:
            continue
        lots = scientist.tokens // give
        scientist.tokens -= lots * give
        scientist.renown += lots * gain
        table.log("renown_claimed", seat=seat, tokens=lots * give, renown=lots * gain, at=place)
