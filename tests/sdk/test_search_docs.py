"""docs/search.md's complete search bot is complete: it plays a match through the referee
without a fault, and it is as short as the page says."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from bots.knives import KnivesBot
from bots.random_bot import RandomBot
from sdk.local import play_local

PAGE = Path(__file__).resolve().parents[2] / "docs" / "search.md"


def _searcher_source() -> str:
    text = PAGE.read_text()
    section = text.split("## A complete search bot", 1)[1]
    blocks: list[str] = re.findall(r"```python\n(.*?)```", section, re.S)
    return blocks[0]


def test_the_pages_search_bot_plays_a_match_without_a_fault(tmp_path: Path) -> None:
    source = _searcher_source()
    assert len(source.splitlines()) <= 60
    path = tmp_path / "searcher.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("searcher", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    searcher = module.Searcher()
    bots = [searcher, KnivesBot(), RandomBot(2), RandomBot(3), RandomBot(4)]
    # the budget: a third of the move clock, 0.1 s; the bank keeps a loaded machine's
    # late answers (0.1 s of search can take more than 0.3 s at a load of 5) from faulting
    result = play_local("knives", bots, seed=1, options={"target_score": "6"},
                        move_timeout_s=0.3, time_bank_s=60)
    assert result.faults == ("",) * 5
    assert searcher.budget == pytest.approx(0.1)
