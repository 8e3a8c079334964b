"""`--json` on the list and show commands, `arena tournament export`, and piped tables: real
`arena` processes on a real SQLite file after one small real tournament (docs/json.md)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from arena.storage.store import MatchResult, ScheduledMatch, Store
from arena.wire.codec import codec_for
from arena.wire.messages import LoggedFault, match_log
from arena.wire.tokens import digest
from tests.helpers import GAME, arena, cli

ROOT = Path(__file__).resolve().parents[2]
# a managed bot with a 300-character command (the random bot ignores arguments it does not know)
LONG_COMMAND = "python -m bots.random_bot --seed 5" + "".join(f" arg{i:03d}" for i in range(38))
# a bot never played, whose 200-character command has spaces a table could wrap at
WIDE_COMMAND = "python -m bots.random_bot " + " ".join(f"w{i:02d}" for i in range(43)) + " zz"

READS: dict[str, tuple[str, ...]] = {
    "games": ("games", "--json"),
    "bots": ("bot", "list", "--json"),
    "tournaments": ("tournament", "list", "--json"),
    "matches": ("match", "list", "--tournament", "1", "--json"),
    "leaderboard": ("leaderboard", "--json"),
    "show": ("match", "show", "1", "--json"),
    "show_seat0": ("match", "show", "1", "--seat", "0", "--json"),
    "export_json": ("tournament", "export", "1"),
    "export_csv": ("tournament", "export", "1", "--format", "csv"),
    "bot_table": ("bot", "list"),  # piped, and COLUMNS says 80: nothing wraps or is cut
    "bad_seat": ("match", "show", "1", "--seat", "9", "--json"),
    "no_tournament": ("tournament", "export", "99", "--format", "csv"),
}
DOCUMENTS = ("games", "bots", "tournaments", "matches", "leaderboard", "show", "show_seat0",
             "export_json")


@dataclass
class Played:
    db: Path
    out: dict[str, subprocess.CompletedProcess[str]]
    seeds: list[int]  # every match's seed: secret, never printed

    def doc(self, name: str) -> dict[str, Any]:
        result = self.out[name]
        assert result.returncode == 0, result.stdout + result.stderr
        document: dict[str, Any] = json.loads(result.stdout)  # one document and nothing else
        assert document["version"] == 1
        return document


def _together(calls: dict[str, tuple[str, ...]], db: Path,
              env: dict[str, str]) -> dict[str, subprocess.CompletedProcess[str]]:
    """Independent `arena` commands, run side by side (each is a process of its own)."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {name: pool.submit(arena, *args, db=None if args[0] == "games" else db,
                                     check=False, env=env)
                   for name, args in calls.items()}
        return {name: future.result() for name, future in futures.items()}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    db = tmp_path_factory.mktemp("json") / "arena.db"
    with Store(str(db)) as store:  # as `arena bot add` registers them (its tests are test_cli's)
        store.add_bot("random", LONG_COMMAND, folder=str(ROOT))
        store.add_bot("heuristic", "python -m bots.face_card_kill_card", folder=str(ROOT))
        store.add_bot("far", token_hash=digest("a remote bot's token"))
        store.add_bot("wide", WIDE_COMMAND, version="2", folder=str(ROOT))
    cli("tournament", "run", "--game", GAME, "--bot", "random", "--bot", "heuristic",
        "--players", "2", "--seed", "3", db=db)
    out = _together(READS, db, {"COLUMNS": "80"})
    with Store(str(db)) as store:
        seeds = [m.seed for m in store.list_matches(None, 100)]
    yield Played(db, out, seeds)


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _utc(text: str) -> datetime:
    when = datetime.fromisoformat(text)
    assert when.utcoffset() == timedelta(0), text
    return when


def test_every_document_is_one_json_object_without_seeds(played: Played) -> None:
    documents = [played.doc(name) for name in DOCUMENTS]
    for document in documents:
        assert not [key for key in _keys(document) if "seed" in key.lower()]
    assert len(played.seeds) == 2 and min(played.seeds) > 0
    texts = [played.out[name].stdout for name in READS]
    for seed in played.seeds:  # 64-bit numbers: no text holds one by chance
        assert not [text for text in texts if str(seed) in text], "a match's seed was printed"


