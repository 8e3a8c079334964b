"""Every command the documentation shows still works.

The ``sh`` blocks of README.md and of every page under docs/ are read as a reader would
type them. A block is **run**, in order with the blocks before it on its page, in a
temporary folder of the page's own with a fresh database (``arena`` in this process
through click's runner, other programs as processes), unless ``CHECKED_ONLY`` names it
with the reason it cannot run here. A checked block must still make sense: each
command's program exists, an ``arena`` command's groups and subcommands exist and every
option it uses is one that command accepts, a Python module it runs can be imported (and
takes the options given, per its ``--help``), a file it names is in the repository, an
extra it installs is in pyproject.toml.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.cli.app import command_line

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

CHECKED_ONLY: dict[tuple[str, str], str] = {
    # (page, the start of the block's first line): why the block is not run here
    ("README.md", "scripts/install-system-packages && python3 -m venv"):
        "installs packages with apt-get and pip, then a 30-second demo (tests/cli/test_demo.py "
        "runs the demo)",
    ("README.md", "scripts/install-system-packages --tests"):
        "installs, then runs the whole test suite (it is what CI runs)",
    ("docs/authors.md", "export ARENA_REMOTE="): "needs a remote arena and an author's token",
    ("docs/authors.md", "arena scrimmage face-card-kill-card"):
        "needs a server (its ARENA_REMOTE and an author's token) and the author's versions",
    ("docs/authors.md", "python rival.py"):
        "needs a tournament listening for the remote bot, and the author's rival.py",
    ("docs/operators.md", "arena bot add NAME"): "a synopsis: placeholders and alternatives",
    ("docs/operators.md", "# the new version against"):
        "needs bots the reader registered (mybot@1, mybot@2) and plays up to 2000 sets",
    ("docs/operators.md", "arena ladder start"): "a ladder plays until Ctrl-C",
    ("docs/operators.md", "export ARENA_OPERATOR_TOKEN="):
        "starts a server that runs until stopped, with TLS files of the reader's",
    ("docs/operators.md", "arena bot add rival --remote"):
        "the tournament waits for a remote bot to connect",
    ("docs/operators.md", "pip install -e '.[ray]'"): "needs a Ray cluster and PostgreSQL",
    ("docs/server.md", "arena serve [--host"): "a synopsis of a server that runs until stopped",
    ("docs/server.md", "arena bot submit PATH"): "a synopsis of commands against a server",
    ("docs/web.md", "arena web [--db"): "a synopsis of servers that run until stopped",
    ("docs/json.md", "arena leaderboard --json | jq"):
        "pipes into jq, which the project does not install, and reads a database with bots",
    ("docs/development.md", "python -m tests.chaos --players"): "plays 924 matches: minutes",
    ("docs/search.md", "arena bot add random"):
        "an SPRT plays until it decides: tens of minutes to hours on 2 cores",
    ("docs/development.md", "ARENA_FUZZ_SECONDS=300"): "fuzzes for 5 minutes",
    ("docs/development.md", "ARENA_FUZZ=10"):
        "plays ten times the suite's random games: tens of minutes",
    ("docs/rl.md", "pip install -e '.[rl]'"):
        "installs packages (the test command's '.[dev]' holds them already)",
    ("docs/training.md", ""): "tests/sdk/test_training.py runs every command at a small scale",
    ("docs/datasets.md", "pip install -e '.[rl]'"):
        "installs packages (the test command's '.[dev]' holds them already)",
}

OUTSIDE_TOOLS = {"jq": "a JSON tool of the reader's own"}
"""Programs the pages use that the project does not provide, with why they are shown."""

SHELL_WORDS = {".", "source", "export"}
TOOLS_ON_PATH = {"ruff", "mypy", "lint-imports", "pytest"}
SEPARATORS = {"&&", "||", ";", "&"}


@dataclass(frozen=True)
class Block:
    page: str  # relative to the repository
    first_line: str
    text: str

    @property
    def key(self) -> tuple[str, str] | None:
        """Its entry in CHECKED_ONLY, if any."""
        found = [k for k in CHECKED_ONLY if k[0] == self.page and self.first_line.startswith(k[1])]
        return found[0] if found else None


def shell_blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    page = str(path.relative_to(ROOT))
    blocks = []
    for body in re.findall(r"^```(?:sh|bash|shell)\n(.*?)^```", text, flags=re.S | re.M):
        first = body.strip().splitlines()[0]
        blocks.append(Block(page, first, body))
    return blocks


BLOCKS = [block for page in PAGES for block in shell_blocks(page)]


def commands(block_text: str) -> list[list[str]]:
    """The commands of a block: lines joined at a trailing backslash (and, in a synopsis, an
    indented line of options joined to the line before), comments left out, split at
    ``&&``, ``;``, ``&`` and at a pipe into a program; square brackets (a synopsis's
    optional parts) dropped outside quotes. A ``|`` between options is a synopsis's "or",
    not a pipe."""
    lines: list[str] = []
    for raw in block_text.replace("\\\n", " ").splitlines():
        line = shell_line(raw)
        if raw[:1].isspace() and line.lstrip()[:1] == "-" and lines:
            lines[-1] += " " + line
        elif line.strip():
            lines.append(line)
    found: list[list[str]] = []
    for line in lines:
        tokens = shlex.split(line)
        current: list[str] = []
        for i, token in enumerate(tokens):
            following = tokens[i + 1] if i + 1 < len(tokens) else ""
            if token in SEPARATORS or (token == "|" and is_program(following)):
                found.append(current)
                current = []
            elif token != "|":
                current.append(token)
        found.append(current)
    return [c for c in (without_assignments(c) for c in found) if c]


def shell_line(line: str) -> str:
    """``line`` without its comment and a synopsis's brackets, with ``;`` set apart: each
    outside quotes."""
    out, quote = [], ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            break
        elif char in "[]":
            continue
        elif char == ";":
            char = " ; "
        out.append(char)
    return "".join(out)


def without_assignments(command: list[str]) -> list[str]:
    """A command without the ``NAME=value`` words before its program (but ``export``'s kept)."""
    i = 0
    while i < len(command) and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", command[i]):
        i += 1
    return command[i:]


def is_program(word: str) -> bool:
    return (word in {"arena", "python", "python3", "pip"} | SHELL_WORDS | TOOLS_ON_PATH
            or word in OUTSIDE_TOOLS or word.startswith("scripts/"))


# -- checking a command --------------------------------------------------------------------
@cache
def arena_tree() -> Any:
    """The ``arena`` command as click runs it (built once: it does not change)."""
    return command_line()


@cache
def help_exits_0(path: tuple[str, ...]) -> bool:
    return CliRunner().invoke(app, [*path, "--help"]).exit_code == 0


def arena_command(args: list[str]) -> tuple[Any, list[str]]:
    """The (click) command ``arena ARGS`` names, and the words after its name."""
    command = arena_tree()
    rest = list(args)
    while hasattr(command, "commands") and rest and rest[0] in command.commands:
        command = command.commands[rest.pop(0)]
    return command, rest


def option_names(command: Any) -> set[str]:
    names = {"--help"}
    for param in command.params:
        if param.param_type_name == "option":
            names.update(param.opts)
            names.update(param.secondary_opts)
    return names


def check_arena(args: list[str]) -> list[str]:
    command, rest = arena_command(args)
    where = "arena " + " ".join(args[:len(args) - len(rest)])
    if hasattr(command, "commands"):
        return [f"{where}: {rest[0] if rest else '(nothing)'} is not one of its commands"]
    if not help_exits_0(tuple(args[:len(args) - len(rest)])):
        return [f"{where} --help fails"]
    known = option_names(command)
    return [f"{where}: no option {word}" for word in options_in(rest) if word not in known]


def options_in(words: list[str]) -> list[str]:
    """The options among ``words`` (``--name`` or ``-n``; ``--name=value`` as ``--name``)."""
    return [w.split("=", 1)[0] for w in words if re.fullmatch(r"--[a-z][\w-]*(=.*)?|-[a-zA-Z]", w)]


@cache
def help_of_module(module: str) -> str:
    done = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def check_python(args: list[str]) -> list[str]:
    if args[:2] == ["-m", "venv"]:
        return []
    if args[:1] == ["-m"]:
        module = args[1]
        if find_spec(module) is None:
            return [f"python -m {module}: no such module"]
        if module in ("pip",):
            return []
        usage = help_of_module(module)
        return [f"python -m {module}: no option {w}" for w in options_in(args[2:])
                if w not in usage]
    if args[:1] == ["-c"]:
        try:
            compile(args[1], "<python -c>", "exec")
        except SyntaxError as err:
            return [f"python -c: {err}"]
        return []
    script = args[0] if args else ""
    if (ROOT / script).is_file() or script in AUTHORS_FILES:
        return []
    return [f"python {script}: no such file"]


AUTHORS_FILES = {"rival.py", "cautious.py"}
"""Files the pages ask the reader to write."""


def extras() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return set(project.get("optional-dependencies", {}))


def check_pip(args: list[str]) -> list[str]:
    problems = []
    for word in args:
        if match := re.fullmatch(r"\.\[([\w,-]+)\]", word):
            problems += [f"pip install: no extra {extra}" for extra in match.group(1).split(",")
                         if extra not in extras()]
    if args[:1] != ["install"]:
        problems.append(f"pip {' '.join(args)}: not an install")
    return problems


def check(command: list[str]) -> list[str]:
    """What is wrong with ``command`` (nothing: an empty list), without running it."""
    program, args = command[0], command[1:]
    if program == "arena":
        return check_arena(args)
    if program in ("python", "python3"):
        return check_python(args)
    if program == "pip":
        return check_pip(args)
    if program.startswith("scripts/"):
        script = ROOT / program
        if not os.access(script, os.X_OK):
            return [f"{program}: not an executable file"]
        usage = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=30).stdout
        return [f"{program}: no option {w}" for w in options_in(args) if w not in usage]
    if program in TOOLS_ON_PATH:
        missing = [a for a in args if a.startswith("tests/") and not (ROOT / a).exists()]
        return ([f"{program}: not installed"] if shutil.which(program) is None else []) + \
            [f"{program}: no file {a}" for a in missing]
    if program in SHELL_WORDS or program in OUTSIDE_TOOLS:
        return []
    return [f"{program}: a program this test cannot check (add a check, or OUTSIDE_TOOLS)"]


