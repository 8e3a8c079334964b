"""The revisions import nothing from ``arena``: what they need of the arena is frozen inside
them, so a database upgraded next year is upgraded the same way. Checked here: no revision
imports ``arena`` (read with ``ast``, as Alembic loads them from files, out of the reach of
import-linter), and each frozen copy still computes what the arena computes today."""

from __future__ import annotations

import ast
import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.rating.standings import Seat, StandingsBook
from arena.storage import migrations
from arena.v1 import arena_pb2 as pb
from arena.wire.messages import fault_reasons

VERSIONS = Path(migrations.__file__).parent / "versions"


def arena_imports(source: str) -> list[str]:
    """Each ``import arena...`` or ``from arena... import`` in ``source``, wherever it is."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "arena"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == "arena":
            found.append(node.module)
    return found


def revision(name: str) -> ModuleType:
    """A revision loaded as Alembic loads it: from its file, under no package."""
    path = next(VERSIONS.glob(f"{name}_*.py"))
    spec = importlib.util.spec_from_file_location(f"revision_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_revision_imports_the_arena() -> None:
    files = sorted(VERSIONS.glob("*.py"))
    assert len(files) >= 12
    assert {f.name: arena_imports(f.read_text()) for f in files} == {f.name: [] for f in files}


def test_the_check_sees_every_form_of_import() -> None:
    source = ("import arena\nimport os, arena.wire.messages as m\nfrom arena.rating import x\n"
              "def f():\n    from arena import storage\nfrom . import arena_like\nimport arenas\n")
    assert arena_imports(source) == ["arena", "arena.wire.messages", "arena.rating", "arena"]


REVISION_0009 = revision("0009")
SEATS = st.lists(st.tuples(st.integers(1, 6), st.integers(1, 4), st.sampled_from(["", "", "timeout",
                                                                                   "crashed"])),
                 min_size=1, max_size=5)


@settings(max_examples=60, deadline=None)
@given(st.lists(SEATS, min_size=1, max_size=25))
def test_0009s_frozen_standings_are_the_arenas(matches: list[list[tuple[int, int, str]]]) -> None:
    frozen = REVISION_0009.StandingsBook()
    book = StandingsBook()
    for match_id, seats in enumerate(matches, start=1):
        frozen.apply(match_id, [REVISION_0009.Seat(*seat) for seat in seats])
        book.apply(match_id, [Seat(*seat) for seat in seats])
    assert {bot: (line.matches, line.wins, line.rank_sum, line.faults)
            for bot, line in frozen.lines.items()} == \
        {bot: (line.matches, line.wins, line.rank_sum, line.faults)
         for bot, line in book.lines.items()}
    # the ratings too, but where the arena's rule changed since: 0009 rated two faulted
    # seats as a tie, the arena now rates a bot that only faulted against the clean seats
    if not any(_only_faulted_beside_a_clean_seat(seats) for seats in matches):
        assert {bot: (line.mu, line.sigma) for bot, line in frozen.lines.items()} == \
            {bot: (line.mu, line.sigma) for bot, line in book.lines.items()}


def _only_faulted_beside_a_clean_seat(seats: list[tuple[int, int, str]]) -> bool:
    clean = {bot for bot, _, fault in seats if not fault}
    return bool(clean) and any(bot not in clean for bot, _, fault in seats if fault)


def _log(rng: random.Random, entries: int) -> bytes:
    log = pb.MatchLog()
    for _ in range(entries):
        kind = rng.choice(["decision", "event", "fault", "fault"])
        entry = log.entries.add()
        if kind == "decision":
            entry.decision.decision_id, entry.decision.seat = rng.randrange(1000), rng.randrange(6)
            entry.decision.seconds, entry.decision.fallback = rng.random(), rng.random() < 0.5
        elif kind == "event":
            entry.event.public = rng.random() < 0.5
            entry.event.visible_to.extend(rng.sample(range(6), rng.randrange(3)))
        else:
            entry.fault.seat = rng.randrange(6)
            entry.fault.fault = rng.choice([pb.FAULT_TIMEOUT, pb.FAULT_DISCONNECTED])
            entry.fault.reason = rng.choice(["", "no answer to decision 7 in time", "é" * 300,
                                             "its stream closed"])
    return log.SerializeToString()


@pytest.mark.parametrize("seed", range(40))
def test_0010s_frozen_reader_of_fault_reasons_is_the_arenas(seed: int) -> None:
    frozen = revision("0010").fault_reasons
    rng = random.Random(seed)
    data = _log(rng, rng.randrange(12))
    assert frozen(data) == fault_reasons(data)
    for cut in range(len(data)):  # a truncated log: fewer entries, or no MatchLog at all
        assert frozen(data[:cut]) == fault_reasons(data[:cut]), cut
    two_in_one = pb.LogEntry(fault=pb.LoggedFault(seat=2, reason="first")).SerializeToString() + \
        pb.LogEntry(decision=pb.LoggedDecision(seat=1)).SerializeToString()  # one entry, merged
    merged = b"\x0a" + bytes([len(two_in_one)]) + two_in_one
    assert frozen(merged) == fault_reasons(merged) == {}


def test_0010s_frozen_reader_refuses_what_is_no_log() -> None:
    frozen = revision("0010").fault_reasons
    for data in (b"not a log", b"\xff" * 20, b"\x0a\x05\x1a\x03\x08\x01"):
        assert frozen(data) == fault_reasons(data), data
    bad_text = pb.MatchLog(entries=[pb.LogEntry(fault=pb.LoggedFault(seat=1, reason="x"))])
    data = bad_text.SerializeToString().replace(b"x", b"\xff")  # a reason that is no UTF-8
    assert frozen(data) == fault_reasons(data) == {}
