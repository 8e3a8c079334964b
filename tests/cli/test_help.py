"""Every ``--help`` says what its author wrote: no sentence broken where the docstring's
source broke its line, and no bracketed word (``kill[target_score=11]``,
``card-arena[ray]``) eaten as rich markup. Checked on every command of the tree, in process
(the same click command ``arena`` runs), at 80 and 100 columns and on a very wide terminal."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
import typer

import arena.cli  # noqa: F401  (registers every command)
from arena.cli.app import app, command_line, reflowed

BRACKETED = re.compile(r"[\w.'-]*\\?\[[^\]\s]*\]")
"""A word with a bracketed part, as an author writes it in help (``\\[`` escaped or not)."""
BOX = re.compile(r"[│╭╮╰╯─]")


def _walk(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, command
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from _walk(sub, (*path, name))


def _texts(command: Any) -> list[str]:
    """Every help text of a command as written: its own, and each option's."""
    texts = [command.help or ""]
    texts += [getattr(p, "help", None) or "" for p in command.params]
    return [t for t in texts if t]


def _help(path: tuple[str, ...], columns: int, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = command_line().main(args=[*path, "--help"], prog_name="arena",  # type: ignore[attr-defined]
                                   standalone_mode=False)
    assert code in (None, 0), path
    return out.getvalue()


WRITTEN = list(_walk(typer.main.get_command(app)))  # the help as authored, untouched


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", BOX.sub("", text))


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_the_tree_has_every_command() -> None:
    paths = {" ".join(p) for p, _ in WRITTEN}
    assert {"tournament run", "leaderboard", "bot list", "match play", "ladder start"} <= paths


@pytest.mark.parametrize("columns", [80, 100])
def test_every_bracketed_word_survives_in_help(columns: int,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    seen = 0
    for path, command in WRITTEN:
        words = {w.replace("\\[", "[") for t in _texts(command) for w in BRACKETED.findall(t)}
        if not words:
            continue
        shown = _flat(_help(path, columns, monkeypatch))
        for word in words:
            seen += 1
            assert _flat(word) in shown, (path, word)
    assert seen >= 2  # 'kill[target_score=11]' and 'card-arena[ray]' at least


def test_no_sentence_breaks_where_the_source_broke_its_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal wide enough for any paragraph, every paragraph of every help (a
    command's own, and its line in its group's list) is on one line: a line break inside one
    would be the source's, which a narrower terminal would show mid-sentence too."""
    checked = 0
    for path, command in WRITTEN:
        lines = {_one_line(BOX.sub(" ", line)) for line in
                 _help(path, 1000, monkeypatch).splitlines()}
        shown = "\n".join(lines)
        texts = [command.help or ""] + [sub.help or "" for sub in
                                         getattr(command, "commands", {}).values()]
        for text in texts:
            for paragraph in reflowed(text).split("\n\n")[:1 if text is not texts[0] else None]:
                if "\n" in paragraph:  # a list, kept as written
                    continue
                wanted = _one_line(paragraph.replace("\\[", "["))
                assert any(wanted in line for line in lines), (path, wanted, shown)
                checked += 1
    assert checked > 30
