"""The ladder: new versions first, informative groups, suspension, and an endless schedule
played by real bots in the sandbox, each match once."""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from arena.match.faults import Fault
from arena.storage.store import BotInfo, MatchInfo, MatchStatus, SeatInfo, Store
from arena.tournament.ladder import LadderRules, Rung, entered, pick, suspension
from tests.helpers import cli

GAME = "face-card-kill-card"
NOW = datetime(2026, 11, 24, tzinfo=UTC)


def _bot(bot_id: int, name: str, games: tuple[str, ...] | None = (GAME,),
         removed: bool = False) -> BotInfo:
    return BotInfo(bot_id, name, str(bot_id), "python bot.py", False, removed, NOW,
                   content_hash=None if games is None else f"{bot_id:064x}", games=games)


def test_the_newest_version_of_each_bot_that_plays_the_game_is_entered() -> None:
    bots = [_bot(1, "a"), _bot(2, "b"), _bot(3, "a"), _bot(4, "c", ("kill",)),
            _bot(5, "d", None), _bot(6, "b", removed=True), _bot(7, "e", None)]
    assert [b.id for b in entered(bots, GAME)] == [2, 3]  # a@3 replaces a@1; removed b@6 not
    assert [b.id for b in entered(bots, GAME, named=["d"])] == [2, 3, 5]  # d named by the operator


def test_a_new_version_anchors_the_next_matches_and_settled_ones_are_paired_with_their_peers() -> None:
    rules = LadderRules(new_sigma=4.0)
    settled = [Rung(_bot(i, f"b{i}"), mu=10.0 * i, sigma=1.0, matches=50) for i in range(1, 7)]
    new = Rung(_bot(9, "new"), mu=25.0, sigma=8.3)
    rng = random.Random(3)
    for _ in range(20):  # every match of a 3-seat game has the new version in it
        assert 9 in pick([*settled, new], 3, {}, rng, rules)
    # settled only: the one that waited longest anchors; its opponents are its nearest peers
    waited = {1: 10, 2: 11, 3: 2, 4: 12, 5: 13, 6: 14}
    for _ in range(20):
        group = pick(settled, 2, waited, rng, rules)
        assert 3 in group and set(group) - {3} <= {2, 4}  # b3 (30) against b2 (20) or b4 (40)
    suspended = [*settled[:5], Rung(settled[5].bot, 60.0, 1.0, 50, suspended="faulted")]
    assert all(6 not in pick(suspended, 4, {}, rng, rules) for _ in range(20))
    two = pick(settled[:2], 4, {}, rng, rules)  # fewer versions than seats: some take two
    assert len(two) == 4 and set(two) == {1, 2}


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
