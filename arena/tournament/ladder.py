"""The ladder: a game's endless tournament among the newest version of every bot entered.

A ladder keeps playing matches for as long as it runs, each rated as it finishes, and
grows its tournament's schedule as it goes (:meth:`Store.append_matches`). Who plays:

* **Entered**: the newest version of every bot whose manifest names the game (a submitted
  bot), and of the bots an operator names; a newer version replaces the older one on the
  ladder at once, and the older one keeps its rating and history.
* **New versions first**: a version whose sigma is above :attr:`LadderRules.new_sigma`
  (it has played little) anchors the next match, the most uncertain first, until its
  rating has settled.
* **Informative groups**: otherwise the version that has waited longest anchors it, and
  its opponents are drawn at random among the versions nearest to it in conservative
  rating (mu - 3 sigma), so that every version plays regularly and mostly against its
  peers.
* **One author, one seat**: two bots of one author never share a match (nor does one of
  them take two seats), so that no author can feed one bot with another; unless the
  operator allows it for the ladder (:attr:`LadderRules.same_author`). The operator's own
  bots (``arena bot add``) belong to no author: they may share a match, and where there are
  fewer versions than seats, one of them takes two. A ladder that cannot seat a match
  under this rule waits, saying so, until one can be seated.
* **Suspended**: a version that faulted in most of its recent matches (more than
  :attr:`LadderRules.most` of its last :attr:`LadderRules.window`, once it has played
  :attr:`LadderRules.judged_after`) plays no more; :func:`ladder_standings` says why.

Every match gets a fresh secret deal (a remote bot could remember a duplicate deal, and a
ladder's groups do not repeat). Stopped as asked (``--matches``, SIGTERM, the
server's shutdown), a ladder reads finished, every match it began played; interrupted, it
resumes where it stopped: its unfinished matches are played first, each exactly once.
Either way ``arena ladder start`` goes on with it. Its tournament names no bots up front:
its bots are those seated in its matches so far (:class:`~arena.storage.store.TournamentInfo`).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.games import get_game, pool_of
from arena.games.base import OptionValue
from arena.players.submissions import SUBMITTED_DIR
from arena.storage.store import BotInfo, MatchInfo, MatchToRun, Store, StoreError, TournamentStatus
from arena.tournament.errors import TournamentError
from arena.tournament.executor import Entrant, Executor, MatchJob
from arena.tournament.formats import LADDER, Format
from arena.tournament.run import entrant_of, play_stored, refuse_unsealed
from arena.tournament.run import executor_for as default_executor
from arena.tournament.settings import RunSettings
from arena.tournament.setup import check_plays

DEFAULT_MU, DEFAULT_SIGMA = 25.0, 25.0 / 3


@dataclass(frozen=True)
class LadderRules:
    new_sigma: float = 4.0  # a version this uncertain or more gets its matches first
    window: int = 10  # a version's recent matches, judged for suspension
    most: float = 0.5  # suspended when more than this share of them faulted ...
    judged_after: int = 4  # ... once it has played at least this many
    nearest: int = 2  # opponents are drawn among this many times the seats to fill, nearest
    look_every_s: float = 5.0  # how often the entered versions are looked up again
    same_author: bool = False  # two bots of one author may share a match (the operator's call)

    def saved(self) -> dict[str, Any]:
        return {"new_sigma": self.new_sigma, "window": self.window, "most": self.most,
                "judged_after": self.judged_after, "nearest": self.nearest,
                "same_author": self.same_author}

    @classmethod
    def from_saved(cls, saved: Mapping[str, Any]) -> LadderRules:
        known = {"new_sigma", "window", "most", "judged_after", "nearest", "same_author"}
        return cls(**{k: v for k, v in saved.items() if k in known})


@dataclass(frozen=True)
class Rung:
    """A version on the ladder, as its rating stands."""

    bot: BotInfo
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    matches: int = 0
    suspended: str | None = None  # why it plays no more

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma


def entered(bots: Sequence[BotInfo], game: str, named: Collection[str] = ()) -> list[BotInfo]:
    """The newest version of each bot that plays ``game`` (its manifest names the game, or
    the bot is ``named`` and lists no games that leave it out), removed versions aside."""
    newest: dict[str, BotInfo] = {}
    for bot in bots:
        plays = game in bot.games if bot.games is not None else bot.name in named
        if plays and not bot.removed and (bot.name not in newest or bot.id > newest[bot.name].id):
            newest[bot.name] = bot
    return sorted(newest.values(), key=lambda b: b.id)


def suspension(bot_id: int, recent: Sequence[MatchInfo], rules: LadderRules) -> str | None:
    """Why a version is suspended, judged on its recent finished matches (newest first), or
    None."""
    faults = [seat.fault for match in recent[:rules.window] if str(match.status) == "finished"
              for seat in match.seats if seat.bot_id == bot_id]
    played = len([m for m in recent[:rules.window] if str(m.status) == "finished"])
    faulted = [str(f) for f in faults if f]
    if played < rules.judged_after or len(faulted) <= rules.most * played:
        return None
    kinds = ", ".join(f"{kind} x{n}" for kind, n in Counter(faulted).most_common())
    return f"faulted in {len(faulted)} seats of its last {played} matches ({kinds})"


def pick(rungs: Sequence[Rung], players: int, waited: Mapping[int, int], rng: random.Random,
         rules: LadderRules) -> tuple[int, ...] | None:
    """The bots of the next match, by seat: anchored by the most uncertain new version, or
    else by the one that has waited longest (``waited``: the bot's last match number, -1
    for none), filled with versions near it in conservative rating, never two of one author
    (unless :attr:`LadderRules.same_author`). When the anchor cannot be seated that way, the
    next in that order anchors; None when no version can."""
    active = [r for r in rungs if r.suspended is None]
    if len(active) < 2:
        raise TournamentError("a ladder needs at least two versions that may play")

    def first(rung: Rung) -> tuple[bool, float, int, int]:
        new = rung.sigma >= rules.new_sigma  # new ones first, the most uncertain first
        return not new, -rung.sigma if new else 0.0, waited.get(rung.bot.id, -1), rung.bot.id

    for anchor in sorted(active, key=first):
        group = _seated(anchor, active, players - 1, rng, rules)
        if group is not None:
            rng.shuffle(group)
            return tuple(group)
    return None


def seatable(rungs: Sequence[Rung], players: int, rules: LadderRules) -> bool:
    """Whether at least two versions may play and a match of ``players`` seats can be seated
    among them under the ladder's rules (:func:`pick` with no one having waited)."""
    active = [r for r in rungs if r.suspended is None]
    return len(active) >= 2 and pick(active, players, {}, random.Random(0), rules) is not None


