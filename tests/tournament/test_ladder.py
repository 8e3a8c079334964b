"""The ladder: new versions first, informative groups, suspension, and an endless schedule
played by real bots in the sandbox, each match once."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from arena.app import bots as bot_use_cases
from arena.cli.common import data_dir_for
from arena.match.faults import Fault
from arena.players.submissions import read_submission
from arena.storage.store import BotInfo, MatchInfo, MatchStatus, SeatInfo, Store
from arena.tournament.ladder import (
    LadderRules,
    Rung,
    create_ladder,
    entered,
    pick,
    run_ladder,
    suspension,
)
from arena.tournament.settings import RunSettings
from arena.wire.tokens import digest
from tests.helpers import cli

GAME = "face-card-kill-card"
NOW = datetime(2026, 11, 24, tzinfo=UTC)


def _bot(bot_id: int, name: str, games: tuple[str, ...] | None = (GAME,),
         removed: bool = False, author: int | None = None) -> BotInfo:
    return BotInfo(bot_id, name, str(bot_id), "python bot.py", False, removed, NOW,
                   content_hash=None if games is None else f"{bot_id:064x}", games=games,
                   author_id=author)


def test_the_newest_version_of_each_bot_that_plays_the_game_is_entered() -> None:
    bots = [_bot(1, "a"), _bot(2, "b"), _bot(3, "a"), _bot(4, "c", ("kill",)),
            _bot(5, "d", None), _bot(6, "b", removed=True), _bot(7, "e", None)]
    assert [b.id for b in entered(bots, GAME)] == [2, 3]  # a@3 replaces a@1; removed b@6 not
    assert [b.id for b in entered(bots, GAME, named=["d"])] == [2, 3, 5]  # d named by the operator


def seated(rungs: list[Rung], players: int, waited: dict[int, int], rng: random.Random,
           rules: LadderRules) -> tuple[int, ...]:
    """:func:`pick`'s group, which these rungs always have."""
    group = pick(rungs, players, waited, rng, rules)
    assert group is not None
    return group


def test_a_new_version_anchors_the_next_matches_and_settled_ones_are_paired_with_their_peers() -> None:
    rules = LadderRules(new_sigma=4.0)
    settled = [Rung(_bot(i, f"b{i}"), mu=10.0 * i, sigma=1.0, matches=50) for i in range(1, 7)]
    new = Rung(_bot(9, "new"), mu=25.0, sigma=8.3)
    rng = random.Random(3)
    for _ in range(20):  # every match of a 3-seat game has the new version in it
        assert 9 in seated([*settled, new], 3, {}, rng, rules)
    # settled only: the one that waited longest anchors; its opponents are its nearest peers
    waited = {1: 10, 2: 11, 3: 2, 4: 12, 5: 13, 6: 14}
    for _ in range(20):
        group = seated(settled, 2, waited, rng, rules)
        assert 3 in group and set(group) - {3} <= {2, 4}  # b3 (30) against b2 (20) or b4 (40)
    suspended = [*settled[:5], Rung(settled[5].bot, 60.0, 1.0, 50, suspended="faulted")]
    assert all(6 not in seated(suspended, 4, {}, rng, rules) for _ in range(20))
    two = seated(settled[:2], 4, {}, rng, rules)  # fewer versions than seats: some take two
    assert len(two) == 4 and set(two) == {1, 2}


