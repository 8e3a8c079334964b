"""Scrimmages on a real ``arena serve`` (real submissions, bots in the sandbox), asked for with
the command line as an author would: queued and played beside everything else, unrated (the
leaderboard over the wire does not move), their results `tournament show`'s; and refused, in
one line with its exit code, over the author's limits, for another's bot, for the operator."""

from __future__ import annotations

import json
from pathlib import Path

from arena.storage.store import Store
from tests.helpers import cli
from tests.served import OPERATOR, Served, eventually, remote
from tests.service.test_server import _bot_folder, _token

GAME = "face-card-kill-card"


def test_an_author_asks_for_scrimmages_within_their_limits(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    ann = _token(cli("author", "add", "ann", db=db).stdout)
    bob = _token(cli("author", "add", "bob", db=db).stdout)
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    server = Served(db, "--no-web", "--scrimmage-queue", "1", "--scrimmage-matches", "10")
    try:
        for token, name in ((ann, "ann-a"), (bob, "bob-a")):
            remote(server, token, "bot", "submit", str(_bot_folder(tmp_path, name, delay=0.0,
                                                                  game=GAME)), "--label", "v1")
        asked = json.loads(remote(server, ann, "scrimmage", GAME, "--bot", "ann-a", "--against",
                                  "random", "--sets", "4", "--sprt", "elo0=0,elo1=400",
                                  "--json").stdout)["tournament"]
        assert asked["total"] == 8 and asked["status"] in ("queued", "running")
        tid = asked["id"]

        # over the limits: one line each, the exit code of its kind, nothing queued
        waiting = remote(server, ann, "scrimmage", GAME, "--bot", "ann-a", "--against",
                         "random", "--sets", "1", check=False)
        assert waiting.returncode != 0 and "Traceback" not in waiting.stderr
        assert "scrimmages not finished yet" in waiting.stderr
        theirs = remote(server, ann, "scrimmage", GAME, "--bot", "bob-a", "--against",
                        "random", check=False)
        assert theirs.returncode != 0 and "not a bot of yours" in theirs.stderr
        operator = remote(server, OPERATOR, "scrimmage", GAME, "--bot", "ann-a", "--against",
                          "random", check=False)
        assert operator.returncode != 0 and "scrimmages are authors'" in operator.stderr

        def over() -> bool:
            with Store(str(db)) as store:
                return store.get_tournament(tid).status.ended
        eventually("the scrimmage to be played", over)
        shown = remote(server, ann, "tournament", "show", str(tid)).stdout
        assert shown.startswith(f"scrimmage {tid}: {GAME}, 2 players, versus (ann-a@v1 against "
                                "random@1") and "unrated: its own standings only" in shown
        report = json.loads(remote(server, ann, "tournament", "show", str(tid),
                                   "--json").stdout)["tournament"]
        assert report["scrimmage"] is True and report["sprt"]["sets"] >= 1
        assert {row["bot"] for row in report["standings"]} == {"ann-a@v1", "random@1"}
        # unrated: no leaderboard row over the wire
        board = json.loads(remote(server, bob, "leaderboard", "--json").stdout)["leaderboard"]
        assert board == []

        # the hour's budget: 8 asked already, 10 allowed; 2 sets at two seats are 4 more
        hour = remote(server, ann, "scrimmage", GAME, "--bot", "ann-a", "--against", "bob-a",
                      "--sets", "2", check=False)
        assert hour.returncode != 0 and "in the last hour" in hour.stderr
        with Store(str(db)) as store:
            assert len(store.list_tournaments()) == 1
    finally:
        server.stop()
