"""The documentation stands alone: a page per game in step with its proto, protos that
name their page, no path into a `rules/` folder the repository does not have, no broken
relative link in the Markdown pages and no link to a heading a page does not have. (The
commands the pages show are run or checked in ``test_commands.py``.)"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from arena.games import Game, all_games, module_name

ROOT = Path(__file__).resolve().parents[2]
PROTOS = ROOT / "protos" / "arena" / "v1"
GAME_PAGES = ROOT / "docs" / "games"
GAMES = sorted(all_games().values(), key=lambda game: game.name)
STEMS = [module_name(game) for game in GAMES]


# -- helpers (each has a test of its own below: the checks must be able to fail) ------------
def message_names(proto_text: str) -> list[str]:
    """The names of the messages a .proto file defines (comments left out)."""
    code = re.sub(r"//[^\n]*", "", proto_text)
    return re.findall(r"\bmessage\s+(\w+)", code)


def mentions(page_text: str, name: str) -> bool:
    """Whether the page names ``name`` in code: a code span that starts with it (`Name`,
    `Name(...)`, `Name{...}`)."""
    return re.search(r"`" + re.escape(name) + r"(?!\w)", page_text) is not None


def _inside(path: Path) -> bool:
    resolved = path.resolve()
    return resolved == ROOT or ROOT in resolved.parents


def missing_rules_paths(text: str, base: Path = ROOT) -> list[str]:
    """The paths through a `rules/` folder that ``text`` mentions and that do not exist in
    the repository (relative to ``base`` or to the repository's root; a path that leaves
    the repository does not exist in it)."""
    missing = []
    for match in re.finditer(r"(?<![\w.~/-])((?:[\w.~-]+/)*rules)/", text):
        folder = match.group(1)
        found = any((root / folder).is_dir() and _inside(root / folder) for root in (base, ROOT))
        if not found:
            missing.append(folder + "/")
    return missing


_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_INLINE_LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.M)


def link_targets(markdown: str) -> list[str]:
    """Every link target of a Markdown text (inline and reference definitions), code left out."""
    prose = _CODE_SPAN.sub("", _FENCE.sub("", markdown))
    return _INLINE_LINK.findall(prose) + _REFERENCE.findall(prose)


def broken_links(markdown: str, folder: Path) -> list[str]:
    """The relative links of a Markdown text read in ``folder`` that lead nowhere in the
    repository (a path that leaves it leads nowhere)."""
    broken = []
    for target in link_targets(markdown):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
            continue  # a URL (https:, mailto:) or an anchor on the same page
        path = target.split("#", 1)[0].split("?", 1)[0]
        resolved = ROOT / path.lstrip("/") if path.startswith("/") else folder / path
        if not (resolved.exists() and _inside(resolved)):
            broken.append(target)
    return broken


_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def anchors(markdown: str) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them: lower case, punctuation
    (backticks, dots, colons, ...) dropped, spaces as hyphens, a repeat suffixed -1, -2."""
    found: set[str] = set()
    for heading in _HEADING.findall(_FENCE.sub("", markdown)):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        anchor, n = slug, 0
        while anchor in found:
            n += 1
            anchor = f"{slug}-{n}"
        found.add(anchor)
    return found


def broken_anchors(markdown: str, page: Path) -> list[str]:
    """The links of a page (read at ``page``) to a heading that its Markdown target, or the
    page itself, does not have."""
    broken = []
    for target in link_targets(markdown):
        if "#" not in target or re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            continue
        path, anchor = target.split("#", 1)
        file = page if not path else page.parent / path
        if file.suffix == ".md" and file.is_file() and anchor not in anchors(file.read_text()):
            broken.append(target)
    return broken


