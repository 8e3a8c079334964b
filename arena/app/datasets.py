"""Datasets of finished matches: ``arena dataset export`` writes each seat's decisions, as the
seat saw them, to Parquet, for imitation and offline learning (``docs/datasets.md`` gives the
schema).

Two files go to the folder asked for:

- ``trajectories.parquet``: one row per decision of a seat. What the seat observed, in the
  numbers of :mod:`sdk.rl`'s environments (the same :class:`~sdk.rl.encoding.Encoder` over
  the same ``Game.observe`` the referee sends) and as JSON; its legal actions as a mask over
  the environment's action space and the action chosen (an index of it); the think time; the
  seat's final score, rank and fault; the bot and version, the match, its tournament, its
  deal and rotation.
- ``deals.parquet``: one row per match, its full record: every seat's opening view (the cards
  dealt) and every decision and event with the seats that saw it.

**Secrecy**: only a match whose deal has been played in every rotation is written (the rule
of :mod:`arena.app.visibility`, applied in the store's query): a running tournament's deal
that a rotation has still to play stays out, so no export can help a bot still to play it.
The matches held back are counted, and said.

The export streams: matches are read :attr:`DatasetRequest.batch` at a time and each batch is
written as row groups before the next is read, so memory does not grow with the export. The
files are written under temporary names and renamed at the end: an export that fails leaves
nothing behind, and never half a file.

Needs the ``rl`` extra (numpy, pettingzoo and pyarrow): without it, one line says so.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ArenaError, ErrorKind
from arena.games import base_game, get_game
from arena.games.values import to_json
from arena.match.replay import read_log, steps
from arena.storage.store import DealtMatch, MatchFilter, Store

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

    from sdk.rl.spaces import Spaces

TRAJECTORIES = "trajectories.parquet"
DEALS = "deals.parquet"


class DatasetError(ArenaError):
    """A dataset that cannot be exported as asked (a bad filter, a folder already holding one,
    the ``rl`` extra missing)."""

    kind = ErrorKind.BAD_REQUEST


@dataclass(frozen=True, kw_only=True)
class DatasetRequest:
    """What to export, and where: ``out``, a folder (made if missing; it must not hold a
    dataset already); the filters (None: any): a tournament, a game, a rating pool
    (``kill[target_score=11]``), a bot (``NAME``: every version, or ``NAME@VERSION``: only
    the rows of that bot's seats are written)."""

    out: Path
    tournament_id: int | None = None
    game: str | None = None
    pool: str | None = None
    bot: str | None = None
    batch: int = 200  # matches read and written at a time


@dataclass(frozen=True)
class DatasetSummary:
    """What an export wrote: ``rows`` decisions of ``matches`` matches (``deals`` deals), and
    ``held_back`` matches left out because another rotation of their deal is still to play."""

    out: Path
    matches: int
    rows: int
    deals: int
    held_back: int

    @property
    def files(self) -> tuple[Path, Path]:
        return self.out / TRAJECTORIES, self.out / DEALS


def export(store: Store, request: DatasetRequest) -> DatasetSummary:
    """Write the dataset ``request`` asks for (see the module); a bad filter, or a folder that
    holds a dataset already: :class:`DatasetError` (unknown tournament or bot:
    :class:`~arena.storage.store.NotFoundError`), with nothing written."""
    which, bot_ids = _filter(store, request)
    if request.batch < 1:
        raise DatasetError("the batch must be at least one match")
    libraries = _libraries()
    out = request.out
    if out.exists() and not out.is_dir():
        raise DatasetError(f"{out} is not a folder")
    for name in (TRAJECTORIES, DEALS):
        if (out / name).exists():
            raise DatasetError(f"{out / name} exists already: export to another folder")
    held_back = store.held_back(which)
    made = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    writer = _Writer(out, libraries)
    matches = rows = 0
    deals: set[int] = set()
    spaces: dict[Any, Spaces] = {}  # by game, seats and options: built once an export
    try:
        for batch in _batches(store, which, request.batch):
            table = _Rows(libraries, spaces)
            for dealt in batch:
                pool = get_game(dealt.match.game).pool(dealt.match.options)
                if request.pool is not None and pool != request.pool:
                    continue
                try:
                    table.add(dealt, pool, bot_ids)
                except ArenaError as error:  # a stored log that does not read, or replay
                    raise DatasetError(f"match {dealt.match.id}: {error}; the export stopped "
                                       "and wrote nothing") from None
                matches += 1
                deals.add(dealt.deal)
            rows += table.write(writer)
        writer.close(keep=True)
    except BaseException:
        writer.close(keep=False)
        if made:
            out.rmdir()  # the folder this export made, empty again
        raise
    return DatasetSummary(out, matches, rows, len(deals), held_back)


def _filter(store: Store, request: DatasetRequest) -> tuple[MatchFilter, set[int] | None]:
    game = request.game
    if game is not None:
        game = get_game(game).name
    if request.pool is not None:
        pool_game = get_game(base_game(request.pool)).name
        if game is not None and pool_game != game:
            raise DatasetError(f"pool {request.pool} is not a pool of {game}")
        game = pool_game
    if request.tournament_id is not None:
        store.get_tournament(request.tournament_id)  # NotFoundError for an unknown one
    bot_ids: set[int] | None = None
    if request.bot is not None:
        name, _, version = request.bot.partition("@")
        if version:
            bot_ids = {store.get_bot(name, version).id}
        else:
            bot_ids = {b.id for b in store.list_bots(include_removed=True) if b.name == name}
            if not bot_ids:
                store.get_bot(name)  # NotFoundError, in the store's words
    return MatchFilter(request.tournament_id, game,
                       None if bot_ids is None else tuple(sorted(bot_ids))), bot_ids


def _batches(store: Store, which: MatchFilter, size: int) -> Iterator[list[DealtMatch]]:
    after = 0
    while batch := store.dealt_matches(which, after, size):
        yield batch
        after = batch[-1].match.id


# ---------------------------------------------------------------- the libraries


@dataclass(frozen=True)
class _Libraries:
    np: Any
    pa: Any
    pq: Any
    spaces: Any  # sdk.rl.spaces.Spaces


def _libraries() -> _Libraries:
    try:
        import numpy
        import pyarrow
        import pyarrow.parquet

        from sdk.rl.spaces import Spaces
    except ImportError as missing:
        raise DatasetError(f"a dataset export needs the rl extra: pip install 'card-arena[rl]' "
                           f"({missing})") from None
    return _Libraries(numpy, pyarrow, pyarrow.parquet, Spaces)


# ---------------------------------------------------------------- rows


@dataclass
class _Rows:
    """A batch's rows, column by column; ``spaces``: the export's encoders and action spaces."""

    libraries: _Libraries
    spaces: dict[Any, Spaces]
    columns: dict[str, list[Any]] = field(default_factory=dict)
    observations: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    deals: dict[str, list[Any]] = field(default_factory=dict)

    def add(self, dealt: DealtMatch, pool: str, bot_ids: set[int] | None) -> None:
        """A match's rows (those of the seats of ``bot_ids``, None: every seat's), and its
        full record."""
        match = dealt.match
        assert match.log is not None, f"finished match {match.id} without a log"
        players = len(match.seats)
        spaces = self._spaces(match.game, players, match.options)
        game, index = spaces.game, spaces.catalogue.index
        wanted = {s.seat for s in match.seats if bot_ids is None or s.bot_id in bot_ids}
        lines = read_log(game.name, match.log)
        # per decision, what changes from one to the next; the rest once the match is read
        decided: dict[str, list[Any]] = {key: [] for key in _PER_DECISION}
        # the decision to come: (its number, the seat, what it saw: numbers and JSON, its
        # legal actions), read before the engine moves on
        pending: tuple[int, int, np.ndarray, str, np.ndarray] | None = None
        opening: list[Any] = []
        for step in steps(game.name, players, match.seed, dict(match.options), lines, ()):
            state = step.state
            if step.decision is None:
                opening = [to_json(game.observe(state, seat)) for seat in range(players)]
            elif pending is not None:
                number, seat, numbers, seen, mask = pending
                line = step.decision
                self.observations.append(numbers)
                self.masks.append(mask)
                for key, value in zip(_PER_DECISION, (
                        seat, number, seen, index(line.value), _json(_tagged(line.value)),
                        line.fallback, line.seconds), strict=True):
                    decided[key].append(value)
            to_act = game.to_act(state)
            pending = None
            if to_act is not None and to_act in wanted:
                observation = game.observe(state, to_act)
                pending = (step.index, to_act, spaces.encoder.encode(observation),
                           _json(observation), spaces.mask(game.legal_actions(state)))
        rows = len(decided["seat"])
        seats = [{"bot": s.bot.rpartition("@")[0], "version": s.bot.rpartition("@")[2],
                  "score": s.score, "rank": s.rank, "fault": str(s.fault)} for s in match.seats]
        per_seat = {key: [seats[seat][key] for seat in decided["seat"]] for key in seats[0]}
        per_match = {"match": match.id, "tournament": match.tournament_id, "deal": dealt.deal,
                     "rotation": dealt.rotation, "game": game.name, "pool": pool,
                     "players": players}
        for key, values in (*decided.items(), *per_seat.items(),
                            *((k, [v] * rows) for k, v in per_match.items())):
            self.columns.setdefault(key, []).extend(values)
        record = [{"kind": line.kind, "seat": line.seat,
                   "audience": None if line.audience is None else sorted(line.audience),
                   "value": _tagged(line.value) if line.kind != "fault" else
                   {"fault": str(line.value.fault), "reason": line.value.reason}}
                  for line in lines]
        for key, value in (
                *per_match.items(), ("options_json", _json(match.options)),
                ("seats", [s.bot for s in match.seats]),
                ("scores", [s.score for s in match.seats]),
                ("ranks", [s.rank for s in match.seats]),
                ("opening_json", _json(opening)), ("record_json", _json(record))):
            self.deals.setdefault(key, []).append(value)

    def _spaces(self, game_name: str, players: int, options: Mapping[str, Any]) -> Spaces:
        key = (game_name, players, json.dumps(sorted(options.items()), default=str))
        found = self.spaces.get(key)
        if found is None:
            found = self.spaces[key] = self.libraries.spaces.of(get_game(game_name), players,
                                                                 options)
        return found

    def write(self, writer: _Writer) -> int:
        """Write the batch; how many decision rows it had."""
        pa = self.libraries.pa
        rows = len(self.observations)
        if rows:
            arrays = {key: pa.array(values, type=TRAJECTORY_TYPES[key](pa))
                      for key, values in self.columns.items()}
            arrays["observation"] = _lists(self.libraries, self.observations, pa.float32())
            arrays["legal_mask"] = _lists(self.libraries, self.masks, pa.bool_())
            writer.trajectories(pa.table({name: arrays[name] for name in TRAJECTORY_COLUMNS}))
        if self.deals:
            writer.deals(pa.table({key: pa.array(self.deals[key], type=kind(pa))
                                   for key, kind in DEAL_TYPES.items()}))
        return rows


def _json(value: Any) -> str:
    """A game value as compact JSON text."""
    return json.dumps(to_json(value), separators=(",", ":"))


def _tagged(value: Any) -> dict[str, Any]:
    """An action or an event as JSON, with its type: ``{"type": "Kill", "target": 1}``."""
    data = to_json(value)
    return {"type": type(value).__name__, **(data if isinstance(data, dict) else {"value": data})}


def _lists(libraries: _Libraries, vectors: Sequence[np.ndarray], kind: pa.DataType) -> pa.Array:
    np, pa = libraries.np, libraries.pa
    offsets = np.zeros(len(vectors) + 1, np.int32)
    np.cumsum([len(v) for v in vectors], out=offsets[1:])
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(np.concatenate(vectors), kind))


