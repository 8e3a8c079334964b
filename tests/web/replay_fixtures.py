"""What the replay, live, hidden-information and browser tests share: real tournaments of real
bots (``arena`` as a command, bots as processes), a match held running by a bot that waits
on a file (``tests/web/gate_bot.py``), a real web server on a free port, and card tokens.

The test modules import the fixtures from here (``from tests.web.replay_fixtures import ...``);
``conftest.py`` of this folder is the web pages' own.
"""

from __future__ import annotations

import asyncio
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn

from arena.games import get_game
from arena.match.conformance import UNTIMED
from arena.match.links import LocalLink, Player
from arena.match.referee import run_match
from arena.match.replay import read_log, steps
from arena.storage.store import MatchInfo, MatchResult, MatchStatus, Store
from leaderboard.web.app import create_app
from leaderboard.web.server import bind
from tests.helpers import arena, cli, eventually

ROOT = Path(__file__).resolve().parents[2]
# (not after "%": "%5D" is a URL's escaped "]", as in a rating pool's link)
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9#%])(X[12]|[2-9TJQKA][SHDC](?:#\d+)?)(?![A-Za-z0-9#])")
"""A card code of the French deck, as a whole token (``7H``, ``TS#1``, ``X2``)."""


def tokens(text: str) -> set[str]:
    """Every card code in ``text``, as whole tokens."""
    return set(CARD_TOKEN.findall(text))


# ---------------------------------------------------------------- a web server


