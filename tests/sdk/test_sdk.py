"""The SDK as a bot author meets it: the README's bot, the per-game pages, no server code."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from arena.games import get_game
from arena.match.referee import MatchReport, MatchSettings
from arena.match.replay import read_log, view
from arena.net.bot_service import MatchHost, MatchSpec, create_server
from arena.wire.tokens import digest
from bots.random_bot import RandomBot
from sdk import Bot
from sdk.bot import MatchInfo, Result
from sdk.local import play_local
from sdk.run import attend_async

ROOT = Path(__file__).resolve().parents[2]


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S)


def load_bot(source: str) -> type[Bot]:
    module = ModuleType("example_bot")
    module.__dict__["__name__"] = "example_bot"
    exec(compile(source, "example_bot", "exec"), module.__dict__)
    bots = [v for v in vars(module).values()
            if isinstance(v, type) and issubclass(v, Bot) and v.__module__ == "example_bot"]
    assert len(bots) == 1
    bot: type[Bot] = bots[0]
    return bot


def test_the_readme_bot_is_complete_short_and_plays() -> None:
    blocks = python_blocks(ROOT / "README.md")
    assert blocks, "the README shows a bot"
    source = blocks[0]
    assert len(source.strip().splitlines()) < 20
    bot = load_bot(source)
    result = play_local("face-card-kill-card", [bot(), RandomBot(1), RandomBot(2)], seed=4)
    assert min(result.ranks) == 1 and result.faults == ("", "", "")


@pytest.mark.parametrize("page", sorted((ROOT / "sdk" / "docs").glob("*.md")), ids=lambda p: p.stem)
def test_each_game_page_example_plays(page: Path) -> None:
    game = page.stem.replace("_", "-")
    from arena.games import get_game

    players = get_game(game).default_players
    bot = load_bot("\n".join(python_blocks(page)))  # later blocks may use earlier ones
    seats: list[Any] = [bot()] + [RandomBot(s) for s in range(1, players)]
    result = play_local(game, seats, seed=11)
    assert min(result.ranks) == 1 and result.faults == ("",) * players


def test_the_sdk_does_not_load_server_code() -> None:
    code = ("import sys, sdk, sdk.run, sdk.local, bots.random_bot; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('sqlmodel', 'sqlalchemy', 'trueskill', 'typer', 'arena.storage.store')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


class Recorder(Bot):
    """Records the events that reach it, and how many it had at each act and at the end."""

    def __init__(self) -> None:
        self.seat = -1
        self.events: list[Any] = []
        self.at_act: list[int] = []
        self.at_end = -1
        self.calls: list[str] = []

    def on_start(self, match: MatchInfo) -> None:
        self.seat = match.seat

    def on_events(self, events: Sequence[Any]) -> None:
        self.events.extend(events)
        self.calls.append("events")

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        self.at_act.append(len(self.events))
        self.calls.append("act")
        return legal_actions[-1]

    def on_end(self, result: Result) -> None:
        self.at_end = len(self.events)
        self.calls.append("end")


def expected_delivery(game: str, log: bytes, seat: int) -> tuple[list[Any], list[int]]:
    """The seat's events in the log, and how many of them came before each of its decisions."""
    events: list[Any] = []
    before: list[int] = []
    for line in view(read_log(game, log), seat):
        if line.kind == "event":
            events.append(line.value)
        elif not line.fallback:
            before.append(len(events))
    return events, before


@pytest.mark.parametrize("game, short", [("king", {"quick": "true"}), ("kill", {"rounds": "1"})])
def test_sdk_bots_get_every_event_in_order_before_they_act_and_before_the_end(
        game: str, short: dict[str, str]) -> None:
    players = get_game(game).default_players
    options = dict(get_game(game).parse_options(players, short))

    async def main() -> tuple[MatchReport, list[Recorder]]:
        host = MatchHost()
        server, port = await create_server(host)
        bots: list[Recorder] = []

        def recorder() -> Recorder:
            bots.append(Recorder())
            return bots[-1]

        try:
            host.admit("sdk")
            attending = asyncio.create_task(attend_async(recorder, f"127.0.0.1:{port}", "sdk"))
            report = await host.play(MatchSpec("sdk", game, players, 5, options, (digest("sdk"),) * players,
                                               ("sdk",) * players, MatchSettings(5, 10)))
            host.dismiss("sdk")
            await asyncio.wait_for(attending, 10)
            return report, bots
        finally:
            await server.stop(grace=0.5)

    report, bots = asyncio.run(main())
    assert report.faults == ("",) * players
    assert sorted(bot.seat for bot in bots) == list(range(players))
    for bot in bots:
        events, before = expected_delivery(game, report.log, bot.seat)
        assert bot.events == events, bot.seat  # all of them, in order, nothing hidden from it
        assert bot.at_act == before, bot.seat
        assert bot.at_end == len(events)


