"""Resource limits for bot processes: real bots hit them over real gRPC, and the arena goes on.

Per-process rlimits (the launcher's) are tested everywhere; the limits on a bot as a
whole run on this machine's real control groups, and are skipped only where
:func:`arena.players.cgroups.detect` finds no usable controller for them.
"""

from __future__ import annotations

import asyncio
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from arena.match.referee import MatchReport, MatchSettings
from arena.net.bot_service import MatchHost
from arena.players import cgroups
from arena.players.cgroups import CgroupSupport
from arena.players.limits import (
    LAUNCHER,
    LimitError,
    ResourceLimits,
    WholeBot,
    parse_count,
    parse_cpus,
    parse_memory,
)
from arena.players.process import BotProcess
from arena.players.sandbox import Sandbox
from arena.storage.store import Store
from arena.tournament import RunSettings, create_tournament
from tests.helpers import GAME, cli, eventually_async, is_alive, on_server, spec

MiB = 1024 * 1024
SUPPORT = cgroups.detect()
NONE = CgroupSupport(0, (), "none, for this test")  # as detect() says on a machine without any


def needs(controller: str) -> pytest.MarkDecorator:
    """Skipped without a usable ``controller``, except in CI (``CI`` set), where cgroups must
    be usable: there the test runs, and fails."""
    return pytest.mark.skipif(not SUPPORT.has(controller) and not os.environ.get("CI"),
                              reason=f"no usable {controller} cgroup here: {SUPPORT.why_not}")


async def limited(host: MatchHost, port: int, tmp: Path, name: str, command: str,
                  limits: ResourceLimits | None,
                  support: CgroupSupport | None = None) -> BotProcess:
    """A bot under ``limits``: per-process rlimits only, unless cgroup ``support`` is given."""
    bot = BotProcess(name, command, f"127.0.0.1:{port}", tmp / "logs", limits=limits,
                     cgroups=support)
    host.admit(bot.token)
    await bot.ensure_running()
    return bot


def two_matches_against(tmp_path: Path, mode: str, limits: ResourceLimits, settings: MatchSettings,
                        support: CgroupSupport | None = None,
                        ) -> tuple[MatchReport, MatchReport, BotProcess, int]:
    """Seat 0: a misbehaving bot under ``limits``, deciding first; seat 1: a random bot.
    The last item: how often the kernel killed a process of the bad bot's second start for
    memory (its groups are gone once it is stopped)."""

    async def scenario(host: MatchHost, port: int, tmp: Path) -> tuple[MatchReport, MatchReport,
                                                                        BotProcess, int]:
        rnd = await limited(host, port, tmp, "random", "python -m bots.random_bot", None)
        bad = await limited(host, port, tmp, mode, f"python -m tests.bots.misbehaving {mode}",
                            limits, support)
        try:
            tokens = (bad.token, rnd.token)
            first = await host.play(spec("m1", tokens, seed=3, settings=settings, first=0),
                                    is_alive(bad, rnd))
            await bad.ensure_running()  # as the tournament does before every match
            second = await host.play(spec("m2", tokens, seed=4, settings=settings, first=0),
                                     is_alive(bad, rnd))
            return first, second, bad, bad.oom_kills
        finally:
            await asyncio.gather(rnd.stop(), bad.stop())

    result: tuple[MatchReport, MatchReport, BotProcess, int] = on_server(tmp_path, scenario)
    return result


def test_a_bot_beyond_its_memory_limit_crashes_and_is_restarted(tmp_path: Path) -> None:
    """Without cgroups: address space per process; the bot's allocation fails."""
    limits = ResourceLimits(memory_mb=800, processes=None, open_files=None)
    first, second, bot, _ = two_matches_against(tmp_path, "hog", limits, MatchSettings(20, 20))
    for report in (first, second):
        assert report.faults == ("crashed", "")  # the other seat plays on, unharmed
        assert report.ranks == (2, 1)
    assert bot.starts == 2  # started afresh for the second match
    log = (tmp_path / "logs" / "hog.log").read_text()
    assert log.count("out of memory") == 2


