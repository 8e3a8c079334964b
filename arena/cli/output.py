"""Machine-readable output: ``--json`` on the list and show commands (see docs/json.md).

A command given ``--json`` prints exactly one JSON document on stdout and nothing
else: an object with ``"version": 1`` and its data under a named key, e.g.
``{"version": 1, "bots": [...]}``. It is written straight to stdout, never through
rich: no markup, no colour, no wrapping, nothing cut. Dates are ISO 8601 strings in
UTC; numbers stay numbers. A match's seed (and a tournament's) is never part of any
document: deals are secret.

The helpers here are shared by every command module: :func:`emit_json` and
:data:`JsonOption` for any command, and the converters of the store's values
(:func:`bot_json`, :func:`tournament_json`, :func:`match_json`, ...) so that the same
thing has the same fields wherever it appears. Those converters live in
:mod:`arena.app.documents` (re-exported here), which the web app's API uses too.

Untrusted text is inert. What a bot printed, a fault reason, a tournament's note, a
submitted command, names and labels all come from bots, authors and archives, and reach the
operator's terminal (and other authors', through notes). Before any of it is printed,
:func:`inert` writes every control character but newline and tab as a visible escape
(``\\x1b``), so no escape sequence can set a window title, write to the clipboard (OSC 52),
clear the screen or move the cursor to rewrite earlier lines. It is applied where the
text is printed, by the console itself (:class:`InertConsole`, the CLI's two consoles):
every string printed or put in a table goes through :meth:`InertConsole.render_str`,
which makes it inert and never reads it as rich markup or emoji codes (``[bold]`` prints
as written), and every segment the console writes is made inert once more (a
:class:`~rich.text.Text` built from untrusted text, whatever builds it). JSON needs none
of this: :func:`json_text` escapes every control character (``\\u001b``) and all that is
not ASCII.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from collections.abc import Iterable, Sequence
from datetime import datetime
from enum import Enum
from typing import Annotated, Any

import typer
from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from arena.app.documents import (
    CSV_FIELDS,
    JSON_VERSION,
    bot_json,
    document,
    export_csv,
    game_json,
    iso,
    leaderboard_json,
    match_json,
    seat_json,
    tournament_json,
)
from arena.match.replay import LogLine, describe

JsonOption = Annotated[bool, typer.Option(
    "--json", help="Print one JSON document instead of tables (fields: docs/json.md).")]

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""What a terminal may act on rather than show: the C0 controls but tab and newline, DEL,
the C1 controls (0x80-0x9f, CSI and OSC among them), and the bidirectional overrides and
isolates, which reorder what a line seems to say."""


def _escaped(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inert(text: str) -> str:
    """``text`` with every character a terminal would act on written as a visible escape:
    ESC becomes the four characters ``\\x1b``, a carriage return ``\\x0d``, U+202E
    ``\\u202e``; newline and tab stay. Text without such characters comes back as is."""
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(_escaped, text)


class InertConsole(Console):
    """A rich console that prints untrusted text inertly (see the module's docstring):
    strings are made :func:`inert` before layout and never read as markup or emoji codes;
    every segment it writes but its own cursor and screen controls is made inert again."""

    def render_str(self, text: str, *, style: str | Style = "", justify: Any = None,
                   overflow: Any = None, emoji: bool | None = None, markup: bool | None = None,
                   highlight: bool | None = None, highlighter: Any = None) -> Text:
        return super().render_str(inert(text), style=style, justify=justify,
                                  overflow=overflow, emoji=False, markup=False,
                                  highlight=highlight, highlighter=highlighter)

    def render(self, renderable: RenderableType,
               options: ConsoleOptions | None = None) -> Iterable[Segment]:
        for segment in super().render(renderable, options):
            if segment.control or _UNSAFE.search(segment.text) is None:
                yield segment
            else:
                yield Segment(inert(segment.text), segment.style)


def emit_json(value: Any) -> None:
    """Print ``value`` as one JSON document (indented, keys in the order given) on stdout."""
    sys.stdout.write(json_text(value))
    sys.stdout.flush()


def json_text(value: Any) -> str:
    """``value`` as :func:`emit_json` prints it, final newline included.

    Datetimes become ISO 8601 UTC strings, enums their values, sets sorted lists and
    dataclasses objects; anything else JSON does not know is an error (a bug)."""
    return json.dumps(value, indent=2, sort_keys=False, default=_plain) + "\n"


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    raise TypeError(f"{type(value).__name__} is not JSON: {value!r}")


# ---------------------------------------------------------------- the store's values


def log_json(lines: Sequence[LogLine]) -> list[dict[str, Any]]:
    """A match log's lines: decisions, events and faults, each value in its compact human
    form; a fault also gives its name and reason apart."""
    return [_log_line_json(line) for line in lines]


def _log_line_json(line: LogLine) -> dict[str, Any]:
    if line.kind == "fault":
        return {"kind": "fault", "seat": line.seat, "type": "Fault",
                "value": f"{line.value.fault}: {line.value.reason}", "audience": [line.seat],
                "fallback": False, "fault": line.value.fault, "reason": line.value.reason}
    shown = {"kind": line.kind, "seat": line.seat, "type": type(line.value).__name__,
             "value": describe(line.value),
             "audience": None if line.audience is None else sorted(line.audience),
             "fallback": line.fallback}
    if line.kind == "decision":
        shown["note"], shown["note_cut"] = line.note, line.note_cut
    return shown


__all__ = ["CSV_FIELDS", "JSON_VERSION", "InertConsole", "JsonOption", "bot_json", "document",
           "emit_json", "export_csv", "game_json", "inert", "iso",
           "json_text", "leaderboard_json", "log_json", "match_json", "seat_json", "tournament_json"]
