"""``arena match watch ID``: a match's public view in the terminal, each public event as a line
as it is played, then its result; on this machine's database and over ``--arena`` (the operator
service's WatchMatch), both run as real commands against a real tournament whose match is held
running by a bot that waits (tests/web/gate_bot.py). With ``--all-hands`` every event, a seat's
own too: for the operator always, for an author over ``--arena`` not while the deal is
unsealed (tests/web/test_all_hands.py tests WatchMatch's rule where it is sealed). ``arena
match show`` of a running match says it is running and how to watch it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from functools import partial
from pathlib import Path
from typing import IO

import pytest

from arena.app.watch import NotStarted, follow, logged_events, public_events, shown_events
from arena.match.replay import describe, read_log
from arena.storage.store import MatchInfo, MatchStatus, Store
from tests.helpers import cli, migrated_store
from tests.served import OPERATOR, Served, eventually, remote
from tests.web.replay_fixtures import ROOT, gated_tournament, random_bots, store_played_match


class Watcher:
    """``arena match watch`` as a process, its output lines gathered as they come."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "arena", "match", "watch", *args], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, cwd=ROOT, env={**os.environ, "COLUMNS": "200"})
        self.lines: list[str] = []
        self.errors: list[str] = []
        self._readers = [threading.Thread(target=self._read, args=(pipe, into), daemon=True)
                         for pipe, into in ((self.process.stdout, self.lines),
                                            (self.process.stderr, self.errors))]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(pipe: IO[str] | None, into: list[str]) -> None:
        assert pipe is not None
        for line in pipe:
            into.append(line.rstrip("\n"))

    def printed(self, events: int) -> bool:
        """Whether it has printed at least ``events`` event lines."""
        return len(self.events()) >= events

    def events(self) -> list[str]:
        return [line for line in list(self.lines) if line.startswith("  ") and
                not line.startswith("  rank ")]

    def end(self, timeout: float = 300) -> tuple[int, str]:
        """Its exit code and what it wrote on stderr, once it has ended (and all it wrote has
        been read)."""
        code = self.process.wait(timeout=timeout)
        for reader in self._readers:
            reader.join(timeout=30)
        return code, "\n".join(self.errors)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def result_lines(match: MatchInfo) -> list[str]:
    seats = sorted(match.seats, key=lambda s: (s.rank or 0, s.seat))
    return [f"match {match.id} ({match.game}) finished"] + [
        f"  rank {s.rank}  seat {s.seat}  {s.bot}  score {s.score:g}"
        + (f"  fault: {s.fault}" if str(s.fault) else "") for s in seats]


def event_lines(match: MatchInfo, all_hands: bool = False) -> list[str]:
    return [f"  {describe(event)}" for event in shown_events(match.game, match.log, all_hands)]


def test_watch_follows_a_running_match_to_its_result(tmp_path: Path) -> None:
    gated = gated_tournament(tmp_path)
    served: Served | None = None
    watchers: list[Watcher] = []
    try:
        running, so_far = gated.running(steps_at_least=3)
        shown = cli("match", "show", str(running.id), db=gated.db)
        assert f"match {running.id} is running" in shown.stdout
        assert f"arena match watch {running.id}" in shown.stdout
        assert "no log yet" not in shown.stdout
        added = cli("author", "add", "ann", db=gated.db).stdout.splitlines()
        served = Served(gated.db)
        # an author may not see the hands of a match whose deal is not sealed (its bots run
        # without the sandbox): refused at once, in one line, over the real server
        refused = remote(served, added[2].strip(), "match", "watch", str(running.id),
                         "--all-hands", check=False)
        assert refused.returncode != 0 and refused.stdout == ""
        assert refused.stderr.count("\n") == 1 and "without the sandbox" in refused.stderr, \
            refused.stderr
        watchers = [Watcher(str(running.id), "--db", str(gated.db)),
                    Watcher(str(running.id), "--arena", served.address, "--token", OPERATOR)]
        every = Watcher(str(running.id), "--all-hands", "--arena", served.address, "--token",
                        OPERATOR)  # the operator sees every hand, always
        watchers.append(every)
        public_now = len(public_events(running.game, so_far))
        all_now = len(logged_events(running.game, so_far))
        assert all_now > public_now > 0
        eventually("every event so far", partial(every.printed, all_now))
        assert every.lines[0] == (f"match {running.id} ({running.game}) is running: its "
                                  "events, every hand, as they are played (Ctrl-C to stop)")
        for watcher in watchers[:2]:  # both follow the match as it stands, while it is held
            eventually("the public events so far", partial(watcher.printed, public_now))
            assert watcher.lines[0] == (f"match {running.id} ({running.game}) is running: its "
                                        "public events as they are played (Ctrl-C to stop)")
            assert watcher.process.poll() is None, "it waits for the match to go on"
            assert len(watcher.events()) == public_now
        gated.gate.touch()  # the held bot answers: the match plays to its end
        for watcher in watchers:
            code, err = watcher.end()
            assert code == 0, err
        final = gated.store.get_match(running.id)
        assert final.status is MatchStatus.FINISHED
        expected_events = event_lines(final)
        assert len(expected_events) > public_now  # more came after the watch began
        for watcher in watchers[:2]:
            # every public event once, in order, none missing, nothing a seat alone saw
            assert watcher.events() == expected_events
            assert watcher.lines[-len(final.seats) - 1:] == result_lines(final)
        assert every.events() == event_lines(final, all_hands=True)  # each event once, in order
        assert every.lines[-len(final.seats) - 1:] == result_lines(final)
        gated.open()
    finally:
        for watcher in watchers:
            watcher.stop()
        if served is not None:
            served.stop()
        gated.close()


def test_watch_a_finished_match_prints_it_at_once(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    with Store(str(db)) as store:
        match_id = store_played_match(store, "kill", 4, 5, {"rounds": 1})
        match = store.get_match(match_id)
    lines = read_log(match.game, match.log or b"")
    private = [line for line in lines if line.kind == "event" and line.audience is not None]
    assert private, "the log has events a seat alone saw"
    watched = cli("match", "watch", str(match_id), db=db)
    out = watched.stdout.splitlines()
    assert out == event_lines(match) + result_lines(match)
    for line in private:  # a Dealt with the seat's card, a Swapped with the discarded card...
        assert f"  {describe(line.value)}" not in out
    # the operator, who holds the database, sees every hand
    every = cli("match", "watch", str(match_id), "--all-hands", db=db).stdout.splitlines()
    assert every == event_lines(match, all_hands=True) + result_lines(match)
    for line in private:
        assert f"  {describe(line.value)}" in every


def test_watch_an_unknown_match_says_so(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    Store(str(db)).close()
    watched = cli("match", "watch", "99", db=db, check=False)
    assert watched.returncode == 1
    assert watched.stdout == "" and watched.stderr.strip() == "error: no match with id 99"


def test_a_match_that_does_not_start_is_not_waited_for_for_ever(tmp_path: Path) -> None:
    with migrated_store(tmp_path / "arena.db") as store:
        match_id = store.create_match("kings-corner", {}, 3, random_bots(store, 2))
        updates = follow(store, match_id, poll_s=0.01, pending_limit_s=0.2)
        first = next(updates)
        assert first.status == "pending" and not first.ended and first.events == ()
        with pytest.raises(NotStarted, match=f"match {match_id} has not started after 0.2 s"):
            next(updates)
