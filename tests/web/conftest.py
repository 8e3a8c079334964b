"""A real arena for the web app's tests: a SQLite file with a real round-robin played by real
bot processes (the random bot, the Face Card / Kill Card bot and a bot that answers illegal
actions, whose command holds markup), a tournament scheduled but not started, the CLI's own
``--json`` documents of it all, and the web app served by a real uvicorn server on a free
port, over that file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from arena.storage.store import ScheduledMatch, Store
from arena.wire.tokens import digest
from tests.helpers import GAME, arena, cli
from tests.web.replay_fixtures import Server

ROOT = Path(__file__).resolve().parents[2]
MARKUP = "<script>alert(1)</script>"
ILLEGAL_COMMAND = f"python -m tests.bots.misbehaving illegal '{MARKUP}'"  # the bot ignores it

CLI: dict[str, tuple[str, ...]] = {  # the CLI's documents the web's JSON must equal
    "leaderboard": ("leaderboard", "--json"),
    "show": ("tournament", "show", "1", "--json"),
    "own_leaderboard": ("leaderboard", "--tournament", "1", "--json"),
    "tournaments": ("tournament", "list", "--json"),
    "export": ("tournament", "export", "1"),
    "bots": ("bot", "list", "--json"),
    "compare": ("compare", "heuristic@1", "random", "--game", GAME, "--json"),
    "matches": ("match", "list", "--json"),
}


@dataclass
class Arena:
    db: Path
    url: str  # the web app's base URL, ending in /
    store: Store
    cli: dict[str, Any]
    statements: list[tuple[str, Any]] = field(default_factory=list)  # SQL the app ran
    capture: bool = False

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return httpx.get(self.url.rstrip("/") + path, timeout=30, **kwargs)

    def json(self, path: str) -> Any:
        reply = self.get(path)
        assert reply.status_code == 200, (path, reply.status_code, reply.text)
        assert reply.headers["content-type"].startswith("application/json")
        return reply.json()


def _cli_documents(db: Path) -> dict[str, Any]:
    """The documents of :data:`CLI`, each from the command line's own entry point (in this
    process: reading needs no process of its own)."""
    return {name: json.loads(cli(*args, db=db).stdout) for name, args in CLI.items()}


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    db = tmp_path_factory.mktemp("web") / "arena.db"
    with Store(str(db)) as store:
        store.add_bot("random", "python -m bots.random_bot", folder=str(ROOT))
        store.add_bot("heuristic", "python -m bots.face_card_kill_card", folder=str(ROOT))
        store.add_bot("illegal", ILLEGAL_COMMAND, folder=str(ROOT))
        store.add_bot("far", token_hash=digest("a remote bot's token"))  # never played
    arena("tournament", "run", "--game", GAME, "--bot", "random", "--bot", "heuristic",
          "--bot", "illegal", "--players", "2", "--seed", "3", db=db, timeout=240)
    with Store(str(db)) as store:  # a tournament scheduled, not started: it reads as running
        store.add_bot("heuristic", "python -m bots.face_card_kill_card", version="2",
                      folder=str(ROOT))  # a second version, never played
        ids = [store.get_bot(name).id for name in ("random", "heuristic")]
        store.create_tournament(GAME, 2, {}, 7, 1, {}, ids,
                                [ScheduledMatch(i, 100 + i, (ids[i % 2], ids[1 - i % 2]))
                                 for i in range(4)])
    documents = _cli_documents(db)
    store = Store(str(db))
    found = Arena(db, "", store, documents)

    def record(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any,
               _many: bool) -> None:
        if found.capture:
            found.statements.append((statement, parameters))

    sa.event.listen(store._read, "before_cursor_execute", record)
    try:
        with Server(store) as server:
            found.url = server.url + "/"
            yield found
    finally:
        store.close()