def _seated(anchor: Rung, active: Sequence[Rung], wanted: int, rng: random.Random,
            rules: LadderRules) -> list[int] | None:
    """``anchor`` and ``wanted`` opponents drawn among its nearest peers (the nearest beyond
    them where the author rule leaves too few), by bot id; None if the seats cannot be filled."""
    others = sorted((r for r in active if r is not anchor),
                    key=lambda r: (abs(r.conservative - anchor.conservative), r.bot.id))
    pool = others[:max(wanted, rules.nearest * wanted)]
    if rules.same_author:
        chosen = rng.sample(pool, min(wanted, len(pool)))
        repeatable = pool
    else:
        authors = {anchor.bot.author_id}
        chosen = []
        for rung in [*rng.sample(pool, len(pool)), *others[len(pool):]]:
            author = rung.bot.author_id
            if len(chosen) < wanted and (author is None or author not in authors):
                chosen.append(rung)
                authors.add(author)
        repeatable = [r for r in others if r.bot.author_id is None]  # the operator's
    while len(chosen) < wanted:  # fewer versions than seats: some take two
        if not repeatable:
            return None
        chosen.append(rng.choice(repeatable))
    return [anchor.bot.id, *(r.bot.id for r in chosen)]


def ladder_standings(store: Store, game: str, named: Collection[str] = (),
                     rules: LadderRules | None = None,
                     options: Mapping[str, Any] | None = None) -> list[Rung]:
    """The versions entered on ``game``'s ladder with their standard-pool ratings and, for a
    suspended one, why."""
    rules = rules or LadderRules()
    bots = entered(store.list_bots(), game, named)
    pool = pool_of(game, dict(options or {}))
    rows = {row.bot_id: row for row in store.leaderboard(game, pool=pool)}
    out = []
    for bot in bots:
        row = rows.get(bot.id)
        why = suspension(bot.id, store.bot_matches(bot.id, None, rules.window), rules)
        out.append(Rung(bot, row.mu, row.sigma, row.matches, why) if row is not None
                   else Rung(bot, suspended=why))
    return out


