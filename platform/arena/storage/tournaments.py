"""Tournaments: their records, their matches (stored with them, round by round), their rounds and a
knockout's replays of tied pods (a hash, the pod's first match -> its replays, read into the rounds)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from arena.records import MatchRecord, RoundRecord, TournamentRecord
from arena.storage.base import Part, Shared, dumps
from arena.storage.matches import Matches
from referee.match import MatchSpec


class Tournaments(Part):
    def __init__(self, shared: Shared, matches: Matches) -> None:
        super().__init__(shared)
        self.matches = matches

    def add(self, tournament: TournamentRecord, matches: Sequence[tuple[MatchRecord, MatchSpec]]) -> None:
        """Store a tournament with all its matches in one go (nothing is enqueued here)."""
        with self.redis.pipeline() as pipe:
            pipe.set(self.key("tournament", tournament.id), dumps(tournament.to_json()))
            pipe.zadd(self.key("tournaments"), {tournament.id: tournament.created_ts})
            if matches:
                pipe.rpush(self.key("tournament", tournament.id, "matches"), *[m.id for m, _ in matches])
            self.matches.add_in(pipe, matches)
            pipe.execute()

    def get(self, tournament_id: str) -> TournamentRecord | None:
        raw = self.redis.get(self.key("tournament", tournament_id))
        return None if raw is None else TournamentRecord.from_json(json.loads(raw))

    def match_ids(self, tournament_id: str) -> list[str]:
        return [str(m) for m in self.redis.lrange(self.key("tournament", tournament_id, "matches"), 0, -1)]

    def recent_ids(self, limit: int, offset: int = 0) -> list[str]:
        return [str(t) for t in self.redis.zrevrange(self.key("tournaments"), offset, offset + limit - 1)]

    def count(self) -> int:
        return int(self.redis.zcard(self.key("tournaments")))

    def mark_cancelled(self, tournament: TournamentRecord) -> None:
        """Store a cancelled tournament's record and the mark its running matches stop at
        (:meth:`arena.storage.matches.Matches.stop_asked`)."""
        with self.redis.pipeline() as pipe:
            pipe.set(self.key("tournament", tournament.id), dumps(tournament.to_json()))
            pipe.set(self.key("tournament", tournament.id, "cancelled"), "1")
            pipe.execute()

    def take_round_mark(self, tournament_id: str, round_no: int) -> bool:
        """True for the one caller that may make this round (SET NX): a round is made exactly once."""
        mark = self.key("tournament", tournament_id, "made", str(round_no))
        return bool(self.redis.set(mark, "1", nx=True))

    def add_round(
        self,
        tournament_id: str,
        round_no: int,
        matches: Sequence[tuple[MatchRecord, MatchSpec]],
        byes: Sequence[str],
    ) -> None:
        """Store one round's matches under the tournament, with the round's list of matches and byes."""
        with self.redis.pipeline() as pipe:
            if matches:
                pipe.rpush(self.key("tournament", tournament_id, "matches"), *[m.id for m, _ in matches])
            round_json: RoundRecord = {"matches": [m.id for m, _ in matches], "byes": list(byes)}
            pipe.rpush(self.key("tournament", tournament_id, "rounds"), dumps(round_json))
            self.matches.add_in(pipe, matches)
            pipe.execute()

    def take_replay_mark(self, tournament_id: str, match_id: str, number: int) -> bool:
        """True for the one caller that may make replay ``number`` of the pod whose first match is
        ``match_id`` (SET NX): a replay is made exactly once."""
        mark = self.key("tournament", tournament_id, "replayed", match_id, str(number))
        return bool(self.redis.set(mark, "1", nx=True))

    def add_replay(
        self,
        tournament_id: str,
        pod_match: str,
        earlier: Sequence[str],
        match: MatchRecord,
        spec: MatchSpec,
    ) -> None:
        """Store a replay of the pod whose first match is ``pod_match`` (after its ``earlier``
        replays) under the tournament: the caller holds its mark, and the replay before it has
        ended, so nothing else writes the pod's list meanwhile."""
        with self.redis.pipeline() as pipe:
            pipe.rpush(self.key("tournament", tournament_id, "matches"), match.id)
            pipe.hset(
                self.key("tournament", tournament_id, "replays"), pod_match, dumps([*earlier, match.id])
            )
            self.matches.add_in(pipe, [(match, spec)])
            pipe.execute()

    def rounds(self, tournament_id: str) -> list[RoundRecord]:
        """The rounds made so far, each ``{"matches": [ids], "byes": [bot ids]}`` and, where pods were
        replayed, ``"replays": {first match: [replays]}``."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.lrange(self.key("tournament", tournament_id, "rounds"), 0, -1)
            pipe.hgetall(self.key("tournament", tournament_id, "replays"))
            raw, raw_replays = pipe.execute()
        replays = {str(match): json.loads(listed) for match, listed in raw_replays.items()}
        rounds: list[RoundRecord] = [json.loads(item) for item in raw]
        for round_ in rounds:
            replayed = {match: replays[match] for match in round_["matches"] if match in replays}
            if replayed:
                round_["replays"] = replayed
        return rounds
