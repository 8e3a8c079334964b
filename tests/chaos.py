"""A chaos tournament: good bots mixed with bots that crash, hang, stall, flood, cheat
and answer illegally, and with hostile bots that attack the arena and the other bots
(``tests/players/hostile/``) beside their honest twin (the same play, no attack).
Every match must finish, with each misbehaviour recorded as a fault on its seat, no
attack may hurt another bot or win its attacker more than its twin, and no bot
process may outlive the tournament.

    python -m tests.chaos [--players 2] [--repetitions 2] [--parallel 4] [--db chaos.db]
                          [--bots all|NAME,NAME...] [--attackers all|none|NAME,NAME...]
                          [--no-keep-going]

The run plays on when a bot is gone before its first match (``arena tournament run
--keep-going``): the seats of a bot that kills itself at start (the ``quitter``
attacker, or the ``connections`` one when its children take its socket's every
connection before it attends, as they may on a busy machine) are no-shows, and the
others play on; with ``--no-keep-going`` the run stops before any match instead, as
``arena tournament run`` does by default. The hostile bots need the sandbox
(bubblewrap): without it they are left out. The run ends with its report, or with one
line when the tournament could not be played at all, never with a traceback; its exit
code is 1 then, and when a match is unfinished, an attacker wins more seats than its
twin beyond noise, or a bot process outlives the tournament.
``tests/tournament/test_chaos.py`` runs a short version.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.players import sandbox
from arena.players.limits import ResourceLimits
from arena.storage.store import MatchInfo, Store
from arena.tournament import RunSettings, TournamentError, create_tournament, run_until_done

GAME = "face-card-kill-card"
GOOD = {"random": "python -m bots.random_bot",
        "heuristic": "python -m bots.face_card_kill_card"}
BAD = {mode: f"python -m tests.bots.misbehaving {mode}"
       for mode in ("crash", "hang", "stall", "flood", "illegal", "forge")}
TWIN = "honest"  # the hostile bots' honest twin: their play without their attack
HOSTILE = "python -m tests.players.hostile."
ATTACKS = {  # each hostile bot's arguments; {db}, {data} and {marker} are filled in
    "read_files": "--db {db} --data {data}",
    "proc_spy": "--db {db}",
    "signals": "",
    "ptrace": "",
    "steal_token": "",
    "vandal": "--db {db} --victim-log {data}/logs/random@1.log",
    "disk_fill": "--db-dir {db_dir} --cap-mb 32",
    "escape": "",
    "fork_bomb": "--attempts 3000 --keep 8",
    "memory": "--children 4 --mb 400",  # 1600 MB, over the tournament's 1024 MB per bot
    "connections": "--children 6 --per-child 240 --hold 2",
    "network": "--port 9 --abstract arena-chaos --public 1.1.1.1:443",
    "quitter": "",
}
"""The attacks of ``tests/players/hostile/`` (all but ``root_identity``, whose only targets
are the machine's files and settings: ``tests/players/test_hostile.py`` has it)."""
MEMORY_MB = 1024  # per bot, all its processes together
# The faults each bot may be recorded with. A bot that hangs or stops times out on
# its first decision and never shows up for a later match; any bot may go clean
# through a match in which it is never asked to decide. A hostile bot may fault in
# any way (its attack may cost it its own seats: a flood of its own connections, a
# first move held up by an attack); what it may not do is fault anybody else.
ALLOWED = {
    "random": {""}, "heuristic": {""}, "flood": {""}, "forge": {""}, TWIN: {""},
    "crash": {"", "crashed", "disconnected", "no-show"},  # no-show: seated while dead
    "hang": {"", "timeout", "no-show"},
    "stall": {"", "timeout", "no-show"},
    "illegal": {"", "illegal-action"},
    **{attack: {"", "timeout", "crashed", "disconnected", "no-show", "illegal-action",
                "malformed"} for attack in ATTACKS},
}


@dataclass
class ChaosReport:
    matches: int
    finished: int
    faults: dict[str, Counter[str]]
    bad_last: int          # matches where a faulting seat ranked below a clean one
    bad_not_last: int
    flood_log_bytes: dict[str, int]  # per log of the flood bot (one per lane): its size
    wall_s: float
    seats: Counter[str]    # per bot: seats played
    wins: Counter[str]     # per bot: seats ranked first (alone or tied)
    attackers: tuple[str, ...]
    attacks: dict[str, dict[str, int]]  # per attacker, per log of it (one per lane): its reports
    lead_terms: dict[str, list[int]]  # per attacker: its lead over the twin, group by group
    bots: int              # in the round-robin
    players: int
    repetitions: int


def run_chaos(db: Path, players: int = 2, repetitions: int = 1, parallel: int = 4,
              move_timeout: float = 0.5, start_timeout: float = 1.5, marker: str = "",
              attackers: Sequence[str] = tuple(ATTACKS),
              bots: Sequence[str] = (*GOOD, *BAD), keep_going: bool = True) -> ChaosReport:
    """Play the chaos round-robin in the database ``db`` (its data folder beside it).

    ``marker`` goes on every bot's command line (an argument the bots ignore), so that
    their processes can be found (:func:`tests.helpers.processes_with`). ``bots`` are
    the good and misbehaving bots taking part (names of :data:`GOOD` and :data:`BAD`),
    ``attackers`` the hostile bots (with their twin when there is any); these need the
    sandbox, and are refused without it rather than let loose on the machine. With
    ``keep_going`` (as ``--keep-going``) a bot gone before its first match is a no-show
    in its seats; without it the run stops at start with
    :class:`~arena.tournament.BotsDidNotStart`, nothing played.
    """
    data = db.parent / "arena-data"
    if attackers and not sandbox.check().works:
        raise RuntimeError(f"the hostile bots need the sandbox: {sandbox.check().why_not}")
    commands = {name: f"{command} {marker}".strip()
                for name, command in {**GOOD, **BAD}.items() if name in bots}
    if attackers:
        commands[TWIN] = f"{HOSTILE}{TWIN} --marker {marker}"
    for attack in attackers:
        args = ATTACKS[attack].format(db=db, data=data, db_dir=db.parent)
        commands[attack] = f"{HOSTILE}{attack} {args} --marker {marker}"
    store = Store(str(db))
    for name, command in commands.items():
        store.add_bot(name, command)
    settings = RunSettings(parallel=parallel, move_timeout_s=move_timeout,
                           start_timeout_s=start_timeout, keep_going=keep_going,
                           limits=ResourceLimits(memory_mb=MEMORY_MB))
    tid = create_tournament(store, GAME, list(commands), players, repetitions, 1, {}, settings)
    summary = run_until_done(store, tid, data, settings)
    matches = store.list_matches(tid, 100_000)
    faults: dict[str, Counter[str]] = defaultdict(Counter)
    seats: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    bad_last = bad_not_last = 0
    for match in matches:
        clean = [s.rank for s in match.seats if not s.fault]
        for seat in match.seats:
            bot = seat.bot.split("@")[0]
            faults[bot][seat.fault] += 1
            seats[bot] += 1
            wins[bot] += seat.rank == 1
            if seat.fault and clean:
                assert seat.rank is not None
                if seat.rank > max(r for r in clean if r is not None):
                    bad_last += 1
                else:
                    bad_not_last += 1
    lead_terms = {attacker: _lead_terms(matches, attacker) for attacker in attackers}
    flood_logs = {log.name: log.stat().st_size
                  for log in sorted((data / "logs").glob("flood@1*.log"))}  # every lane's
    attacks = {attacker: {log.name: sum(line.startswith(b"ATTACK ")
                                        for line in log.read_bytes().splitlines())
                          for log in sorted((data / "logs").glob(f"{attacker}@1*.log"))}
               for attacker in attackers}  # what each process of it says it did
    tournament = store.get_tournament(tid)
    store.close()
    return ChaosReport(
        matches=tournament.total, finished=tournament.finished, faults=dict(faults),
        bad_last=bad_last, bad_not_last=bad_not_last,
        flood_log_bytes=flood_logs, wall_s=summary.wall_s,
        seats=seats, wins=wins, attackers=tuple(attackers), attacks=attacks, lead_terms=lead_terms,
        bots=len(commands), players=players,
        repetitions=repetitions)


def _lead_terms(matches: Sequence[MatchInfo], attacker: str) -> list[int]:
    """The attacker's lead in wins over its twin, as a sum of one term per group of
    opponents: the attacker's wins among a group less the twin's wins among the same group
    (the two groups it makes with each), and for a group holding both, the attacker's wins
    in it less the twin's."""
    terms: Counter[tuple[str, frozenset[str]]] = Counter()
    for match in matches:
        names = [seat.bot.split("@")[0] for seat in match.seats]
        won = {name for name, seat in zip(names, match.seats, strict=True) if seat.rank == 1}
        present = set(names)
        if attacker in present and TWIN in present:
            terms["both", frozenset(present)] += (attacker in won) - (TWIN in won)
        elif attacker in present:
            terms["alone", frozenset(present - {attacker})] += attacker in won
        elif TWIN in present:
            terms["alone", frozenset(present - {TWIN})] -= TWIN in won
    return list(terms.values())


def beyond_noise(report: ChaosReport, attacker: str, false_alarm: float = 1e-2) -> int:
    """How many more seats ``attacker`` may win than its honest twin by chance alone: with
    every attack harmless, the chance that any attacker is further ahead is below
    ``false_alarm``.

    If an attack changes nothing, the attacker and its twin are the same player with the
    same opponents: in the round-robin each group of ``players`` bots plays every seating
    once (per repetition), and the attacker's groups without the twin are the twin's groups
    without the attacker, but for the bot swapped. Their lead D (the attacker's wins less
    the twin's) is then a sum of independent terms, one per group of opponents
    (:func:`_lead_terms`; every bot draws afresh in each match, and the misbehaving ones
    fault alike whoever they meet), and each term is symmetric about 0: the attacker and
    the twin could swap names. For independent symmetric terms X_i, whatever their
    distributions, P(sum X_i >= x sqrt(sum X_i^2)) <= exp(-x^2 / 2) (the self-normalized
    bound, from their signs being fair coins given their sizes). So with A attackers at
    once (the union bound), an attacker further ahead than
    t = sqrt(2 ln(A / false_alarm) sum X_i^2) is so by its attack, not by chance. The
    threshold follows the terms actually seen, so a tournament where most groups split
    evenly shows a smaller lead than ranges alone would (Hoeffding's bound, used before,
    allowed more seats than an attacker could win over its twin in the short version).
    """
    squares = sum(term * term for term in report.lead_terms[attacker])
    return math.floor(math.sqrt(2 * math.log(len(report.attackers) / false_alarm) * squares))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--repetitions", type=int, default=2)
    parser.add_argument("--parallel", type=int, default=4)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--bots", default="all",
                        help="the good and misbehaving bots: all, or names separated by commas "
                             f"({', '.join((*GOOD, *BAD))})")
    parser.add_argument("--attackers", default="all",
                        help="the hostile bots: all, none, or names separated by commas "
                             f"({', '.join(ATTACKS)})")
    parser.add_argument("--no-keep-going", dest="keep_going", action="store_false",
                        help="stop before any match when a bot does not start (by default its "
                             "seats are no-shows and the others play on)")
    args = parser.parse_args()
    bots = (*GOOD, *BAD) if args.bots == "all" else tuple(args.bots.split(","))
    named = () if args.attackers in ("all", "none") else tuple(args.attackers.split(","))
    unknown = [name for name in bots if name not in {**GOOD, **BAD}] + \
        [name for name in named if name not in ATTACKS]
    if unknown:
        parser.error(f"no such bot: {', '.join(unknown)}")
    folder = Path(tempfile.mkdtemp(prefix="arena-chaos-"))
    db = args.db or folder / "chaos.db"
    if db.exists():
        os.remove(db)
    attackers: Sequence[str] = (
        () if args.attackers == "none" or not sandbox.check().works
        else tuple(ATTACKS) if args.attackers == "all" else args.attackers.split(","))
    if args.attackers != "none" and not attackers:
        print(f"no hostile bots: {sandbox.check().why_not}")
    marker = f"arena-chaos-{os.getpid()}-{time.monotonic_ns()}"
    try:
        report = run_chaos(db, args.players, args.repetitions, args.parallel, marker=marker,
                           attackers=attackers, bots=bots, keep_going=args.keep_going)
    except TournamentError as err:  # nothing played: say why in a line (the bots' logs say more)
        print(f"chaos check failed: the tournament could not be played: {' '.join(str(err).split())}")
        raise SystemExit(1) from None
    print(f"{report.finished}/{report.matches} matches finished in {report.wall_s:.1f} s "
          f"(database {db})")
    for bot, counts in sorted(report.faults.items()):
        shown = ", ".join(f"{fault or 'clean'}: {n}" for fault, n in counts.most_common())
        print(f"  {bot:12} {shown}")
    print(f"faulting seats ranked below every clean seat: {report.bad_last}, "
          f"otherwise: {report.bad_not_last}; flood logs "
          + (", ".join(f"{name} {size} bytes" for name, size in report.flood_log_bytes.items())
             or "none"))
    if report.attackers:
        print(f"seats won (ranked first), each attacker against its honest twin "
              f"({report.wins[TWIN]} of {report.seats[TWIN]}: a lead of up to "
              f"+{report.seats[TWIN] - report.wins[TWIN]} is possible), and the lead beyond noise")
        for attack in report.attackers:
            print(f"  {attack:12} {report.wins[attack]:4} of {report.seats[attack]:4}  "
                  f"({report.wins[attack] - report.wins[TWIN]:+d}; beyond noise: more than "
                  f"{beyond_noise(report, attack):+d}); reports per lane: "
                  + ", ".join(f"{n}" for n in report.attacks[attack].values()))
    from tests.helpers import eventually, processes_with

    with contextlib.suppress(AssertionError):  # the last ones ending; any left are reported
        eventually("the bot processes to end", lambda: not processes_with(marker), 60)
    left = processes_with(marker)
    print(f"bot processes left after the tournament: {len(left)}")
    problems = []  # what the chaos check promises (see the module's docstring)
    if report.finished != report.matches:
        problems.append(f"{report.matches - report.finished} of {report.matches} matches unfinished")
    ahead = [a for a in report.attackers
             if report.wins[a] - report.wins[TWIN] > beyond_noise(report, a)]
    if ahead:
        problems.append(f"ahead of their honest twin beyond noise: {', '.join(ahead)}")
    if left:
        problems.append(f"{len(left)} bot processes outlived the tournament")
    if problems:
        print(f"chaos check failed: {'; '.join(problems)}")
        raise SystemExit(1)


if __name__ == "__main__":
    main()