# -- running a block -----------------------------------------------------------------------
@dataclass
class Folder:
    """A page's temporary folder, with the environment its commands run in."""
    path: Path
    env: dict[str, str]


def setup(page: str, folder: Path) -> None:
    """What a page asks the reader to do before its commands: README's "Save it as
    cautious.py" (its first Python block)."""
    if page == "README.md":
        bot = re.findall(r"```python\n(.*?)```", (ROOT / page).read_text(), flags=re.S)[0]
        (folder / "cautious.py").write_text(bot)


def run(command: list[str], folder: Folder, monkeypatch: pytest.MonkeyPatch) -> None:
    program, args = command[0], command[1:]
    if program == "export":
        for word in args:
            name, _, value = word.partition("=")
            folder.env[name] = value
        return
    if program == "arena":
        monkeypatch.chdir(folder.path)
        for name, value in folder.env.items():
            monkeypatch.setenv(name, value)
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, f"{shlex.join(command)}:\n{result.output}{result.exception!r}"
        return
    if program == "python":
        done = subprocess.run([sys.executable, *args], cwd=folder.path, capture_output=True,
                              text=True, timeout=120, env={**os.environ, **folder.env})
        assert done.returncode == 0, f"{shlex.join(command)}:\n{done.stdout}{done.stderr}"
        return
    raise AssertionError(f"{program}: this test runs only arena and python; "
                         "name the block in CHECKED_ONLY with why")