class Server:
    """uvicorn serving the web app over a store, in a thread of this process, on a free port
    bound before it starts. When the block ends, requests still open (a browser's live feed)
    get :data:`GRACE_S` to finish before they are cut: a test waits for nothing longer."""

    GRACE_S = 1

    def __init__(self, store: Store, *, timeout_s: float = 10) -> None:
        self.sock = bind("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        self.timeout_s = timeout_s
        config = uvicorn.Config(create_app(store), log_level="warning", lifespan="off",
                                timeout_graceful_shutdown=self.GRACE_S)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Server:
        self.thread.start()

        def started() -> bool:
            if not self.server.started and not self.thread.is_alive():
                raise RuntimeError("the web server did not start")
            return self.server.started

        eventually("the web server to start", started, every=0.02)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(self.timeout_s)
        self.sock.close()


# ---------------------------------------------------------------- tournaments of real bots


def add_bot(db: Path, name: str, command: str) -> None:
    cli("bot", "add", name, "--command", command, "--dir", str(ROOT), db=db)


def play_tournament(db: Path, game: str, bots: Iterable[str], *extra: str,
                    timeout: float = 180) -> None:
    """``arena tournament run`` to its end, managed bots without the sandbox."""
    args = ["tournament", "run", "--game", game, "--no-sandbox", "--parallel", "1"]
    for bot in bots:
        args += ["--bot", bot]
    arena(*args, *extra, db=db, timeout=timeout)


@dataclass
class Gated:
    """A tournament whose first match is held running by the gate bot until :meth:`open`."""

    db: Path
    gate: Path
    process: subprocess.Popen[str]
    store: Store

    def open(self, timeout: float = 120) -> None:
        """Let the gate bot go on, and wait for the tournament to end."""
        self.gate.touch()
        out, err = self.process.communicate(timeout=timeout)
        assert self.process.returncode == 0, out + err

    def running(self, steps_at_least: int = 3) -> tuple[MatchInfo, bytes]:
        """The held match and its live log, once the log has ``steps_at_least`` decisions and
        has not grown for a second (the gate bot is waiting)."""
        last, since = b"", time.monotonic()

        def held() -> tuple[MatchInfo, bytes] | None:
            nonlocal last, since
            assert self.process.poll() is None, self.process.communicate()
            found = self.store.list_matches(status=MatchStatus.RUNNING, limit=1)
            data = self.store.live_log(found[0].id) if found else None
            if data is not None and data != last:
                last, since = data, time.monotonic()
            elif data is not None and time.monotonic() - since > 1.0:
                decided = sum(1 for line in read_log(found[0].game, data)
                              if line.kind == "decision")
                if decided >= steps_at_least:
                    return self.store.get_match(found[0].id), data
            return None

        return eventually("a running match with a live log that has stopped growing", held)

    def close(self) -> None:
        self.gate.touch()
        if self.process.poll() is None:
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.store.close()


def gated_tournament(tmp_path: Path, game: str = "kings-corner", hold: int = 6,
                     players: int = 2, options: Sequence[str] | None = None) -> Gated:
    """A real tournament (``arena tournament run`` as a process) of the gate bot against the
    random bot: its first match stays running, at the gate bot's ``hold``-th decision.

    ``options`` are the game's (``key=value``); by default a Kings in the Corner match is one
    deal, which has decisions enough to hold, and is soon played once the gate opens."""
    if options is None:
        options = ("target_score=1",) if game == "kings-corner" else ()
    db, gate = tmp_path / "arena.db", tmp_path / "gate-open"
    add_bot(db, "random", "python -m bots.random_bot")
    add_bot(db, "gate", f"python -m tests.web.gate_bot --gate {gate} --hold {hold}")
    command = [sys.executable, "-m", "arena", "tournament", "run", "--db", str(db),
               "--game", game, "--bot", "gate", "--bot", "random", "--players", str(players),
               "--no-sandbox", "--parallel", "1", "--move-timeout", "300",
               "--deals", "independent", *(f"--option={option}" for option in options)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=ROOT)
    return Gated(db, gate, process, Store(str(db)))


# ---------------------------------------------------------------- matches played in process


class RandomPlayer(Player):
    def __init__(self, policy: random.Random) -> None:
        self.policy = policy

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        return self.policy.choice(list(legal_actions))


def random_bots(store: Store, players: int) -> list[int]:
    """Bots ``random-0``... (one per seat), registered if they are not yet."""
    ids = []
    for seat in range(players):
        found = [b for b in store.list_bots() if b.name == f"random-{seat}"]
        ids.append(found[0].id if found else store.add_bot(f"random-{seat}",
                                                           "python -m bots.random_bot").id)
    return ids


def play_stored(store: Store, match_id: int, *, finish: bool = True) -> bytes:
    """Play a stored match with random players through the real referee (from its stored
    deal), as a tournament does: marked running, then (``finish``) finished with its log.
    Its log's bytes."""
    match = store.get_match(match_id)
    store.mark_running(match_id)
    players = len(match.seats)
    policy = random.Random(f"policy-{match.seed}")
    links = [LocalLink(RandomPlayer(policy), threaded=False) for _ in range(players)]

    async def ready(link: LocalLink) -> LocalLink:
        return link

    report = asyncio.run(run_match(game_name=match.game, players=players, seed=match.seed,
                                   options=dict(match.options),
                                   links=[ready(link) for link in links], settings=UNTIMED))
    if finish:
        store.finish_match(match_id, MatchResult(scores=report.scores, ranks=report.ranks,
                                                 faults=report.faults, log=report.log,
                                                 duration_s=report.duration_s))
    return report.log


def store_played_match(store: Store, game_name: str, players: int, seed: int,
                       options: dict[str, Any] | None = None) -> int:
    """An ad-hoc match of random play through the real referee, stored as a tournament
    stores one (pending, running, finished with its log); its id."""
    game = get_game(game_name)
    parsed = dict(game.parse_options(players, options))
    match_id = store.create_match(game.name, parsed, seed, random_bots(store, players))
    play_stored(store, match_id)
    return match_id


# ---------------------------------------------------------------- what the public may not see


def hidden_cards(match: MatchInfo, data: bytes) -> set[str]:
    """The codes of the cards the public has not seen in the log so far: every card in play
    that is in no public view and no public event of any step up to now (the real state,
    stepped from the match's real deal through its log)."""
    game = get_game(match.game)
    seen: set[str] = set()
    state: Any = None
    for step in steps(match.game, len(match.seats), match.seed, dict(match.options),
                      read_log(match.game, data)):
        state = step.state
        seen |= tokens(repr(game.spectate(state)))
        for line in step.events:
            if line.audience is None:
                seen |= tokens(repr(line.value))
    assert state is not None
    in_play = {card.code for card in game.cards_in_play(state)}
    return in_play - seen


def seat_cards(match: MatchInfo, data: bytes) -> list[set[str]]:
    """Per seat, the codes of the cards it sees of its own after the log so far, that the
    public view does not show (its hand)."""
    game = get_game(match.game)
    state: Any = None
    for step in steps(match.game, len(match.seats), match.seed, dict(match.options),
                      read_log(match.game, data)):
        state = step.state
    assert state is not None
    public = tokens(repr(game.spectate(state)))
    return [tokens(repr(game.observe(state, s))) - public for s in range(len(match.seats))]


def hand_cards(match: MatchInfo, data: bytes) -> set[str]:
    """The codes of the cards in the seats' own hands after the log so far (what each seat
    sees of its own that the public view does not show)."""
    return set().union(*seat_cards(match, data))