def test_play_local_delivers_each_seats_events_in_one_batch_before_it_acts_and_ends() -> None:
    """The latest delivery the referee allows, so a bot tested locally relies on no more."""
    bots = [Recorder() for _ in range(4)]
    play_local("king", bots, seed=5, options={"quick": "true"})
    for bot in bots:
        assert bot.events and bot.at_end == len(bot.events)
        following = [bot.calls[i + 1] for i, call in enumerate(bot.calls) if call == "events"]
        assert following and set(following) <= {"act", "end"}, "a batch goes right before act/end"
        assert bot.calls[-1] == "end" and bot.calls.count("act") == len(bot.at_act) > 0


class Sleeper(RandomBot):
    """Plays at random, but thinks ``think_s`` seconds over its ``slow_from``-th move."""

    def __init__(self, think_s: float, slow_from: int = 1) -> None:
        super().__init__(7)
        self.think_s, self.slow_from, self.moves = think_s, slow_from, 0

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        self.moves += 1
        if self.moves >= self.slow_from:
            time.sleep(self.think_s)
        return super().act(observation, legal_actions)


class Failing(RandomBot):
    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        raise RuntimeError("a bug in the bot")


class Illegal(RandomBot):
    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        return "not an action"


def test_a_slow_bot_is_out_of_time_locally_as_in_a_tournament() -> None:
    """The tournament's move clock: a 1.5 s move against a 1 s timeout is a timeout fault,
    the fallback policy plays the seat to the end, and the bot ranks last."""
    began = time.monotonic()
    result = play_local("face-card-kill-card", [Sleeper(1.5), RandomBot(1), RandomBot(2)], seed=4,
                        move_timeout_s=1.0)
    assert result.faults == ("timeout", "", "")
    assert result.ranks[0] == 3 and min(result.ranks[1:]) == 1
    assert time.monotonic() - began < 1.5 + 5  # the sleeper is not waited for at the end


def test_a_time_bank_pays_for_a_slow_local_move() -> None:
    result = play_local("face-card-kill-card", [Sleeper(0.3), RandomBot(1), RandomBot(2)], seed=4,
                        move_timeout_s=0.2, time_bank_s=5.0)
    assert result.faults == ("", "", "")


@pytest.mark.parametrize(("bot", "fault"), [(Failing(0), "error"), (Illegal(0), "illegal-action")])
def test_a_local_bot_that_raises_or_answers_illegally_is_marked_and_ranks_last(
        bot: Bot, fault: str) -> None:
    result = play_local("kill", [bot, RandomBot(1), RandomBot(2)], seed=3, options={"rounds": "1"})
    assert result.faults == (fault, "", "")
    assert result.ranks[0] == 3


@pytest.mark.parametrize(("args", "said"), [
    ([], "give --server and --token"),
    (["--server", "127.0.0.1:1", "--token", "t", "--retry", "soon"], "--retry must be a number"),
    (["--server", "127.0.0.1:1", "--token", "t", "--retry", "-1"], "--retry must be a number"),
    (["--server", "127.0.0.1:1", "--token", "t", "--tls-ca", "/nowhere.pem"], "cannot read --tls-ca"),
])
def test_a_bot_started_with_bad_arguments_says_which(args: list[str], said: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    out = subprocess.run([sys.executable, "-m", "bots.random_bot", *args], capture_output=True,
                         text=True, env=env, timeout=30)
    assert out.returncode == 2 and said in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_a_bot_gives_up_when_its_retry_time_runs_out() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    began = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "bots.random_bot", "--server", "127.0.0.1:1",
                          "--token", "t", "--retry", "1.5"], capture_output=True, text=True,
                         env=env, timeout=30)
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert "cannot be reached" in out.stderr and "trying again for up to 1.5 s" in out.stderr
    assert "refused or ended the connection: UNAVAILABLE" in out.stderr
    assert 1.5 <= time.monotonic() - began < 15