# -- the tests -----------------------------------------------------------------------------
@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: f"{b.page}:{b.first_line[:40]}")
def test_every_command_shown_exists_with_its_options(block: Block) -> None:
    problems = [p for command in commands(block.text) for p in check(command)]
    assert not problems, "\n".join(problems)


def runnable_pages() -> list[str]:
    return sorted({b.page for b in BLOCKS if b.key is None})


@pytest.mark.parametrize("page", runnable_pages())
def test_the_blocks_of_a_page_run_in_a_fresh_folder(page: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    folder = Folder(tmp_path, {"COLUMNS": "200"})
    setup(page, tmp_path)
    for block in (b for b in BLOCKS if b.page == page and b.key is None):
        for command in commands(block.text):
            run(command, folder, monkeypatch)


def test_every_skipped_block_exists_and_says_why() -> None:
    used = {block.key for block in BLOCKS}
    assert set(CHECKED_ONLY) <= used, f"no such blocks: {set(CHECKED_ONLY) - used}"
    assert all(reason.strip() for reason in CHECKED_ONLY.values())


def test_some_blocks_run() -> None:
    assert {"README.md", "docs/operators.md"} <= set(runnable_pages())


# -- the checks catch what they must --------------------------------------------------------
def test_commands_reads_a_block_as_the_shell_would() -> None:
    block = ("X=1 arena bot list   # a comment\n"
             "arena tournament run --game kill \\\n    [--players P] [--pool A | --all-pools]\n"
             "a && b; c | arena games\n")
    assert commands(block) == [
        ["arena", "bot", "list"],
        ["arena", "tournament", "run", "--game", "kill", "--players", "P", "--pool", "A",
         "--all-pools"],
        ["a"], ["b"], ["c"], ["arena", "games"]]


@pytest.mark.parametrize("command, problem", [
    ("arena bot ad x", "arena bot: ad is not one of its commands"),
    ("arena tournament run --game kill --colour red", "no option --colour"),
    ("arena bot", "(nothing) is not one of its commands"),
    ("python -m no_such_module_here", "no such module"),
    ("python -m tests.chaos --no-such-flag", "no option --no-such-flag"),
    ("python -c 'print('", "python -c"),
    ("pip install -e '.[no-such-extra]'", "no extra no-such-extra"),
    ("scripts/install-system-packages --everything", "no option --everything"),
    ("pytest tests/no_such_test.py", "no file tests/no_such_test.py"),
    ("frobnicate --now", "cannot check"),
])
def test_check_finds_what_is_wrong(command: str, problem: str) -> None:
    problems = check(shlex.split(command))
    assert any(problem in p for p in problems), problems


def test_check_passes_what_is_right() -> None:
    for command in ("arena tournament run --game kill --bot a --bot b -n 3",
                    "arena leaderboard --json", "python -m tests.chaos --players 2",
                    "pip install -e '.[dev]'", "scripts/install-system-packages --tests"):
        assert check(shlex.split(command)) == [], command
