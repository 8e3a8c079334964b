"""Untrusted text is inert, and a failed start publishes nothing of the bot's log.

A hostile bot (a real process in the real sandbox, submitted as an archive) prints escape
sequences (a window title, a write to the clipboard with OSC 52, a screen clear, a cursor
move, a carriage return, a C1 CSI) to its log, reports errors carrying them as its fault
reason, and has them in its manifest's command; a second one prints them and dies at its
start. Every command that shows that text (`tournament run`, `tournament show`, `tournament
list`, `match list`, `match show`, `bot log`, `bot list`, the server's own output, the one
error line) shows it escaped (``\\x1b``), never a raw control character, never reading it as
rich markup; every match is accounted for. The control: the raw sequences really reach the
CLI (the bot's log file holds them, and `--json`, which escapes them itself, gives them
back), so an output without them was made inert, not spared the attack.

The note of a tournament whose bot did not start, which every author reads, names the bot
and its exit code only; the lines of its log go to its author (`arena bot log`) and to the
operator (the server's output).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from arena.cli.output import inert
from arena.storage.store import Store
from tests.helpers import cli
from tests.served import OPERATOR, Served, eventually, remote

GAME = "face-card-kill-card"
NASTY = ("\x1b]0;owned title\x07\x1b]52;c;cm0gLXJmIH4K\x07\x1b[2J\x1b[H\x1b[3A\r"
         "rewritten [bold]loud[/bold] :smile:\x9b31m\x7f\u202e")
"""Title, clipboard, clear screen, cursor home and up, carriage return, markup, emoji code,
a C1 CSI, DEL, a right-to-left override."""
SHOWN = inert(NASTY)
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")

HOSTILE = '''
import sys
from bots.random_bot import RandomBot
from sdk.run import run

NASTY = {nasty!r}
print("{word} on stdout", NASTY, flush=True)
print("{word} on stderr", NASTY, file=sys.stderr, flush=True)


class Hostile(RandomBot):
    def act(self, observation, legal_actions):
        raise RuntimeError("{word} reason " + NASTY)


{ending}
'''


def _toml(text: str) -> str:
    """``text`` as a TOML basic string's contents (control characters as \\uXXXX)."""
    return "".join(f"\\u{ord(c):04x}" if ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f or c in '"\\'
                   else c for c in text)


def _hostile(where: Path, name: str, ending: str) -> Path:
    folder = where / name
    folder.mkdir()
    (folder / "arena-bot.toml").write_text(
        f'name = "{name}"\ncommand = "python bot.py {_toml(NASTY)}"\ngames = ["{GAME}"]\n')
    (folder / "bot.py").write_text(HOSTILE.format(nasty=NASTY, word=name, ending=ending))
    return folder


def _inert(*runs: subprocess.CompletedProcess[str]) -> str:
    """Everything the runs printed, asserted free of raw control characters."""
    said = "".join(run.stdout + run.stderr for run in runs)
    found = sorted({f"{ord(c):#04x}" for c in RAW.findall(said)})
    assert not found, f"raw control characters {found} in: {said!r}"
    assert "\u202e" not in said
    return said