@needs("memory")
def test_a_bot_beyond_its_memory_cgroup_is_killed_by_the_kernel_and_restarted(tmp_path: Path) -> None:
    """With a memory cgroup: no allocation fails, the kernel kills the bot instead."""
    limits = ResourceLimits(memory_mb=300, processes=None, open_files=None)
    first, second, bot, oom_kills = two_matches_against(tmp_path, "hog", limits,
                                                        MatchSettings(20, 20), SUPPORT)
    for report in (first, second):
        assert report.faults == ("crashed", "")
        assert report.ranks == (2, 1)
    assert bot.starts == 2
    assert oom_kills >= 1  # of the second start
    assert bot.process is not None and bot.process.returncode == -signal.SIGKILL
    assert "out of memory" not in (tmp_path / "logs" / "hog.log").read_text()


def test_a_bot_beyond_its_cpu_limit_is_killed_and_recorded_as_crashed(tmp_path: Path) -> None:
    limits = ResourceLimits(memory_mb=None, cpu_seconds=2, processes=None, open_files=None)
    # "hang" spins when asked to decide; the move timeout is far away, so the CPU limit ends it
    first, second, bot, _ = two_matches_against(tmp_path, "hang", limits, MatchSettings(60, 20))
    assert first.faults == ("crashed", "") and second.faults == ("crashed", "")
    assert first.ranks == (2, 1)
    assert bot.starts == 2
    assert bot.process is not None and bot.process.returncode == -signal.SIGXCPU
    assert first.duration_s < 30


def test_a_bot_that_opens_too_many_files_gets_emfile_and_plays_on(tmp_path: Path) -> None:
    limits = ResourceLimits(open_files=64, processes=None)
    first, _, bot, _ = two_matches_against(tmp_path, "files", limits, MatchSettings(10, 20))
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

    free = launch(ResourceLimits(memory_mb=None, processes=None, open_files=None))
    assert "all started" in free.stdout, free.stderr
    bounded = launch(ResourceLimits(memory_mb=None, open_files=None, processes=4))
    assert "all started" not in bounded.stdout
    assert "fork" in bounded.stderr.lower(), bounded.stderr


def test_the_launcher_sets_every_limit_and_reports_bad_commands(tmp_path: Path) -> None:
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
    nowhere = str(tmp_path / "no-such-group" / "cgroup.procs")
    unjoined = subprocess.run([sys.executable, LAUNCHER, "--join", nowhere, "--", "true"],
                              capture_output=True, text=True, timeout=30)
    assert unjoined.returncode != 0 and f"cannot join the control group {nowhere}" in unjoined.stderr
    nothing = ResourceLimits(None, None, None, None, None)
    assert nothing.wrap(["true"]) == ["true"]
    assert nothing.wrap(["true"], ["/g/cgroup.procs"]) == [
        sys.executable, "-I", "-S", LAUNCHER, "--join", "/g/cgroup.procs", "--", "true"]
    # cpus is never an rlimit: the launcher has nothing to do for it
    assert ResourceLimits(None, None, None, None, cpus=0.5).wrap(["true"]) == ["true"]


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


@pytest.mark.parametrize(("text", "cores"), [
    ("1", 1.0), ("0.5", 0.5), (" 2 ", 2.0), ("0.01", 0.01), ("unlimited", None), ("None", None),
    ("OFF", None),
])
def test_cpus(text: str, cores: float | None) -> None:
    assert parse_cpus(text) == cores


@pytest.mark.parametrize("text", ["0", "-1", "lots", "", "nan", "inf", "1e6", "1 core"])
def test_bad_cpus(text: str) -> None:
    with pytest.raises(LimitError, match="--bot-cpus must be a positive number of cores"):
        parse_cpus(text)