def _int(bits: int) -> Any:
    return lambda pa: getattr(pa, f"int{bits}")()


_PER_DECISION = ("seat", "decision", "observation_json", "action", "action_json", "fallback",
                 "think_s")
"""The columns of ``trajectories.parquet`` that change from one decision of a match to the
next (the others are the seat's or the match's)."""

TRAJECTORY_TYPES: Mapping[str, Any] = {
    "match": _int(64), "tournament": _int(64), "deal": _int(64), "rotation": _int(32),
    "game": lambda pa: pa.string(), "pool": lambda pa: pa.string(), "players": _int(8),
    "seat": _int(8), "bot": lambda pa: pa.string(), "version": lambda pa: pa.string(),
    "decision": _int(32), "observation_json": lambda pa: pa.string(), "action": _int(32),
    "action_json": lambda pa: pa.string(), "fallback": lambda pa: pa.bool_(),
    "think_s": lambda pa: pa.float32(), "score": lambda pa: pa.float64(), "rank": _int(16),
    "fault": lambda pa: pa.string(),
}
"""The columns of ``trajectories.parquet`` built from Python values, with their types."""

TRAJECTORY_COLUMNS = (
    "match", "tournament", "deal", "rotation", "game", "pool", "players", "seat", "bot",
    "version", "decision", "observation", "observation_json", "legal_mask", "action",
    "action_json", "fallback", "think_s", "score", "rank", "fault")