def test_two_bots_of_one_author_never_share_a_match_unless_the_ladder_allows_it() -> None:
    rules = LadderRules()
    # ann (author 1) has three bots, bob (2) and cat (3) one each, the operator two (no author)
    authors = {1: 1, 2: 1, 3: 1, 4: 2, 5: 3, 6: None, 7: None}
    rungs = [Rung(_bot(i, f"b{i}", author=a), mu=20.0 + i, sigma=1.0, matches=50)
             for i, a in authors.items()]
    rng = random.Random(5)
    seen: Counter[int] = Counter()
    for players in (2, 3, 4, 5):
        for waited_last in range(1, 8):  # each version anchors in turn
            waited = {i: 10 + i for i in authors} | {waited_last: 0}
            for _ in range(30):
                group = pick(rungs, players, waited, rng, rules)
                assert group is not None and len(group) == players and waited_last in group
                of_authors = [authors[b] for b in group if authors[b] is not None]
                assert len(of_authors) == len(set(of_authors)), group  # one seat an author
                seen.update(group)
    assert set(seen) == set(authors)  # every version plays, ann's three included
    # only ann's bots and bob's: no match of three seats can be seated, none of two twice
    ann_bob = [r for r in rungs if r.bot.author_id in (1, 2)]
    assert pick(ann_bob, 3, {}, rng, rules) is None
    assert all(set(pick(ann_bob, 2, {}, rng, rules) or ()) & {4} for _ in range(20))
    # an operator's bot takes the seats the authors cannot
    group = pick([*ann_bob, rungs[5]], 4, {}, rng, rules)
    assert group is not None and sorted(authors[b] or 0 for b in group) == [0, 0, 1, 2]
    # allowed for this ladder: ann's bots meet, as before the rule
    allowed = LadderRules(same_author=True)
    assert LadderRules.from_saved(allowed.saved()) == allowed
    assert any(len(set(pick(ann_bob, 3, {}, rng, allowed) or ()) & {1, 2, 3}) >= 2
               for _ in range(20))


def _match(match_id: int, faults: dict[int, str]) -> MatchInfo:
    seats = tuple(SeatInfo(seat, bot_id, f"b@{bot_id}", 0.0, 1, Fault(faults.get(bot_id, "")))
                  for seat, bot_id in enumerate((1, 2)))
    return MatchInfo(match_id, 1, match_id, GAME, {}, 0, MatchStatus.FINISHED, NOW, NOW, NOW, 1.0,
                     match_id, seats)


def test_a_version_that_faults_in_most_of_its_recent_matches_is_suspended_with_the_reason() -> None:
    rules = LadderRules(window=10, most=0.5, judged_after=4)
    three_bad = [_match(i, {1: "error"} if i < 3 else {}) for i in range(10)]
    assert suspension(1, three_bad, rules) is None
    mostly_bad = [_match(i, {1: "timeout" if i % 3 else "error"} if i < 7 else {}) for i in range(10)]
    assert suspension(1, mostly_bad, rules) == \
        "faulted in 7 seats of its last 10 matches (timeout x4, error x3)"
    assert suspension(2, mostly_bad, rules) is None
    assert suspension(1, mostly_bad[:3], rules) is None  # too few matches to judge


BOT = '''
import sys
from bots.random_bot import RandomBot
from sdk.run import run

class Bot(RandomBot):
    def act(self, observation, legal_actions):
        if sys.argv[1] == "broken":
            raise RuntimeError("this version is broken")
        return super().act(observation, legal_actions)

run(Bot)
'''


def _submit(tmp: Path, db: Path, name: str, kind: str = "fine", note: str = "") -> str:
    folder = tmp / f"{name}-{kind}-{note}"
    folder.mkdir()
    (folder / "arena-bot.toml").write_text(
        f'name = "{name}"\ncommand = "python bot.py {kind}"\ngames = ["{GAME}"]\n')
    (folder / "bot.py").write_text(BOT + f"# {note}\n")
    done = cli("bot", "submit", str(folder), "--json", db=db)
    return str(json.loads(done.stdout)["submission"]["bot"])