def test_a_hostile_bots_log_reasons_and_command_print_inert(sandboxed: None,
                                                             tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    submitted = cli("bot", "submit", str(_hostile(tmp_path, "hostile", "run(Hostile)")),
                    "--label", "v1", db=db)
    played = cli("tournament", "run", "--game", GAME, "--players", "2", "--bot", "random",
                 "--bot", "hostile", "--repetitions", "2", "--seed", "3", db=db)
    store = Store(str(db))
    tournament = store.get_tournament(1)
    matches = store.tournament_matches(1)
    # every match accounted for: each finished once, the hostile seat at fault each time
    assert tournament.status == "finished" and tournament.finished == tournament.total == 4
    assert len(matches) == 4 and {str(m.status) for m in matches} == {"finished"}
    # (the deals are secret: in a rare deal the game ends before the hostile seat decides)
    faulted = [m for m in matches if any(s.bot == "hostile@v1" and str(s.fault) == "error"
                                         for s in m.seats)]
    assert faulted and all(str(s.fault) == ("error" if m in faulted and s.bot == "hostile@v1"
                                            else "") for m in matches for s in m.seats)

    shows = [cli("match", "show", str(m.id), db=db) for m in faulted]
    seats = [cli("match", "show", str(faulted[0].id), "--seat", str(seat), db=db)
             for seat in (0, 1)]
    logs = cli("bot", "log", "hostile", db=db)
    outputs = [submitted, played, cli("tournament", "show", "1", db=db),
               cli("tournament", "list", db=db), cli("match", "list", db=db), *shows,
               *seats, logs, cli("bot", "list", db=db), cli("leaderboard", db=db)]
    said = _inert(*outputs)
    # the text is there, visibly escaped and literal: where it is shown, all of it is shown
    for show in shows:
        assert f"(RuntimeError: hostile reason {SHOWN})" in show.stdout
    assert f"hostile on stdout {SHOWN}" in logs.stdout
    assert f"hostile on stderr {SHOWN}" in logs.stdout
    assert "--- hostile@v1.lane1" in logs.stdout  # every process's log
    assert f"python bot.py {SHOWN}" in outputs[-2].stdout  # the submitted command
    assert "\\x1b]52;c;cm0gLXJmIH4K\\x07" in said and "[bold]loud[/bold] :smile:" in said

    # the control: the raw sequences did reach the CLI, which made them inert
    log_files = sorted((tmp_path / "arena-data" / "logs").glob("hostile@v1*.log"))
    assert log_files and all(NASTY.encode() in f.read_bytes() for f in log_files)
    shown = json.loads(cli("match", "show", str(faulted[0].id), "--json", db=db).stdout)
    assert [line["reason"] for line in shown["match"]["log"] if line["kind"] == "fault"] == \
        [f"RuntimeError: hostile reason {NASTY}"]
    assert all(RAW.search(run.stdout) is None for run in
               (cli("match", "show", str(matches[0].id), "--json", db=db),
                cli("bot", "list", "--json", db=db)))  # JSON escapes them itself


def test_a_bot_that_dies_at_start_stops_a_local_run_with_an_inert_line(
        sandboxed: None, tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    cli("bot", "submit", str(_hostile(tmp_path, "sulky", "sys.exit(3)")), "--label", "v1",
        db=db)
    run = cli("tournament", "run", "--game", GAME, "--players", "2", "--bot", "random",
              "--bot", "sulky", db=db, check=False)
    assert run.returncode == 1
    _inert(run)
    line = run.stderr.strip()
    assert "\n" not in line  # one line, for the operator who ran it: the log's end, inert
    assert line.startswith("error: bot sulky@v1 did not start: exited with code 3; last lines "
                           "of its log: ")
    assert "sulky on stderr" in line and "\\x1b]52;c;cm0gLXJmIH4K\\x07" in line
    with Store(str(db)) as store:
        tournament = store.get_tournament(1)
        matches = store.tournament_matches(1)
    assert tournament.status == "interrupted" and tournament.finished == 0
    # every match accounted for: none played, none lost, the tournament left to resume
    assert len(matches) == tournament.total == 2
    assert {str(m.status) for m in matches} == {"pending"}


def test_a_failed_starts_public_note_names_the_bot_and_its_exit_code_only(
        sandboxed: None, tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    eve = cli("author", "add", "eve", db=db).stdout.splitlines()[2].strip()
    bob = cli("author", "add", "bob", db=db).stdout.splitlines()[2].strip()
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    server = Served(db, "--no-web")
    try:
        remote(server, eve, "bot", "submit", str(_hostile(tmp_path, "sulky", "sys.exit(1)")),
               "--label", "v1")
        made = json.loads(remote(server, OPERATOR, "tournament", "create", "--game", GAME,
                                 "--bot", "sulky", "--bot", "random", "--players", "2",
                                 "--json").stdout)["tournament"]

        def noted() -> list[dict[str, object]]:
            rows = json.loads(remote(server, bob, "tournament", "list", "--json").stdout)
            return [r for r in rows["tournaments"] if r["id"] == made["id"] and r.get("note")]

        note = str(eventually("the tournament's note", noted, timeout=300, every=0.5)[0]["note"])
        assert note == ("bot sulky@v1 did not start (exit code 1) (nothing was played; its "
                        "author reads why with `arena bot log`)")
        # what any author sees: the name and the exit code, nothing the bot printed
        listed = remote(server, bob, "tournament", "list")
        shown = remote(server, bob, "tournament", "show", str(made["id"]))
        as_json = remote(server, bob, "tournament", "show", str(made["id"]), "--json")
        public = _inert(listed, shown, as_json)
        assert "bot sulky@v1 did not start (exit code 1)" in listed.stdout + shown.stdout
        for leak in ("sulky on stdout", "sulky on stderr", "owned title", "\\x1b", "\\u001b",
                     "cm0gLXJmIH4K"):
            assert leak not in public
        # its author reads the log, inert; the operator's terminal has the whole story, inert
        log = remote(server, eve, "bot", "log", "sulky")
        assert f"sulky on stdout {SHOWN}" in _inert(log)
        refused = remote(server, bob, "bot", "log", "sulky", check=False)
        assert refused.returncode == 1 and "sulky on stdout" not in refused.stdout + refused.stderr
        # every match accounted for: none played, none lost, the tournament left to resume
        with Store(str(db)) as store:
            tournament = store.get_tournament(made["id"])
            matches = store.tournament_matches(made["id"])
        assert tournament.status == "interrupted" and tournament.finished == 0
        assert len(matches) == tournament.total == 2
        assert {str(m.status) for m in matches} == {"pending"}
    finally:
        served = server.stop()
    _inert(subprocess.CompletedProcess([], 0, served, ""))
    said = [line for line in served.splitlines() if "stopped: bot sulky@v1 did not start" in line]
    assert said and "last lines of its log: " in said[0] and "\\x1b]52;c;" in said[0]


@pytest.mark.parametrize("text", [NASTY, "plain text, [bold]as written[/bold]", "\x00\x1f\x80"])
def test_inert_escapes_every_control_but_newline_and_tab(text: str) -> None:
    shown = inert(text + "\n\t")
    assert shown.endswith("\n\t") and RAW.search(shown[:-2]) is None
    assert "\u202e" not in shown
    assert inert(shown) == shown  # once is enough: inert text stays as it is
    if RAW.search(text) is None:
        assert shown == text + "\n\t"