def test_the_defaults_and_bad_values() -> None:
    assert ResourceLimits() == ResourceLimits(memory_mb=2048, cpu_seconds=None, processes=256,
                                              open_files=256, cpus=1.0)
    for bad in (0, -0.5, "1"):
        with pytest.raises(LimitError, match="bot_cpus must be a positive number of cores"):
            ResourceLimits(cpus=bad)  # type: ignore[arg-type]
    with pytest.raises(LimitError, match="bot_processes"):
        ResourceLimits(processes=0)


ALL = ("memory", "pids", "cpu")


def test_split_gives_the_cgroups_what_they_can_hold_and_rlimits_the_rest() -> None:
    limits = ResourceLimits(memory_mb=512, cpu_seconds=30, processes=20, open_files=99, cpus=0.5)
    assert limits.split(ALL) == (
        WholeBot(memory_mb=512, processes=20, cpus=0.5),
        ResourceLimits(memory_mb=None, cpu_seconds=30, processes=None, open_files=99, cpus=None))
    # no cgroups: memory falls back to address space per process; processes and CPU are
    # not limited at all (RLIMIT_NPROC would count every process of the user)
    assert limits.split(()) == (
        WholeBot(memory_mb=None, processes=None, cpus=None),
        ResourceLimits(memory_mb=512, cpu_seconds=30, processes=None, open_files=99, cpus=None))
    assert limits.split(("pids",)) == (
        WholeBot(memory_mb=None, processes=20, cpus=None),
        ResourceLimits(memory_mb=512, cpu_seconds=30, processes=None, open_files=99, cpus=None))
    assert limits.split(("memory", "cpu"))[0] == WholeBot(memory_mb=512, processes=None, cpus=0.5)
    unlimited = ResourceLimits(None, None, None, None, None)
    assert unlimited.split(ALL) == (WholeBot(memory_mb=None, processes=None, cpus=None), unlimited)
    for controllers in ((), ("memory",), ("pids",), ("cpu",), ALL):
        _, per_process = ResourceLimits().split(controllers)
        assert per_process.processes is None and per_process.cpus is None


@pytest.mark.parametrize(("limits", "controllers", "label", "line"), [
    (ResourceLimits(), ALL, "cgroup v1",
     "per bot: memory 2048 MB, 256 processes, 1 CPU (cgroup v1); per process: 256 open files (rlimit)"),
    (ResourceLimits(), (), "no cgroups",
     "per bot: nothing; per process: address space 2048 MB, 256 open files (rlimit); "
     "not limited: processes, CPU"),
    (ResourceLimits(memory_mb=512, cpu_seconds=30, processes=10, open_files=None, cpus=0.5),
     ("memory",), "cgroup v2",
     "per bot: memory 512 MB (cgroup v2); per process: 30 CPU seconds (rlimit); "
     "not limited: processes, CPU"),
    (ResourceLimits(cpus=0.25), ("pids", "cpu"), "cgroup v1",
     "per bot: 256 processes, 0.25 CPU (cgroup v1); per process: address space 2048 MB, "
     "256 open files (rlimit)"),
    (ResourceLimits(None, None, None, None, None), ALL, "cgroup v2",
     "per bot: nothing; not limited: memory, processes, CPU"),
])
def test_describe_says_which_limit_applies_how(limits: ResourceLimits, controllers: tuple[str, ...],
                                               label: str, line: str) -> None:
    assert limits.describe(controllers, label) == line


