"""Presence: a bot that feeds another stands out, honest bots do not, as figures and as every
view shows them (the report, ``tournament show``, its JSON and the web page)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from fastapi.testclient import TestClient

from arena.app.reports import show_tournament
from arena.rating.figures import MatchReading, read_match
from arena.rating.presence import MIN_MATCHES, presence, surpluses, win_chance
from arena.rating.ratings import DEFAULT
from arena.tournament import RunSettings, create_tournament, run_until_done
from bots.king import KingBot
from leaderboard.web.app import create_app
from tests.bots.colluders import Feeder
from tests.helpers import cli, migrated_store
from tests.inprocess import InProcessExecutor

HONEST = ("h1", "h2", "h3", "h4")


def _reading(ranks: dict[int, int]) -> MatchReading:
    return read_match((bot, rank, "") for bot, rank in ranks.items())


def test_the_predicted_place_follows_the_ratings() -> None:
    assert win_chance((25.0, 1.0), (25.0, 1.0)) == 0.5
    assert win_chance((30.0, 1.0), (20.0, 1.0)) > 0.9 > 0.1 > win_chance((20.0, 1.0), (30.0, 1.0))
    even = surpluses(_reading({1: 1, 2: 2, 3: 3, 4: 4}), {}, DEFAULT)
    assert even == {1: 1.5, 2: 0.5, 3: -0.5, 4: -1.5}  # all alike: predicted 2.5 each
    # a bot in two seats (its place is its best seat's) is left out of its own figures
    doubled = read_match([(1, 1, ""), (1, 3, ""), (2, 2, ""), (3, 4, "")])
    assert set(surpluses(doubled, {}, DEFAULT)) == {2, 3}
    assert surpluses(read_match([(1, 1, ""), (1, 2, "")]), {}, DEFAULT) == {}  # one bot: nothing


def _table(fed: bool, matches: int, rng: random.Random) -> list[MatchReading]:
    """Bots 1-5 in 4 seats at random; with ``fed``, bot 1 takes first place whenever bot 2 is
    at the table, and bot 2 takes the last."""
    out = []
    for _ in range(matches):
        bots = rng.sample(range(1, 6), 4)
        ranks = dict(zip(bots, rng.sample(range(1, 5), 4), strict=True))
        if fed and 1 in ranks and 2 in ranks:
            ranks = {b: (1 if b == 1 else 4 if b == 2 else 0) for b in ranks}
            rest = iter((2, 3))
            ranks = {b: r or next(rest) for b, r in ranks.items()}
        out.append(_reading(ranks))
    return out


def test_a_fed_pair_is_flagged_and_honest_tables_flag_nothing() -> None:
    rng = random.Random(11)
    flagged_honest = sum(any(p.flagged for p in presence(_table(False, 200, rng), {}, DEFAULT))
                         for _ in range(20))
    assert flagged_honest <= 2  # Bonferroni at 5% a table: about one table in 20 at most
    fed = presence(_table(True, 200, rng), {}, DEFAULT)
    flagged = {(p.bot, p.other) for p in fed if p.flagged}
    assert (1, 2) in flagged and (2, 1) in flagged
    assert all(1 in pair or 2 in pair for pair in flagged)
    top = fed[0]
    assert {top.bot, top.other} == {1, 2} and top.z is not None and abs(top.z) > 5
    # too few matches on a side: a figure, never a flag
    few = presence(_table(True, 2 * MIN_MATCHES, rng), {}, DEFAULT)
    assert not any(p.flagged for p in few if min(p.shared, p.apart) < MIN_MATCHES)


def test_a_feeder_in_a_round_robin_of_king_stands_out_and_honest_pairs_do_not(
        tmp_path: Path) -> None:
    """Six bots of King, every group of four in every seat rotation, twice (120 matches),
    through the tournament's own run and store; the bots play in this process."""
    db = tmp_path / "arena.db"
    store = migrated_store(db)
    for name in ("feeder", "ben", *HONEST):
        store.add_bot(name, "python -m bots.king")

    def feeder() -> Feeder:
        bot = Feeder()
        bot.partner_label = "ben@1"
        return bot

    bots = {"feeder@1": feeder, **{f"{n}@1": KingBot for n in ("ben", *HONEST)}}
    tid = create_tournament(store, "king", ["feeder", "ben", *HONEST], 4, 2, 2027, {},
                            RunSettings(), deals_from_seed=True)
    run_until_done(store, tid, tmp_path, RunSettings(parallel=4),
                   executor=InProcessExecutor(bots=bots))

    found = show_tournament(store, tid).presence
    assert found is not None and found.matches == 120 == store.get_tournament(tid).finished
    flagged = {(row.bot, row.other) for row in found.pairs if row.figure.flagged}
    colluders = {"feeder@1", "ben@1"}
    assert ("feeder@1", "ben@1") in flagged or ("ben@1", "feeder@1") in flagged
    assert all(set(pair) & colluders for pair in flagged)  # no pair of honest bots
    top = found.pairs[0]
    assert {top.bot, top.other} == colluders and top.figure.effect < 0  # the feeder throws
    honest = [r for r in found.pairs if not {r.bot, r.other} & colluders]
    assert len(honest) == 12 and all(abs(r.figure.z or 0) < 3 for r in honest)

    shown = cli("tournament", "show", str(tid), db=db).stdout
    assert "Presence: pairs that stand out" in shown and "feeder@1" in shown.split("Presence")[1]
    document = json.loads(cli("tournament", "show", str(tid), "--json", db=db).stdout)
    pairs = document["tournament"]["presence"]["pairs"]
    assert pairs[0]["bot"] == top.bot and pairs[0]["flagged"] == top.figure.flagged
    assert len(pairs) == 30  # every ordered pair of six bots that met

    web = TestClient(create_app(store))
    assert f'href="/tournaments/{tid}/presence"' in web.get(f"/tournaments/{tid}").text
    assert web.get(f"/api/tournaments/{tid}").json()["tournament"]["presence"] is None
    assert web.get(f"/api/tournaments/{tid}/presence").json()["presence"]["pairs"] == pairs
    page = web.get(f"/tournaments/{tid}/presence")
    assert page.status_code == 200
    rows = page.text.split("<tbody>")[1].split("</tbody>")[0].split("<tr")[1:]
    assert len(rows) == 30 and sum('class="flagged"' in row for row in rows) == len(flagged)
    assert "feeder@1" in rows[0] and "stands out" in rows[0]
    store.close()