def test_games(played: Played) -> None:
    games = {g["name"]: g for g in played.doc("games")["games"]}
    assert {"kill", "face-card-kill-card", "serial-killer", "king", "kings-corner", "knives"} <= set(games)
    game = games[GAME]
    assert (game["min_players"], game["max_players"]) == (2, 12)
    options = {o["name"]: o for o in game["options"]}
    assert options["ace_value"]["default"] == 11 and options["ace_value"]["choices"] == [11, 1]


def test_bot_list_gives_whole_commands_kinds_and_folders(played: Played) -> None:
    bots = {b["bot"]: b for b in played.doc("bots")["bots"]}
    assert set(bots) == {"random@1", "heuristic@1", "far@1", "wide@2"}
    random = bots["random@1"]
    assert len(LONG_COMMAND) == 300 and random["command"] == LONG_COMMAND
    assert (random["kind"], random["folder"], random["name"], random["version"]) == \
        ("managed", str(ROOT), "random", "1")
    assert bots["far@1"]["kind"] == "remote" and bots["far@1"]["command"] is None
    assert bots["wide@2"]["command"] == WIDE_COMMAND
    assert all(isinstance(b["id"], int) for b in bots.values())
    _utc(random["created_at"])


def test_piped_tables_are_neither_wrapped_nor_cut(played: Played) -> None:
    result = played.out["bot_table"]
    assert result.returncode == 0, result.stderr
    assert len(WIDE_COMMAND) == 200
    [line] = [line for line in result.stdout.splitlines() if "wide@2" in line]
    assert WIDE_COMMAND in line and str(ROOT) in line
    assert [line for line in result.stdout.splitlines() if LONG_COMMAND in line]


def test_tournament_list(played: Played) -> None:
    [tournament] = played.doc("tournaments")["tournaments"]
    assert tournament["id"] == 1 and tournament["game"] == GAME and tournament["players"] == 2
    assert tournament["bots"] == ["random@1", "heuristic@1"]
    assert (tournament["finished"], tournament["total"], tournament["void"]) == (2, 2, 0)
    assert (tournament["status"], tournament["format"]) == ("finished", "round-robin")
    assert _utc(tournament["created_at"]) <= _utc(tournament["finished_at"])


def test_match_list(played: Played) -> None:
    matches = played.doc("matches")["matches"]
    assert sorted(m["index"] for m in matches) == [0, 1]
    for match in matches:
        assert match["tournament_id"] == 1 and match["game"] == GAME and match["status"] == "finished"
        assert _utc(match["started_at"]) <= _utc(match["finished_at"])
        assert isinstance(match["duration_s"], float) and match["duration_s"] > 0
        assert [s["seat"] for s in match["seats"]] == [0, 1]
        assert {s["bot"] for s in match["seats"]} == {"random@1", "heuristic@1"}
        assert sorted(s["rank"] for s in match["seats"]) in ([1, 1], [1, 2])
        for seat in match["seats"]:
            assert isinstance(seat["score"], float) and seat["fault"] is None and seat["peer"] is None


def test_leaderboard_counts_every_finished_match(played: Played) -> None:
    rows = played.doc("leaderboard")["leaderboard"]
    assert [r["rank"] for r in rows] == [1, 2]
    assert {r["bot"] for r in rows} == {"random@1", "heuristic@1"}
    assert rows[0]["rating"] >= rows[1]["rating"]
    for row in rows:
        assert row["bot"] == f"{row['name']}@{row['version']}" and row["game"] == GAME
        assert row["matches"] == 2  # both bots sat in both finished matches
        assert row["rating"] == pytest.approx(row["mu"] - 3 * row["sigma"])
        assert row["win_share"] == pytest.approx(row["wins"] / row["matches"])
        assert row["faults"] == 0


def test_match_show_gives_the_log_in_full_or_as_a_seat_saw_it(played: Played) -> None:
    full, seen = played.doc("show")["match"], played.doc("show_seat0")["match"]
    assert full["id"] == seen["id"] == 1 and full["seats"] == seen["seats"]
    assert (full["seen_by"], seen["seen_by"]) == (None, 0)
    assert full["node"] is None and seen["node"] is None  # played on this machine
    assert "played on:" not in cli("match", "show", "1", db=played.db).stdout
    for line in full["log"]:
        assert line["kind"] in ("decision", "event") and isinstance(line["value"], str)
        assert isinstance(line["fallback"], bool) and isinstance(line["type"], str)
        assert (line["seat"] is not None) == (line["kind"] == "decision")
    assert [line for line in full["log"] if line["kind"] == "decision"]
    assert any(line["audience"] == [1] for line in full["log"])  # seat 1's private cards
    assert seen["log"] == [line for line in full["log"]
                           if (line["seat"] == 0 if line["kind"] == "decision"
                               else line["audience"] is None or 0 in line["audience"])]
    assert any(v["value"].startswith("HoleSeen(seat=0") for v in seen["log"])
    assert not any(v["value"].startswith("HoleSeen(seat=1") for v in seen["log"])
    bad = played.out["bad_seat"]
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.strip() == "error: match 1 has seats 0 to 1, not 9"


