"""``arena dataset export``: a real tournament's matches as per-seat trajectories in Parquet, each
row the very observation, mask and action of ``sdk.rl``'s environment at that decision; the
filters; no deal that a rotation has still to play; bad requests refused in one line with
nothing written."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq
import pytest

from arena.app import datasets
from arena.games import all_games
from arena.match.referee import MatchReport
from arena.match.replay import read_log
from arena.storage.store import MatchStatus, Store
from arena.tournament import MatchJob, RunSettings, create_tournament, run_tournament
from sdk import rl
from tests.helpers import add_bots, cli, eventually_async, migrated_store
from tests.inprocess import InProcessExecutor

GAME = "face-card-kill-card"
DOC = Path(__file__).parents[2] / "docs" / "datasets.md"


def _read(out: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    return (pq.read_table(out / datasets.TRAJECTORIES).to_pylist(),
            pq.read_table(out / datasets.DEALS).to_pylist())


def _decisions(store: Store, match_id: int) -> list[int | None]:
    """The seat of every decision of a match's log, in order."""
    match = store.get_match(match_id)
    assert match.log is not None
    return [line.seat for line in read_log(match.game, match.log) if line.kind == "decision"]


def assert_the_environment_agrees(store: Store, rows: Sequence[dict[str, Any]]) -> None:
    """Play each exported match again in ``sdk.rl``'s environment, dealt as the match was,
    with the exported actions: at every row the environment shows the seat to act the same
    numbers and the same mask, and at the end gives the same ranks and scores."""
    by_match: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_match[row["match"]].append(row)
    for match_id, played in by_match.items():
        match = store.get_match(match_id)
        env = rl.env(match.game, len(match.seats), **match.options)
        env.reset()
        env.state = env.game.new(len(match.seats), match.seed, dict(env.options))
        assert [r["decision"] for r in played] == list(range(len(played)))
        for row in played:
            agent = f"seat_{row['seat']}"
            assert env.game.to_act(env.state) == row["seat"]
            seen = env.observe(agent)
            assert np.array_equal(seen["observation"], np.array(row["observation"], np.float32))
            assert seen["action_mask"].astype(bool).tolist() == row["legal_mask"]
            assert row["legal_mask"][row["action"]]
            assert json.loads(row["observation_json"])["seat"] == row["seat"]
            env.play(env.catalogue.actions[row["action"]])
        outcome = env.game.outcome(env.state)
        assert outcome is not None, f"match {match_id}: the exported actions end no match"
        for row in played:
            assert (row["rank"], row["score"]) == (outcome.ranks[row["seat"]],
                                                    outcome.scores[row["seat"]])
            seat = match.seats[row["seat"]]
            assert f"{row['bot']}@{row['version']}" == seat.bot
            assert (row["rank"], row["score"]) == (seat.rank, seat.score)


