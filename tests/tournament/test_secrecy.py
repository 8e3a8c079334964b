"""The shuffle seeds, and the tournament's secret key they come from, never reach a bot: not
in its argv, environment, messages or log."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from arena.storage.store import Store
from arena.tournament import RunSettings, create_tournament, run_until_done

GAME = "face-card-kill-card"
TOURNAMENT_SEED = 0x5EED_1234_ABCD_9876


def encodings(seed: int) -> list[bytes]:
    """The ways a seed could travel: decimal, hex, raw 8 bytes either way, a protobuf varint."""
    varint = bytearray()
    value = seed
    while True:
        byte, value = value & 0x7F, value >> 7
        varint.append(byte | (0x80 if value else 0))
        if not value:
            break
    return [str(seed).encode(), f"{seed:x}".encode(), f"{seed:X}".encode(),
            seed.to_bytes(8, "big"), seed.to_bytes(8, "little"), bytes(varint)]


@pytest.mark.parametrize("sandbox", [True, False], ids=["sandboxed", "unsandboxed"])
def test_no_seed_reaches_a_bot(tmp_path: Path, sandbox: bool, request: pytest.FixtureRequest) -> None:
    """The spy dumps its argv, its environment, every message it gets and every file it can
    read in the arena's data folder. Sandboxed (as bots run by default) it can write nowhere
    the test could read, so it dumps to its stdout, which the arena keeps in its log (a log
    per lane: each seat rotation of a deal is played by another process of it); it must not
    see the data folder at all. Unsandboxed (``--no-sandbox``) it can read the data folder,
    the other bot's log included, and every process of it appends its dumps to a file of the
    test's."""
    if sandbox:
        request.getfixturevalue("sandboxed")  # skipped (failed in CI) without bubblewrap
    db = tmp_path / "db" / "arena.db"
    db.parent.mkdir()
    data_dir = tmp_path / "arena-data"
    dump = tmp_path / "spy.dump"
    store = Store(str(db))
    store.add_bot("random", "python -m bots.random_bot")
    store.add_bot("spy", f"python -m tests.bots.misbehaving spy {'-' if sandbox else dump} {data_dir}")
    settings = RunSettings(parallel=2, move_timeout_s=5, start_timeout_s=10, sandbox=sandbox)
    tid = create_tournament(store, GAME, ["random", "spy"], 3, 1, TOURNAMENT_SEED, {}, settings)
    summary = run_until_done(store, tid, data_dir, settings)
    assert summary.faults == 0 and summary.left == 0
    matches = store.list_matches(tid, 100)
    seeds = {TOURNAMENT_SEED} | {store.get_match(m.id).seed for m in matches}
    assert len(seeds) > 1
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.connect() as connection:
        (key,) = connection.execute(sa.text("select deal_key from tournament")).one()
    engine.dispose()
    assert len(key) == 64  # secret deals: the spy must not learn the key either
    if sandbox:
        logs = sorted((data_dir / "logs").glob("spy@1*.log"))
        assert [p.name for p in logs] == ["spy@1.lane1.log", "spy@1.lane2.log", "spy@1.log"]
        dumps = [p.read_bytes() for p in logs]
        assert all(b"\n==\n" in d for d in dumps)  # every lane of the spy dumped
        learned = b"".join(dumps)
    else:
        learned = dump.read_bytes()
    # a dump from (nearly) every seat the spy played: the last ones may be cut short when
    # the arena stops its bots at the end of the tournament
    assert learned.count(b"\n==\n") >= len(matches)
    assert b"ARENA_TOKEN" in learned and b"ARENA_SERVER" in learned  # it saw its environment
    read = f"FILE {data_dir / 'logs' / 'random@1.log'}".encode()
    if sandbox:
        assert b"FILE " not in learned  # nothing of the data folder: it is hidden
    else:
        assert read in learned  # it read the other bot's log
    every_log = b"".join(p.read_bytes() for p in (data_dir / "logs").glob("*"))
    for seed in seeds:
        for form in encodings(seed):
            assert form not in learned, (seed, form)
            assert form not in every_log, (seed, form)
    for form in (key.encode(), key.upper().encode(), bytes.fromhex(key)):
        assert form not in learned, ("key", form)
        assert form not in every_log, ("key", form)
