"""A submission's tree as it would lie on disk: nothing beneath a file or a link, and every
link leading, as the kernel would follow it, to a file or folder of the submission without
leaving the bot's folder (see :mod:`arena.players.submissions`)."""

from __future__ import annotations

from collections.abc import Sequence

from arena.players.archives import Entry, Kind, SubmissionError

MAX_LINK_HOPS = 40
"""Links followed in resolving one path, as Linux allows: more is a loop."""
MAX_LINK_TARGET = 4095
"""The longest target a link may have (Linux's PATH_MAX, less its NUL)."""


def check_tree(entries: Sequence[Entry]) -> None:
    """Nothing lies beneath a file or a link, and every link leads, as the kernel would
    follow it, to a file or folder of the submission without leaving the bot's folder."""
    tree = _Tree(entries)
    for entry in entries:
        if entry.kind == "symlink":
            tree.check_link(entry)


class _Tree:
    """A submission's entries as the folder they make on disk: each path's kind, folders
    that only its entries' paths imply included."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self.kinds: dict[str, Kind] = {e.path: e.kind for e in entries}
        self.links = {e.path: e.target for e in entries if e.kind == "symlink"}
        for entry in entries:
            parts = entry.path.split("/")
            for depth in range(1, len(parts)):
                parent = "/".join(parts[:depth])
                kind = self.kinds.setdefault(parent, "dir")
                if kind != "dir":
                    raise SubmissionError(f"{entry.path!r} lies beneath {parent!r}, which is a "
                                          f"{'link' if kind == 'symlink' else 'file'}, not a "
                                          "folder")

    def check_link(self, entry: Entry) -> None:
        target = entry.target
        outside = SubmissionError(f"{entry.path!r} is a link to {target!r}, outside the "
                                  "submission")
        if (not target or target.startswith("/") or "\x00" in target or "\\" in target
                or len(target) > MAX_LINK_TARGET):
            raise outside
        parent = entry.path.split("/")[:-1]
        try:
            landed = self._resolve(parent, target, [0])
        except _Loop:
            raise SubmissionError(f"{entry.path!r} is a link to {target!r}: a loop, or a chain "
                                  f"of more than {MAX_LINK_HOPS} links") from None
        except _Outside:
            raise outside from None
        if not landed:  # the bot's folder itself
            raise outside

    def _resolve(self, folder: list[str], target: str, hops: list[int]) -> list[str]:
        """The path ``target`` leads to from ``folder``, step by step as the kernel takes
        it: ``..`` goes up from where a link really led, not from the link's name."""
        where = list(folder)
        steps = target.split("/")
        on_file = False
        for step in steps:
            if on_file:
                raise _Outside  # a step beyond a file (even "." or "/"): no such folder
            if step in ("", "."):
                continue
            if step == "..":
                if not where:
                    raise _Outside
                where.pop()
                continue
            path = "/".join([*where, step])
            kind = self.kinds.get(path)
            if kind is None:
                raise _Outside  # no such entry
            if kind == "symlink":
                hops[0] += 1
                if hops[0] > MAX_LINK_HOPS:
                    raise _Loop
                where = self._resolve(where, self.links[path], hops)
                on_file = self.kinds.get("/".join(where)) == "file"
            else:
                where.append(step)
                on_file = kind == "file"
        return where


class _Outside(Exception):
    """A link's path climbs above the bot's folder, or names nothing of the submission."""


class _Loop(Exception):
    """A link's path follows more links than the kernel would."""


__all__ = ["MAX_LINK_HOPS", "MAX_LINK_TARGET", "check_tree"]
