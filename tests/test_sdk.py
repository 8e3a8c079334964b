"""The SDK as a bot author meets it: the README's bot, the per-game pages, no server code."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bots.random_bot import RandomBot
from sdk import Bot
from sdk.local import play_local

ROOT = Path(__file__).resolve().parent.parent


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
    assert min(result.ranks) == 1


@pytest.mark.parametrize("page", sorted((ROOT / "sdk" / "docs").glob("*.md")), ids=lambda p: p.stem)
def test_each_game_page_example_plays(page: Path) -> None:
    game = page.stem.replace("_", "-")
    from arena.games import get_game

    players = get_game(game).default_players
    bot = load_bot("\n".join(python_blocks(page)))  # later blocks may use earlier ones
    seats: list[Any] = [bot()] + [RandomBot(s) for s in range(1, players)]
    assert min(play_local(game, seats, seed=11).ranks) == 1


def test_the_sdk_does_not_load_server_code() -> None:
    code = ("import sys, sdk, sdk.run, sdk.local, bots.random_bot; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('sqlmodel', 'sqlalchemy', 'trueskill', 'typer', 'arena.store')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