def test_a_real_tournament_exports_every_decision_as_the_environment_sees_it(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    add_bots(db)
    cli("tournament", "run", "--game", GAME, "--bot", "random", "--bot", "heuristic",
        "--players", "2", "--repetitions", "3", "--seed", "5", db=db)
    exported = cli("dataset", "export", str(tmp_path / "all"), db=db)
    rows, deals = _read(tmp_path / "all")
    with Store(str(db)) as store:
        matches = store.list_matches(limit=1000)
        assert len(matches) == 6 and {m.status for m in matches} == {MatchStatus.FINISHED}
        decisions = sum(len(_decisions(store, m.id)) for m in matches)
        assert len(rows) == decisions > 0
        assert exported.stdout == (f"wrote {decisions} decisions of 6 matches to "
                                   f"{tmp_path / 'all' / datasets.TRAJECTORIES}, and their 3 "
                                   f"deals to {tmp_path / 'all' / datasets.DEALS}\n")
        assert_the_environment_agrees(store, rows)
        # the deals: one row per match, its rotations by schedule order, its full record
        assert sorted(d["match"] for d in deals) == sorted(m.id for m in matches)
        by_deal = defaultdict(list)
        for deal in deals:
            by_deal[deal["deal"]].append((deal["rotation"], deal["match"]))
            record = json.loads(deal["record_json"])
            assert [r["seat"] for r in record if r["kind"] == "decision"] == \
                _decisions(store, deal["match"])
            assert len(json.loads(deal["opening_json"])) == 2  # each seat's opening view
        assert sorted(by_deal) == sorted(min(m for _, m in pair) for pair in by_deal.values())
        assert all(sorted(pair) == [(0, min(m for _, m in pair)), (1, max(m for _, m in pair))]
                   for pair in by_deal.values())
        assert {r["deal"] for r in rows} == set(by_deal)
        assert "seed" not in json.dumps([deals, [r["observation_json"] for r in rows]])

    # the filters: a bot's seats only; another game's or pool's matches: none
    cli("dataset", "export", str(tmp_path / "random"), "--bot", "random", db=db)
    random_rows, random_deals = _read(tmp_path / "random")
    assert {r["bot"] for r in random_rows} == {"random"}
    assert len(random_rows) == sum(1 for r in rows if r["bot"] == "random")
    assert len(random_deals) == 6  # the bot sat in every match
    cli("dataset", "export", str(tmp_path / "pool"), "--pool", GAME, "--tournament", "1", db=db)
    assert len(_read(tmp_path / "pool")[0]) == len(rows)
    cli("dataset", "export", str(tmp_path / "kill"), "--game", "kill", db=db)
    assert _read(tmp_path / "kill") == ([], [])


def test_every_game_exports_what_its_environment_shows(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    store = migrated_store(tmp_path / "arena.db")
    for name in "abcde":
        store.add_bot(name, "python -m bots.random_bot")
    for game in all_games().values():
        tid = create_tournament(store, game.name, list("abcde")[:game.min_players],
                                game.min_players, 1, 3, {}, RunSettings())
        asyncio.run(run_tournament(store, tid, tmp_path, RunSettings(),
                                   executor=InProcessExecutor()))
    summary = datasets.export(store, datasets.DatasetRequest(out=tmp_path / "data", batch=4))
    rows, deals = _read(tmp_path / "data")
    assert {r["game"] for r in rows} == set(all_games())
    assert summary.rows == len(rows) and summary.matches == len(deals) == \
        sum(g.min_players for g in all_games().values())
    assert_the_environment_agrees(store, rows)

    # the documentation's way to read one game's rows into arrays
    (example,) = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    monkeypatch.chdir(tmp_path)
    names: dict[str, Any] = {}
    exec(example, names)
    king = [r for r in rows if r["game"] == "king"]
    assert names["observations"].shape == (len(king), len(king[0]["observation"]))
    assert names["masks"].dtype == bool and names["masks"].shape[0] == len(king)
    assert names["actions"].tolist() == [r["action"] for r in king]


class _Holding(InProcessExecutor):
    """Plays a tournament's matches, but holds the second rotation of its first deal until
    released."""

    def __init__(self) -> None:
        super().__init__()
        self.holding = asyncio.Event()
        self.release = asyncio.Event()

    async def play(self, job: MatchJob) -> MatchReport:
        if job.index == 1:
            self.holding.set()
            await self.release.wait()
        return await super().play(job)


def test_a_running_tournaments_unfinished_deal_is_not_exported(tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    store.add_bot("a", "python -m bots.random_bot")
    store.add_bot("b", "python -m bots.random_bot")
    tid = create_tournament(store, GAME, ["a", "b"], 2, 4, 3, {}, RunSettings())
    deal = sorted(store.list_matches(tid, 100), key=lambda m: m.index)[:2]
    executor = _Holding()

    async def run() -> None:
        running = asyncio.create_task(run_tournament(
            store, tid, tmp_path, RunSettings(parallel=2), executor=executor))
        await executor.holding.wait()
        await eventually_async("every match but the held one finished", lambda: sum(
            m.status is MatchStatus.FINISHED for m in store.list_matches(tid, 100)) == 7)
        assert store.get_match(deal[0].id).status is MatchStatus.FINISHED
        assert store.get_match(deal[1].id).status is MatchStatus.RUNNING
        summary = await asyncio.to_thread(datasets.export, store, datasets.DatasetRequest(
            out=tmp_path / "during", tournament_id=tid))
        assert (summary.matches, summary.deals, summary.held_back) == (6, 3, 1)
        executor.release.set()
        await running

    asyncio.run(run())
    rows, deals = _read(tmp_path / "during")
    assert deal[0].id not in {r["match"] for r in rows} | {d["match"] for d in deals}
    assert deal[1].id not in {r["match"] for r in rows} | {d["match"] for d in deals}
    assert deal[0].id not in {r["deal"] for r in rows} | {d["deal"] for d in deals}
    after = datasets.export(store, datasets.DatasetRequest(out=tmp_path / "after"))
    assert (after.matches, after.deals, after.held_back) == (8, 4, 0)
    assert {deal[0].id, deal[1].id} <= {d["match"] for d in _read(tmp_path / "after")[1]}


@pytest.mark.parametrize(("args", "message"), [
    (("--tournament", "7"), "no tournament with id 7"),
    (("--bot", "nobody"), "no bot nobody"),
    (("--game", "bridge"), "unknown game 'bridge'"),
    (("--game", "kill", "--pool", "king"), "pool king is not a pool of kill"),
])
def test_a_bad_filter_is_one_line_and_writes_nothing(tmp_path: Path, args: tuple[str, ...],
                                                     message: str) -> None:
    db = tmp_path / "arena.db"
    add_bots(db)
    refused = cli("dataset", "export", str(tmp_path / "out"), *args, db=db, check=False)
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and message in refused.stderr, refused.stderr
    assert not (tmp_path / "out").exists()


def test_a_folder_holding_a_dataset_is_refused_and_kept(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    add_bots(db)
    out = tmp_path / "out"
    cli("dataset", "export", str(out), db=db)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert sorted(before) == sorted([datasets.TRAJECTORIES, datasets.DEALS])
    refused = cli("dataset", "export", str(out), db=db, check=False)
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert "exists already: export to another folder" in refused.stderr
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_without_the_rl_extra_the_export_says_what_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "arena.db"
    add_bots(db)
    monkeypatch.setitem(__import__("sys").modules, "pyarrow", None)
    refused = cli("dataset", "export", str(tmp_path / "out"), db=db, check=False)
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert "needs the rl extra: pip install 'card-arena[rl]'" in refused.stderr
    assert not (tmp_path / "out").exists()


def test_the_documented_schema_is_the_files(tmp_path: Path) -> None:
    """docs/datasets.md names every column of both files, in order, with its type."""
    import pyarrow as pa

    doc = DOC.read_text()
    for schema in (datasets.trajectory_schema(pa), datasets.deal_schema(pa)):
        for name, kind in zip(schema.names, schema.types, strict=True):
            assert f"| `{name}` | `{kind}` |" in doc, (name, kind)


def test_a_damaged_log_stops_the_export_in_one_line_with_nothing_written(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    store = migrated_store(db)
    store.add_bot("a", "python -m bots.random_bot")
    store.add_bot("b", "python -m bots.random_bot")
    tid = create_tournament(store, GAME, ["a", "b"], 2, 2, 3, {}, RunSettings())
    asyncio.run(run_tournament(store, tid, tmp_path, RunSettings(), executor=InProcessExecutor()))
    damaged = max(m.id for m in store.list_matches(tid, 100))
    with sqlite3.connect(db) as raw:
        raw.execute('UPDATE "match" SET log = ? WHERE id = ?', (b"\x0a\x0b\x0c", damaged))
    refused = cli("dataset", "export", str(tmp_path / "out"), db=db, check=False)
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.startswith(f"error: match {damaged}: its log does not read: ")
    assert refused.stderr.endswith("; the export stopped and wrote nothing\n")
    assert refused.stderr.count("\n") == 1 and not (tmp_path / "out").exists()