def create_ladder(store: Store, game_name: str, players: int | None,
                  raw_options: Mapping[str, str], settings: RunSettings,
                  named: Sequence[str] = (), rules: LadderRules | None = None) -> int:
    """Write a ladder's tournament (no match yet: it grows as it plays); its id."""
    game = get_game(game_name)
    seats = players if players is not None else game.default_players
    options = game.parse_options(seats, dict(raw_options))
    for name in named:
        # an unknown name, or a bot that does not play the game, is an error now, not a
        # silent absence (nor a bot entered in a game it never said it plays)
        check_plays(store.get_bot(name), game.name)
    saved = {**settings.saved(), "deals": "independent", "deals_from_seed": False,
             "format": Format(kind=LADDER).saved(), "ladder": {
                 **(rules or LadderRules()).saved(), "named": list(named)}}
    return store.create_tournament(game.name, seats, options, 0, 1, saved, [], [])


def find_ladder(store: Store, game: str) -> int | None:
    """The newest ladder of ``game`` in the store that was not voided, if any (a voided one
    is out of the ratings for good: it is never played again)."""
    ladders = [t.id for t in store.list_tournaments()
               if t.game == game and Format.from_settings(t.settings).kind == LADDER
               and t.status is not TournamentStatus.VOIDED]
    return max(ladders, default=None)


@dataclass
class LadderSummary:
    played: int = 0
    faults: int = 0
    restarts: int = 0  # times the bot processes were started (new versions entered)
    wall_s: float = 0.0
    suspended: dict[str, str] = field(default_factory=dict)  # label: why


Notice = Callable[[str], None]


async def run_ladder(store: Store, tournament_id: int, data_dir: Path, settings: RunSettings,
                     stop: asyncio.Event, notice: Notice | None = None,
                     executor_for: Callable[[], Executor] | None = None,
                     rng: random.Random | None = None) -> LadderSummary:
    """Play the ladder until ``stop`` is set (the matches under way finish; none is left
    unfinished); it then reads finished (until it is started again), and interrupted when
    anything else ended it (an error, a cancellation). The bots' processes are started once
    and kept while the entered versions stay the same; a new version (or a suspension)
    restarts them between matches."""
    tournament = store.get_tournament(tournament_id)
    if Format.from_settings(tournament.settings).kind != LADDER:
        raise TournamentError(f"tournament {tournament_id} is not a ladder")
    saved = tournament.settings.get("ladder", {})
    game = get_game(tournament.game)
    ladder = _Ladder(store, tournament_id, settings, game.name, tournament.players,
                     game.parse_options(tournament.players, tournament.options),
                     LadderRules.from_saved(saved), tuple(saved.get("named", ())),
                     rng or random.Random(secrets.randbits(64)), notice or (lambda _: None))
    began = time.perf_counter()
    submitted = data_dir / SUBMITTED_DIR
    stopped = False  # as asked, every match begun finished
    with store.running(tournament_id):
        store.set_tournament_status(tournament_id, "running")
        try:
            leftover = store.claim_unfinished(tournament_id)  # a resume: these first, once
            while not stop.is_set():
                rungs = ladder.standings()
                active = [r for r in rungs if r.suspended is None]
                if not leftover and not seatable(active, ladder.players, ladder.rules):
                    ladder.say("ladder: waiting for at least two versions that may play"
                               if len(active) < 2 else "ladder: waiting for versions of other "
                               f"authors: no match of {ladder.players} seats has two bots of "
                               "one author (`arena ladder start --same-author` allows it)")
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), ladder.rules.look_every_s)
                    continue
                bots = {r.bot.id: r.bot for r in active}
                for match in leftover:
                    for bot_id in match.seat_bot_ids:
                        bots.setdefault(bot_id, store.get_bot_by_id(bot_id))
                entrants = {bot_id: entrant_of(store, bot, settings.limits, submitted,
                                               sandbox=settings.sandbox)
                            for bot_id, bot in sorted(bots.items())}
                executor = executor_for() if executor_for else default_executor(
                    store, data_dir, settings, notice)
                ladder.summary.restarts += 1
                try:
                    refuse_unsealed(store, tournament_id, executor)  # its leftovers' deals
                    await executor.start(list(entrants.values()))
                    await ladder.play_while_same(executor, entrants, rungs, leftover, stop)
                finally:
                    await executor.close()
                leftover = []
            stopped = True
        finally:
            ladder.writer.shutdown(wait=True)
            with contextlib.suppress(StoreError):
                store.set_tournament_status(tournament_id,
                                            "finished" if stopped else "interrupted")
    ladder.summary.wall_s = time.perf_counter() - began
    return ladder.summary