def test_limits_from_saved_settings() -> None:
    assert ResourceLimits.from_settings({}) == ResourceLimits()  # saved before any limit existed
    chosen = ResourceLimits(memory_mb=1024, cpu_seconds=60, processes=None, open_files=100, cpus=0.5)
    assert ResourceLimits.from_settings(chosen.as_settings()) == chosen
    unlimited = ResourceLimits(None, None, None, None, None)
    assert ResourceLimits.from_settings(unlimited.as_settings()) == unlimited
    # saved before bot_cpus existed: the default of one core; what was saved stays as it was
    before_cpus = {"bot_memory_mb": 1024, "bot_cpu_seconds": None, "bot_processes": None,
                   "bot_open_files": 100}
    assert ResourceLimits.from_settings(before_cpus) == ResourceLimits(
        memory_mb=1024, cpu_seconds=None, processes=None, open_files=100, cpus=1.0)
    whole = ResourceLimits.from_settings({"bot_cpus": 2})
    assert whole.cpus == 2.0 and isinstance(whole.cpus, float)


# -- limits on a bot as a whole, on the real control groups ------------------------------


def run_family(tmp_path: Path, request: pytest.FixtureRequest, args: str, limits: ResourceLimits,
               sandboxed: bool = False, support: CgroupSupport | None = SUPPORT,
               ) -> tuple[str, dict[str, str], int]:
    """Start ``tests.bots.family ARGS`` as a managed bot under ``limits`` (in the sandbox if
    ``sandboxed``), wait for its line of results; (that line, the files of its groups read
    then, how often the kernel killed one of its processes for memory). It is stopped after,
    and its groups are gone."""
    if sandboxed:
        request.getfixturevalue("sandboxed")  # skipped (failed in CI) without bubblewrap

    async def main() -> tuple[str, dict[str, str], int]:
        # bound into the sandbox, nothing connects to it; short, as socket paths must be
        path = Path(tempfile.mkdtemp(prefix="limits-")) / "referee.sock"
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(str(path))
        listener.listen()
        bot = BotProcess("family", f"python -m tests.bots.family {args}", f"unix:{path}",
                         tmp_path / "logs", limits=limits, cgroups=support,
                         sandbox=Sandbox() if sandboxed else None)
        await bot.ensure_running()
        # the bot's limits and its use are in its budget's groups; its start's are inside
        limited = bot.budget.folders if bot.budget is not None else ()
        folders = limited + (bot.groups.folders if bot.groups is not None else ())
        try:
            log = tmp_path / "logs" / "family.log"

            async def told() -> tuple[list[str], str] | None:
                """(its lines of results, its log) once it gave them or is dead."""
                text = log.read_text() if log.exists() else ""
                results = [line for line in text.splitlines(keepends=True)
                           if line.startswith(("processes ", "held ", "cpu ")) and line[-1] == "\n"]
                return (results, text) if results or not await bot.is_alive(0.0) else None

            results, text = await eventually_async("the family's line of results, or its end",
                                                   told, every=0.05)
            files = {f.name: f.read_text().strip() for folder in limited for f in folder.iterdir()
                     if f.name in ("pids.current", "pids.max", "cpu.stat")}
            oom_kills = bot.oom_kills
        finally:
            await bot.stop()
            listener.close()
            shutil.rmtree(path.parent)
        assert not any(folder.exists() for folder in folders)  # removed with the bot
        assert results, f"the family gave no result: {text!r}"
        return results[0].strip(), files, oom_kills

    return asyncio.run(main())


@needs("pids")
@pytest.mark.parametrize("sandboxed", [False, True], ids=["plain", "sandboxed"])
def test_a_bots_processes_together_stop_at_its_process_limit(
        tmp_path: Path, request: pytest.FixtureRequest, sandboxed: bool) -> None:
    """Four workers each fork up to ten sleepers: 45 processes, but 20 for the whole bot."""
    limited = ResourceLimits(memory_mb=None, processes=20, open_files=None)
    line, files, _ = run_family(tmp_path, request, "forks 4 10", limited, sandboxed)
    processes = int(line.removeprefix("processes "))
    assert files["pids.max"] == "20"
    assert files["pids.current"] == "20"  # the budget used up, and nothing beyond it
    # the family itself has the rest after the sandbox's own (bwrap and its init)
    assert 20 - (3 if sandboxed else 0) <= processes <= 20, line
    if not sandboxed:  # and without the limit, the same bot has all it asks for
        free = ResourceLimits(memory_mb=None, processes=None, open_files=None)
        line, files, _ = run_family(tmp_path / "free", request, "forks 4 10", free)
        assert line == "processes 45" and files["pids.max"] == "max"