def test_match_show_says_which_node_played_a_match_played_elsewhere(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    node = "node 10.0.0.7 (id abc): bot logs /x, Ray logs /y"
    with Store(str(db)) as store:  # as a tournament run on a cluster finishes a match
        a, b = (store.add_bot(name, "python -m bots.random_bot").id for name in ("ann", "bob"))
        tid = store.create_tournament(GAME, 2, {}, 3, 1, {}, [a, b],
                                      [ScheduledMatch(0, 11, (a, b)), ScheduledMatch(1, 12, (b, a))])
        elsewhere, here = (m.id for m in store.claim_unfinished(tid))
        log = match_log(codec_for(GAME), [LoggedFault(1, "timeout", "no answer in time")])
        store.finish_match(elsewhere, MatchResult((1.0, 0.0), (1, 2), ("", "timeout"), log,
                                                  duration_s=0.5, node=node))
        store.finish_match(here, MatchResult((1.0, 0.0), (1, 2), ("", "timeout"), log,
                                             duration_s=0.5))
    printed = cli("match", "show", str(elsewhere), db=db).stdout
    header, _, rest = printed.partition(f"log of match {elsewhere}")
    assert f"played on: {node}\n" in header  # with the match's row, before its log
    assert "no answer in time" in rest
    assert "played on:" not in cli("match", "show", str(here), db=db).stdout
    shown = json.loads(cli("match", "show", str(elsewhere), "--json", db=db).stdout)["match"]
    assert shown["node"] == node and shown["id"] == elsewhere
    assert json.loads(cli("match", "show", str(here), "--json", db=db).stdout)["match"]["node"] \
        is None


def test_export_json_and_csv_agree_with_the_match_list(played: Played) -> None:
    exported = played.doc("export_json")
    assert exported["tournament"]["id"] == 1 and exported["tournament"]["total"] == 2
    matches = exported["matches"]
    assert [m["index"] for m in matches] == [0, 1]  # schedule order
    listed = {m["id"]: m for m in played.doc("matches")["matches"]}
    assert {m["id"]: m for m in matches} == listed

    rows = list(csv.DictReader(io.StringIO(played.out["export_csv"].stdout)))
    assert played.out["export_csv"].returncode == 0
    assert len(rows) == 2 * 2  # seats x matches
    assert list(rows[0]) == ["match_id", "index", "status", "started_at", "finished_at",
                             "duration_s", "seat", "bot", "rank", "score", "fault"]
    for row in rows:
        match = listed[int(row["match_id"])]
        seat = match["seats"][int(row["seat"])]
        assert (row["bot"], int(row["rank"]), float(row["score"])) == \
            (seat["bot"], seat["rank"], seat["score"])
        assert (row["status"], row["fault"], int(row["index"])) == ("finished", "", match["index"])
        assert row["started_at"] == match["started_at"]
        assert float(row["duration_s"]) == pytest.approx(match["duration_s"])


def test_export_to_a_file_never_overwrites_without_force(played: Played, tmp_path: Path) -> None:
    target = tmp_path / "t1.csv"
    cli("tournament", "export", "1", "--format", "csv", "--output", str(target), db=played.db)
    assert target.read_text() == played.out["export_csv"].stdout
    target.write_text("mine\n")
    again = cli("tournament", "export", "1", "--output", str(target), db=played.db, check=False)
    assert again.returncode == 1 and "Traceback" not in again.stderr
    assert again.stderr.strip().count("\n") == 0 and "--force" in again.stderr
    assert target.read_text() == "mine\n"
    cli("tournament", "export", "1", "--output", str(target), "--force", db=played.db)
    assert json.loads(target.read_text())["matches"] == played.doc("export_json")["matches"]


def test_an_unknown_tournament_is_one_clear_line(played: Played) -> None:
    result = played.out["no_tournament"]
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.strip() == "error: no tournament with id 99"