@dataclass
class _Ladder:
    """A ladder being played: what its spells between two starts of the bots share."""

    store: Store
    tournament_id: int
    settings: RunSettings
    game: str
    players: int
    options: dict[str, OptionValue]
    rules: LadderRules
    named: tuple[str, ...]
    rng: random.Random
    say: Notice
    summary: LadderSummary = field(default_factory=LadderSummary)
    waited: dict[int, int] = field(default_factory=dict)  # bot id: its last seat's number
    writer: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(
        max_workers=1, thread_name_prefix="arena-ladder-store"))

    def standings(self) -> list[Rung]:
        """The versions entered now (a newly suspended one said once)."""
        rungs = ladder_standings(self.store, self.game, self.named, self.rules, self.options)
        for rung in rungs:
            if rung.suspended and rung.bot.label not in self.summary.suspended:
                self.summary.suspended[rung.bot.label] = rung.suspended
                self.say(f"ladder: {rung.bot.label} suspended: {rung.suspended}")
        return rungs

    async def play_while_same(self, executor: Executor, entrants: dict[int, Entrant],
                              rungs: list[Rung], leftover: list[MatchToRun],
                              stop: asyncio.Event) -> None:
        """Keep ``settings.parallel`` matches in play among these entrants (the leftover
        matches first) until a stop, or until the entered versions (or the suspended ones)
        are no longer these."""
        loop = asyncio.get_running_loop()
        playing: set[asyncio.Task[None]] = set()
        todo = list(leftover)
        members = {r.bot.id for r in rungs if r.suspended is None}
        looked, since = time.monotonic(), 0
        number = max(self.waited.values(), default=-1)
        try:
            while not stop.is_set():
                while len(playing) < max(1, self.settings.parallel) and not stop.is_set():
                    if todo:
                        match = todo.pop(0)
                    else:
                        group = pick(rungs, self.players, self.waited, self.rng, self.rules)
                        if group is None:  # seated before: the outer loop looks again
                            return
                        [match] = await loop.run_in_executor(
                            self.writer, self.store.append_matches, self.tournament_id,
                            [secrets.randbits(63)], [group])
                    for bot_id in match.seat_bot_ids:
                        number += 1
                        self.waited[bot_id] = number
                    playing.add(asyncio.ensure_future(self._play(executor, entrants, match)))
                finished, playing = await asyncio.wait(playing,
                                                       return_when=asyncio.FIRST_COMPLETED)
                for task in finished:
                    task.result()  # a store that refuses writes ends the ladder, said once
                since += len(finished)
                # the ratings that pair the next matches, looked up again every few matches
                # (every match would cost the store a query per version each time)
                if since >= max(4, 2 * self.settings.parallel) or \
                        time.monotonic() - looked >= self.rules.look_every_s:
                    fresh = await loop.run_in_executor(self.writer, self.standings)
                    if {r.bot.id for r in fresh if r.suspended is None} != members:
                        return  # new versions, or a suspension: start the processes afresh
                    rungs = fresh
                    looked, since = time.monotonic(), 0
        finally:
            if playing:
                await asyncio.gather(*playing, return_exceptions=True)

    async def _play(self, executor: Executor, entrants: dict[int, Entrant],
                    match: MatchToRun) -> None:
        report = await play_stored(self.store, executor, self.writer, MatchJob(
            match_id=match.id, index=match.index, game=self.game, players=self.players,
            seed=match.seed, options=self.options,
            seats=tuple(entrants[b] for b in match.seat_bot_ids), clocks=self.settings.clocks))
        if report is not None:
            self.summary.played += 1
            self.summary.faults += sum(1 for f in report.faults if f)


__all__ = ["LadderRules", "LadderSummary", "Rung", "create_ladder", "entered", "find_ladder",
           "ladder_standings", "pick", "run_ladder", "seatable", "suspension"]
