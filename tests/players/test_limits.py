"""Resource limits for bot processes: real bots hit them over real gRPC, and the arena goes on."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from arena.match.referee import MatchReport, MatchSettings
from arena.net.bot_service import MatchHost
from arena.players.limits import LAUNCHER, LimitError, ResourceLimits, parse_count, parse_memory
from arena.players.process import BotProcess
from arena.storage.store import Store
from arena.tournament import RunSettings, create_round_robin
from tests.helpers import GAME, arena, is_alive, on_server, spec

MiB = 1024 * 1024


async def limited(host: MatchHost, port: int, tmp: Path, name: str, command: str,
                  limits: ResourceLimits | None) -> BotProcess:
    bot = BotProcess(name, command, f"127.0.0.1:{port}", tmp / "logs", limits=limits)
    host.admit(bot.token)
    await bot.ensure_running()
    return bot


def two_matches_against(tmp_path: Path, mode: str, limits: ResourceLimits,
                        settings: MatchSettings) -> tuple[MatchReport, MatchReport, BotProcess]:
    """Seat 0: a misbehaving bot under ``limits``, deciding first; seat 1: a random bot."""

    async def scenario(host: MatchHost, port: int, tmp: Path) -> tuple[MatchReport, MatchReport,
                                                                        BotProcess]:
        rnd = await limited(host, port, tmp, "random", "python -m bots.random_bot", None)
        bad = await limited(host, port, tmp, mode, f"python -m tests.bots.misbehaving {mode}", limits)
        try:
            tokens = (bad.token, rnd.token)
            first = await host.play(spec("m1", tokens, seed=3, settings=settings, first=0),
                                    is_alive(bad, rnd))
            await bad.ensure_running()  # as the tournament does before every match
            second = await host.play(spec("m2", tokens, seed=4, settings=settings, first=0),
                                     is_alive(bad, rnd))
            return first, second, bad
        finally:
            await asyncio.gather(rnd.stop(), bad.stop())

    result: tuple[MatchReport, MatchReport, BotProcess] = on_server(tmp_path, scenario)
    return result


def test_a_bot_beyond_its_memory_limit_crashes_and_is_restarted(tmp_path: Path) -> None:
    limits = ResourceLimits(memory_mb=800, open_files=None)
    first, second, bot = two_matches_against(tmp_path, "hog", limits, MatchSettings(20, 20))
    for report in (first, second):
        assert report.faults == ("crashed", "")  # the other seat plays on, unharmed
        assert report.ranks == (2, 1)
    assert bot.starts == 2  # started afresh for the second match
    log = (tmp_path / "logs" / "hog.log").read_text()
    assert log.count("out of memory") == 2


def test_a_bot_beyond_its_cpu_limit_is_killed_and_recorded_as_crashed(tmp_path: Path) -> None:
    limits = ResourceLimits(memory_mb=None, cpu_seconds=2, open_files=None)
    # "hang" spins when asked to decide; the move timeout is far away, so the CPU limit ends it
    first, second, bot = two_matches_against(tmp_path, "hang", limits, MatchSettings(60, 20))
    assert first.faults == ("crashed", "") and second.faults == ("crashed", "")
    assert first.ranks == (2, 1)
    assert bot.starts == 2
    assert bot.process is not None and bot.process.returncode == -signal.SIGXCPU
    assert first.duration_s < 30


def test_a_bot_that_opens_too_many_files_gets_emfile_and_plays_on(tmp_path: Path) -> None:
    limits = ResourceLimits(open_files=64)
    first, _, bot = two_matches_against(tmp_path, "files", limits, MatchSettings(10, 20))
    assert first.faults == ("", "")
    assert bot.starts == 1
    lines = [line for line in (tmp_path / "logs" / "files.log").read_text().splitlines()
             if "open files" in line]
    assert lines, "the bot never reported"
    for line in lines:
        refused, _, count = line.partition(" after ")
        assert refused == "EMFILE" and 0 < int(count.split()[0]) < 64, line


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="needs root and setpriv to run the forking program as another user")
def test_the_process_limit_holds_for_an_unprivileged_user() -> None:
    """RLIMIT_NPROC is not enforced for root: the bot program drops to 'nobody' (uid 65534)."""
    forker = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", "sh", "-c",
              "for i in 1 2 3 4 5 6 7 8; do sleep 2 & done; echo all started; wait"]

    def launch(limits: ResourceLimits) -> subprocess.CompletedProcess[str]:
        return subprocess.run(limits.wrap(forker), capture_output=True, text=True, timeout=30,
                              start_new_session=True)

    free = launch(ResourceLimits(memory_mb=None, open_files=None))
    assert "all started" in free.stdout, free.stderr
    bounded = launch(ResourceLimits(memory_mb=None, open_files=None, processes=4))
    assert "all started" not in bounded.stdout
    assert "fork" in bounded.stderr.lower(), bounded.stderr


def test_the_launcher_sets_every_limit_and_reports_bad_commands() -> None:
    limits = ResourceLimits(memory_mb=700, cpu_seconds=50, processes=3000, open_files=99)
    report = ("import resource as r; print([r.getrlimit(k) for k in "
              "(r.RLIMIT_AS, r.RLIMIT_CPU, r.RLIMIT_NPROC, r.RLIMIT_NOFILE)])")
    shown = subprocess.run(limits.wrap([sys.executable, "-c", report]), capture_output=True,
                           text=True, timeout=30)
    assert shown.stdout.strip() == str([(700 * MiB, 700 * MiB), (50, 55), (3000, 3000), (99, 99)])
    missing = subprocess.run(limits.wrap(["no-such-program-anywhere"]), capture_output=True,
                             text=True, timeout=30)
    assert missing.returncode == 127 and "cannot run 'no-such-program-anywhere'" in missing.stderr
    bad = subprocess.run([sys.executable, LAUNCHER, "--open-files", "0", "--", "true"],
                         capture_output=True, text=True, timeout=30)
    assert bad.returncode != 0 and "bad limit" in bad.stderr
    assert ResourceLimits(None, None, None, None).wrap(["true"]) == ["true"]


@pytest.mark.parametrize(("text", "megabytes"), [
    ("2048", 2048), ("512MB", 512), ("512m", 512), ("2GiB", 2048), ("1.5G", 1536),
    ("1048576K", 1024), ("unlimited", None), ("none", None),
])
def test_memory_sizes(text: str, megabytes: int | None) -> None:
    assert parse_memory(text) == megabytes


@pytest.mark.parametrize("text", ["0", "-1", "lots", "12 parsecs", "512K", ""])
def test_bad_memory_sizes(text: str) -> None:
    with pytest.raises(LimitError):
        parse_memory(text)


def test_counts() -> None:
    assert parse_count("x", "3") == 3 and parse_count("x", "Unlimited") is None
    for bad in ("0", "-2", "1.5", "many"):
        with pytest.raises(LimitError, match="x"):
            parse_count("x", bad)
    with pytest.raises(LimitError):
        ResourceLimits(memory_mb=0)


def add_bots(db: Path) -> None:
    arena("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    arena("bot", "add", "reporter", "--command", "python -m tests.bots.misbehaving limits", db=db)


def reported_limits(data_dir: Path) -> list[str]:
    return [line for line in (data_dir / "logs" / "reporter@1.log").read_text().splitlines()
            if line.startswith("RLIMIT_")]


def test_tournament_limits_are_applied_saved_and_reused_on_resume(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    add_bots(db)
    arena("tournament", "run", "--game", GAME, "--bot", "random", "--bot", "reporter",
          "--players", "2", "--seed", "1", "--bot-memory", "1GiB", "--bot-cpu-seconds", "600",
          "--bot-processes", "5000", "--bot-open-files", "100", db=db)
    saved = Store(str(db)).get_tournament(1).settings
    assert (saved["bot_memory_mb"], saved["bot_cpu_seconds"], saved["bot_processes"],
            saved["bot_open_files"]) == (1024, 600, 5000, 100)
    assert reported_limits(tmp_path / "arena-data") == [
        f"RLIMIT_AS ({1024 * MiB}, {1024 * MiB})", "RLIMIT_CPU (600, 605)",
        "RLIMIT_NPROC (5000, 5000)", "RLIMIT_NOFILE (100, 100)"]

    # a tournament created but not yet played: resume runs it with its saved limits
    other = tmp_path / "other"
    other.mkdir()
    db2 = other / "arena.db"
    add_bots(db2)
    store = Store(str(db2))
    settings = RunSettings(limits=ResourceLimits(memory_mb=900, cpu_seconds=None, processes=None,
                                                 open_files=77))
    create_round_robin(store, GAME, ["random", "reporter"], 2, 1, 5, {}, settings)
    arena("tournament", "resume", "1", db=db2)
    assert Store(str(db2)).get_tournament(1).finished == 2
    assert reported_limits(other / "arena-data") == [
        f"RLIMIT_AS ({900 * MiB}, {900 * MiB})", "RLIMIT_CPU (-1, -1)", "RLIMIT_NPROC "
        f"{_inherited('RLIMIT_NPROC')}", "RLIMIT_NOFILE (77, 77)"]


def _inherited(name: str) -> tuple[int, int]:
    import resource

    return resource.getrlimit(getattr(resource, name))


def test_settings_saved_before_limits_existed_get_the_defaults() -> None:
    old = {"parallel": 3, "move_timeout_s": 2.0, "start_timeout_s": 5.0, "time_bank_s": 0.0}
    settings = RunSettings.from_saved(old)
    assert settings.parallel == 3 and settings.limits == ResourceLimits()
    assert RunSettings.from_saved(settings.saved()) == settings