def repository_files() -> list[Path]:
    """The repository's files: tracked by git, or new and not ignored."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git work tree")
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                         cwd=ROOT, capture_output=True, check=True).stdout
    return sorted({ROOT / name for name in out.decode().split("\0") if name})


def markdown_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
            *sorted((ROOT / "sdk" / "docs").rglob("*.md"))]


# -- the checks -------------------------------------------------------------------------------
@pytest.mark.parametrize("stem", STEMS)
def test_every_game_has_a_page(stem: str) -> None:
    assert (GAME_PAGES / f"{stem}.md").is_file(), f"no docs/games/{stem}.md"


def test_every_page_is_a_game() -> None:
    pages = sorted(page.stem for page in GAME_PAGES.glob("*.md"))
    assert pages == sorted(STEMS), "docs/games/ holds a page for every game and nothing else"


@pytest.mark.parametrize("game", GAMES, ids=STEMS)
def test_each_game_page_names_every_message_of_its_proto(game: Game[Any, Any, Any]) -> None:
    stem = module_name(game)
    names = message_names((PROTOS / f"{stem}.proto").read_text(encoding="utf-8"))
    assert {"Observation", "Action", "Event"} <= set(names)
    page = (GAME_PAGES / f"{stem}.md").read_text(encoding="utf-8")
    missing = [name for name in names if not mentions(page, name)]
    assert not missing, f"docs/games/{stem}.md does not name {missing}"


@pytest.mark.parametrize("game", GAMES, ids=STEMS)
def test_each_game_page_names_the_game_and_every_option(game: Game[Any, Any, Any]) -> None:
    stem = module_name(game)
    page = (GAME_PAGES / f"{stem}.md").read_text(encoding="utf-8")
    names = [game.name] + [option.name for option in game.options]
    missing = [name for name in names if f"`{name}`" not in page]
    assert not missing, f"docs/games/{stem}.md does not name {missing}"


@pytest.mark.parametrize("proto", sorted(PROTOS.glob("*.proto")), ids=lambda p: p.name)
def test_every_proto_names_an_existing_file_on_its_first_line(proto: Path) -> None:
    first = proto.read_text(encoding="utf-8").splitlines()[0]
    named = re.findall(r"[\w.-]+(?:/[\w.-]+)+\.\w+", first)
    assert named, f"the first line of {proto.name} names no file: {first!r}"
    for name in named:
        assert (ROOT / name).is_file(), f"{proto.name} names {name}, which does not exist"
    if proto.stem in STEMS:
        assert f"docs/games/{proto.stem}.md" in named, f"{proto.name} does not name its game page"


def test_no_file_outside_the_tests_points_into_a_missing_rules_folder() -> None:
    offenders = []
    for path in repository_files():
        relative = path.relative_to(ROOT)
        if relative.parts[0] == "tests" or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # not text
        offenders += [f"{relative}: {folder}" for folder in missing_rules_paths(text, path.parent)]
    assert not offenders, "paths into a rules/ folder the repository does not have:\n" + \
        "\n".join(offenders)


@pytest.mark.parametrize("page", markdown_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = broken_links(page.read_text(encoding="utf-8"), page.parent)
    assert not broken, f"{page.relative_to(ROOT)}: broken links {broken}"


@pytest.mark.parametrize("page", markdown_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_to_a_heading_finds_it(page: Path) -> None:
    broken = broken_anchors(page.read_text(encoding="utf-8"), page)
    assert not broken, f"{page.relative_to(ROOT)}: links to headings that are not there {broken}"


# -- the helpers catch what they must ----------------------------------------------------------
def test_message_names_reads_definitions_not_comments() -> None:
    text = "// a message Ghost in a comment\nmessage Draw {}\nmessage  Kill {\n  uint32 target = 1;\n}\n"
    assert message_names(text) == ["Draw", "Kill"]


def test_mentions_wants_the_name_in_code() -> None:
    assert mentions("play `Draw` now", "Draw")
    assert mentions("`Kill(target)`", "Kill")
    assert not mentions("play Draw now", "Draw")
    assert not mentions("`Drawn`", "Draw")


def test_missing_rules_paths_flags_folders_that_are_not_in_the_repository() -> None:
    assert missing_rules_paths("see rules/kill.md") == ["rules/"]
    assert missing_rules_paths("(../shared/rules/kill.md)") == ["../shared/rules/"]
    assert missing_rules_paths("docs/games/kill.md, the rules of the game") == []
    assert missing_rules_paths("protos/arena/v1/kill.proto") == []


def test_broken_links_finds_links_to_nowhere() -> None:
    text = ("[ok](../protocol.md) [folder](../../sdk/docs/) [anchor](#cards) "
            "[web](https://example.org/x.md) [mail](mailto:a@example.org)\n"
            "[gone](../nowhere.md) [outside](../../../x.md) [titled](<../void.md> \"t\")\n"
            "`[code](nowhere.md)`\n```\n[fenced](nowhere.md)\n```\n[ref]: ../missing.md\n")
    assert sorted(link_targets(text)) == sorted([
        "../protocol.md", "../../sdk/docs/", "#cards", "https://example.org/x.md",
        "mailto:a@example.org", "../nowhere.md", "../../../x.md", "../void.md", "../missing.md"])
    assert sorted(broken_links(text, ROOT / "docs" / "games")) == [
        "../../../x.md", "../missing.md", "../nowhere.md", "../void.md"]


def test_broken_anchors_finds_headings_that_are_not_there(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## The `arena games --json` command\n")
    page = tmp_path / "page.md"
    text = ("# A page\n\n## Time: controls & faults\n\n## Twice\n\n## Twice\n\n"
            "[a](#time-controls--faults) [b](#twice-1) [c](other.md#the-arena-games---json-command) "
            "[d](other.md) [e](https://example.org/#x)\n"
            "[f](#missing) [g](other.md#gone) [h](#twice-2)\n")
    page.write_text(text)
    assert broken_anchors(text, page) == ["#missing", "other.md#gone", "#twice-2"]