"""The columns of ``trajectories.parquet``, in order."""

DEAL_TYPES: Mapping[str, Any] = {
    "deal": _int(64), "match": _int(64), "tournament": _int(64), "rotation": _int(32),
    "game": lambda pa: pa.string(), "pool": lambda pa: pa.string(), "players": _int(8),
    "options_json": lambda pa: pa.string(), "seats": lambda pa: pa.list_(pa.string()),
    "scores": lambda pa: pa.list_(pa.float64()), "ranks": lambda pa: pa.list_(pa.int16()),
    "opening_json": lambda pa: pa.string(), "record_json": lambda pa: pa.string(),
}
"""The columns of ``deals.parquet``, in order, with their types."""


def trajectory_schema(pa: Any) -> pa.Schema:
    return pa.schema([(name, TRAJECTORY_TYPES[name](pa)) if name in TRAJECTORY_TYPES else
                      (name, pa.list_(pa.float32() if name == "observation" else pa.bool_()))
                      for name in TRAJECTORY_COLUMNS])


def deal_schema(pa: Any) -> pa.Schema:
    return pa.schema([(name, kind(pa)) for name, kind in DEAL_TYPES.items()])


# ---------------------------------------------------------------- files


class _Writer:
    """The two Parquet files, under temporary names until :meth:`close` keeps them."""

    def __init__(self, out: Path, libraries: _Libraries) -> None:
        pa, pq = libraries.pa, libraries.pq
        self.paths = [(out / f".{name}.partial", out / name) for name in (TRAJECTORIES, DEALS)]
        self._trajectories = pq.ParquetWriter(self.paths[0][0], trajectory_schema(pa),
                                              compression="zstd")
        self._deals = pq.ParquetWriter(self.paths[1][0], deal_schema(pa), compression="zstd")

    def trajectories(self, table: pa.Table) -> None:
        self._trajectories.write_table(table)

    def deals(self, table: pa.Table) -> None:
        self._deals.write_table(table)

    def close(self, *, keep: bool) -> None:
        self._trajectories.close()
        self._deals.close()
        for partial, final in self.paths:
            if keep:
                os.replace(partial, final)
            else:
                partial.unlink(missing_ok=True)


__all__ = ["DEALS", "TRAJECTORIES", "TRAJECTORY_COLUMNS", "DatasetError", "DatasetRequest",
           "DatasetSummary", "deal_schema", "export", "trajectory_schema"]