@needs("memory")
@pytest.mark.parametrize("sandboxed", [False, True], ids=["plain", "sandboxed"])
def test_a_bots_children_together_are_held_to_its_memory_limit(
        tmp_path: Path, request: pytest.FixtureRequest, sandboxed: bool) -> None:
    """Four children each hold 80 MB: each alone fits in 200 MB, all together do not; the
    kernel kills some of them, and those left fit."""
    limits = ResourceLimits(memory_mb=200, processes=None, open_files=None)
    line, _, oom_kills = run_family(tmp_path, request, "memory 4 80", limits, sandboxed)
    held, killed = (int(word) for word in line.split()[1::2])
    assert line == f"held {held} killed {killed}" and held + killed == 4
    assert killed >= 2 and held * 80 < 200, line  # no more than two of 80 MB fit in 200 MB
    assert oom_kills >= killed
    if not sandboxed:  # the same limit per process (no cgroups: address space) lets all of them be
        line, _, _ = run_family(tmp_path / "per-process", request, "memory 4 80", limits,
                                support=None)
        assert line == "held 4 killed 0"


@needs("cpu")
def test_a_bots_children_share_its_cpu_quota(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Two children spin for two seconds under a fifth of a core for the whole bot."""
    limits = ResourceLimits(memory_mb=None, processes=None, open_files=None, cpus=0.2)
    line, files, _ = run_family(tmp_path, request, "spin 2 2", limits)
    used = float(line.removeprefix("cpu "))
    assert used < 0.2 * 2 + 0.3, line  # unlimited, it could use up to 4 s (2 cores, 2 s)
    throttled = dict(row.split() for row in files["cpu.stat"].splitlines())
    assert int(throttled["nr_throttled"]) > 0


def test_without_cgroups_the_process_limit_is_not_an_rlimit(tmp_path: Path) -> None:
    async def main() -> str:
        bot = BotProcess("reporter", "python -m tests.bots.misbehaving limits",
                         f"unix:{tmp_path / 'nobody-listens.sock'}", tmp_path / "logs",
                         limits=ResourceLimits(processes=64), cgroups=NONE)
        await bot.ensure_running()
        assert bot.process is not None
        await asyncio.wait_for(bot.process.wait(), 30)  # it cannot connect: it ends
        await bot.stop()
        return (tmp_path / "logs" / "reporter.log").read_text()

    log = asyncio.run(main())
    assert f"RLIMIT_AS {(2048 * MiB, 2048 * MiB)}" in log  # memory falls back to an rlimit
    assert f"RLIMIT_NPROC {resource.getrlimit(resource.RLIMIT_NPROC)}" in log  # processes do not


# -- limits through a tournament --------------------------------------------------------


def add_bots(db: Path) -> None:
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    cli("bot", "add", "reporter", "--command", "python -m tests.bots.misbehaving limits", db=db)


def reported_limits(data_dir: Path) -> list[str]:
    return [line for line in (data_dir / "logs" / "reporter@1.log").read_text().splitlines()
            if line.startswith(("RLIMIT_", "CGROUP "))]


def expected_report(memory_mb: int | None, cpu_seconds: int | None, processes: int | None,
                    open_files: int | None, cpus: float | None) -> list[str]:
    """What the reporter prints under these limits on this machine: whole-bot limits in the
    cgroups there are, rlimits for the rest (never RLIMIT_NPROC)."""
    def rlimit(name: str, value: int | None, grace: int = 0) -> str:
        shown = (value, value + grace) if value is not None else _inherited(name)
        return f"{name} {shown}"

    whole = {"memory": SUPPORT.has("memory"), "pids": SUPPORT.has("pids"), "cpu": SUPPORT.has("cpu")}
    lines = [rlimit("RLIMIT_AS", None if whole["memory"] or memory_mb is None else memory_mb * MiB),
             rlimit("RLIMIT_CPU", cpu_seconds, 5), rlimit("RLIMIT_NPROC", None),
             rlimit("RLIMIT_NOFILE", open_files)]
    v2 = SUPPORT.version == 2
    if whole["memory"]:
        assert memory_mb is not None  # (v1 shows "no limit" as a huge number of its own)
        lines.append(f"CGROUP {'memory.max' if v2 else 'memory.limit_in_bytes'} {memory_mb * MiB}")
    if whole["pids"]:
        lines.append(f"CGROUP pids.max {processes or 'max'}")
    if whole["cpu"]:
        quota = str(int(cpus * 100_000)) if cpus else ("max" if v2 else "-1")
        lines.append(f"CGROUP cpu.max {quota} 100000" if v2 else f"CGROUP cpu.cfs_quota_us {quota}")
    return lines


def test_tournament_limits_are_applied_saved_and_reused_on_resume(tmp_path: Path) -> None:
    # --no-sandbox: the reporter reads the limits of its own control groups, and the sandbox
    # shows it no /sys. The groups are joined before the sandbox starts (test_cgroups.py,
    # test_a_bots_processes_together_stop_at_its_process_limit[sandboxed]), so the limits are
    # the same either way.
    db = tmp_path / "arena.db"
    add_bots(db)
    cli("tournament", "run", "--game", GAME, "--bot", "random", "--bot", "reporter",
        "--players", "2", "--seed", "1", "--bot-memory", "1GiB", "--bot-cpu-seconds", "600",
        "--bot-processes", "5000", "--bot-open-files", "100", "--bot-cpus", "0.5",
        "--no-sandbox", db=db)
    saved = Store(str(db)).get_tournament(1).settings
    assert (saved["bot_memory_mb"], saved["bot_cpu_seconds"], saved["bot_processes"],
            saved["bot_open_files"], saved["bot_cpus"]) == (1024, 600, 5000, 100, 0.5)
    assert "sandbox" not in saved  # asked for at every run
    assert sorted(reported_limits(tmp_path / "arena-data")) == sorted(
        expected_report(1024, 600, 5000, 100, 0.5))

    # a tournament created but not yet played: resume runs it with its saved limits
    other = tmp_path / "other"
    other.mkdir()
    db2 = other / "arena.db"
    add_bots(db2)
    store = Store(str(db2))
    settings = RunSettings(limits=ResourceLimits(memory_mb=900, cpu_seconds=None, processes=None,
                                                 open_files=77))
    create_tournament(store, GAME, ["random", "reporter"], 2, 1, 5, {}, settings)
    cli("tournament", "resume", "1", "--no-sandbox", db=db2)
    assert Store(str(db2)).get_tournament(1).finished == 2
    assert sorted(reported_limits(other / "arena-data")) == sorted(
        expected_report(900, None, None, 77, 1.0))


def _inherited(name: str) -> tuple[int, int]:
    return resource.getrlimit(getattr(resource, name))


def test_settings_saved_before_limits_existed_get_the_defaults() -> None:
    old = {"parallel": 3, "move_timeout_s": 2.0, "start_timeout_s": 5.0, "time_bank_s": 0.0}
    settings = RunSettings.from_saved(old)
    assert settings.parallel == 3 and settings.limits == ResourceLimits()
    assert RunSettings.from_saved(settings.saved()) == settings
    unsandboxed = RunSettings.from_saved({**old, "sandbox": False})  # never saved; never read
    assert unsandboxed.sandbox is True