def test_the_ladder_plays_on_puts_a_new_version_first_and_suspends_a_broken_one(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    for name in ("ann", "bob", "cat"):
        _submit(tmp_path, db, name)
    cli("bot", "add", "heuristic", "--command", "python -m bots.face_card_kill_card", db=db)
    first = cli("ladder", "start", GAME, "--bot", "heuristic", "--players", "2", "--matches",
                "30", "--parallel", "2", db=db)
    assert "ladder 1 of face-card-kill-card: started" in first.stdout
    store = Store(str(db))
    assert store.get_tournament(1).finished >= 30

    newer = _submit(tmp_path, db, "ann", note="v2")  # replaces ann's first version
    broken = _submit(tmp_path, db, "dan", kind="broken")
    again = cli("ladder", "start", GAME, "--matches", "40", "--parallel", "2", db=db)
    assert "going on where it stopped" in again.stdout
    assert f"{broken} suspended: faulted in" in again.stdout

    matches = sorted(store.tournament_matches(1), key=lambda m: m.index)
    assert len(matches) >= 70 and {str(m.status) for m in matches} == {"finished"}
    assert [m.index for m in matches] == list(range(len(matches)))  # each once, none lost
    labels = [{s.bot for s in m.seats} for m in matches]
    second = next(i for i, seats in enumerate(labels) if newer in seats)
    assert second >= 30  # it entered with the second run
    # the new version's first matches come ahead of the others: it is in the first five
    assert all(newer in seats or broken in seats for seats in labels[second:second + 5])
    assert newer in set().union(*labels[second:second + 5])
    old = next(b for b in store.list_bots() if b.name == "ann" and b.label != newer)
    assert not any(old.label in seats for seats in labels[second + 2:])  # replaced
    assert store.rating_history(old.id, GAME)  # and keeps its history
    suspended_after = [i for i, seats in enumerate(labels) if broken in seats]
    assert 4 <= len(suspended_after) <= 12  # judged after 4 matches, then no more
    shown = json.loads(cli("ladder", "show", GAME, "--json", db=db).stdout)["ladder"]
    by_bot = {v["bot"]: v for v in shown["versions"]}
    assert by_bot[broken]["status"] == "suspended" and "error x" in by_bot[broken]["why"]
    assert by_bot[newer]["status"] == "active" and old.label not in by_bot
    # every seat of every match was rated once
    history = sum(len(store.rating_history(b.id, GAME)) for b in store.list_bots())
    assert history == sum(len(m.seats) for m in matches)
    assert Counter(str(s.fault) for m in matches for s in m.seats
                   if s.bot != broken) == Counter({"": sum(
                       1 for m in matches for s in m.seats if s.bot != broken)})


def _author_submits(tmp: Path, store: Store, db: Path, name: str, author_id: int) -> str:
    folder = tmp / name
    folder.mkdir()
    (folder / "arena-bot.toml").write_text(
        f'name = "{name}"\ncommand = "python bot.py fine"\ngames = ["{GAME}"]\n')
    (folder / "bot.py").write_text(BOT)
    done = bot_use_cases.submit(store, read_submission(folder, [GAME]), None, data_dir_for(str(db)),
                                author_id)
    return done.bot.label


def test_a_ladder_never_seats_two_bots_of_one_author_and_waits_when_it_cannot_seat_a_match(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    store = Store(str(db))
    ann = store.add_author("ann", digest("ann-token")).id
    bob = store.add_author("bob", digest("bob-token")).id
    anns = {_author_submits(tmp_path, store, db, name, ann) for name in ("ann-a", "ann-b")}
    ladder = create_ladder(store, GAME, 2, {}, RunSettings(parallel=2))

    said: list[str] = []

    async def until_it_waits() -> None:
        stop = asyncio.Event()

        def notice(text: str) -> None:
            said.append(text)
            stop.set()
        await run_ladder(store, ladder, data_dir_for(str(db)), RunSettings(parallel=2), stop,
                         notice=notice)

    asyncio.run(until_it_waits())  # ann's two bots alone: no match may be seated
    assert said == ["ladder: waiting for versions of other authors: no match of 2 seats has two "
                    "bots of one author (`arena ladder start --same-author` allows it)"]
    assert store.get_tournament(ladder).total == 0

    bobs = _author_submits(tmp_path, store, db, "bob-a", bob)
    cli("bot", "add", "heuristic", "--command", "python -m bots.face_card_kill_card", db=db)
    cli("ladder", "start", GAME, "--bot", "heuristic", "--players", "2", "--matches", "16",
        "--parallel", "2", db=db)
    matches = store.tournament_matches(max(t.id for t in store.list_tournaments()))
    seated = [{s.bot for s in m.seats} for m in matches]
    assert len(matches) >= 16 and {str(m.status) for m in matches} == {"finished"}
    assert not any(anns <= seats for seats in seated)  # ann's bots never meet
    assert all(len(seats) == 2 for seats in seated)  # nor does one take both seats
    assert anns <= set().union(*seated) and bobs in set().union(*seated)
