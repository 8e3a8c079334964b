"""Bots and authors: registering a bot (managed, remote or submitted), its tokens and code,
removing it; the authors who submit bots and their tokens.

Who may register a version under a name is :mod:`arena.storage.names`'s rule, checked in
the transaction that writes the version. Removing a bot that holds a seat in any match
(played or scheduled) keeps it, with its matches and rating history, but hides it from
:meth:`Bots.list_bots`, :meth:`Bots.get_bot` without a version, and the leaderboard; its
name@version stays taken. A bot with no seat anywhere is deleted outright.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlmodel import Session, col, select

from arena.errors import ErrorKind
from arena.storage.engine import Database
from arena.storage.errors import NotFoundError, StoreError
from arena.storage.names import check_bot_name, check_unambiguous, claim
from arena.storage.records import AuthorInfo, BotInfo, SubmittedCode
from arena.storage.rows import author_info, bot_info
from arena.storage.tables import Author, Bot, BotArchive, Seat, now


class Bots(Database):
    """The store's bots and authors."""

    def add_bot(
        self, name: str, command: str = "", version: str = "1", *, token_hash: str | None = None,
        folder: str | None = None,
    ) -> BotInfo:
        """Register a bot: a managed one (``command``, run in ``folder``) or a remote one
        (``token_hash``). This is the operator's: a name an author owns, or one that reads
        like it (:func:`~arena.storage.names.fold`), is a :class:`NotAllowedError`."""
        check_bot_name(name, "bot name")
        check_bot_name(version, "bot version")
        with self._writing("add a bot") as s:
            claim(s, name, None, adding=True)
            existing = s.exec(select(Bot).where(Bot.name == name, Bot.version == version)).first()
            if existing is not None:
                hint = " (it was removed; register a new version)" if existing.removed else ""
                raise StoreError(f"bot {name}@{version} already exists{hint}", kind=ErrorKind.CONFLICT)
            bot = Bot(
                name=name, version=version, command=command, token_hash=token_hash,
                folder=folder, created_at=now(),
            )
            s.add(bot)
            s.flush()
            return bot_info(bot)

    def submit_bot(self, name: str, label: str | None, command: str, games: Sequence[str],
                   code: SubmittedCode, *, author_id: int | None = None,
                   validated: Sequence[str] | None = None) -> tuple[BotInfo, bool]:
        """Register a submitted version of bot ``name``: its code kept once by its hash, its
        version the label (or the hash's first 12 digits). Returns the version and whether
        it is new: code this bot already has gives back that version and writes nothing. A
        label that names other code of this bot is a :class:`StoreError`.

        Who may submit under ``name`` is :meth:`check_name_free_for`'s rule, checked again
        here in the same transaction as the write; the operator (``author_id`` None) may add
        a version of an author's bot, which stays the author's. ``validated``: the games its
        validation played (None: it had none)."""
        check_bot_name(name, "bot name")
        version = label or code.sha256[:12]
        check_bot_name(version, "bot version")
        with self._writing("submit a bot") as s:
            author_id = claim(s, name, author_id, adding=False)
            same = s.exec(select(Bot).where(Bot.name == name, Bot.content_hash == code.sha256)
                          .order_by(col(Bot.id))).first()
            if same is not None:
                return bot_info(same), False
            taken = s.exec(select(Bot).where(Bot.name == name, Bot.version == version)).first()
            if taken is not None:
                what = f"code {taken.content_hash[:12]}" if taken.content_hash else \
                    "a bot registered with a command"
                raise StoreError(f"{name}@{version} already names {what}; a version's label "
                                 "never moves to other code: give another --label",
                                 kind=ErrorKind.CONFLICT)
            if s.get(BotArchive, code.sha256) is None:
                s.add(BotArchive(sha256=code.sha256, data=code.archive, files=code.files,
                                 size=code.size, created_at=now()))
                s.flush()
            bot = Bot(name=name, version=version, command=command, content_hash=code.sha256,
                      games=list(games), created_at=now(), author_id=author_id,
                      validated=None if validated is None else list(validated))
            s.add(bot)
            s.flush()
            return bot_info(bot), True

    def bot_code(self, sha256: str) -> SubmittedCode:
        """The archive of a submitted version's code."""
        with self._reading("read a bot's code") as s:
            found = s.get(BotArchive, sha256)
            if found is None:
                raise NotFoundError(f"no stored code with hash {sha256}")
            return SubmittedCode(found.sha256, found.data, found.files, found.size)

    def list_bots(self, *, include_removed: bool = False) -> list[BotInfo]:
        with self._reading("list bots") as s:
            query = select(Bot).order_by(col(Bot.name), col(Bot.id))
            if not include_removed:
                query = query.where(col(Bot.removed).is_(False))
            return [bot_info(b) for b in s.exec(query)]

    def get_bot(self, name: str, version: str | None = None) -> BotInfo:
        """A bot by name, and version (``None``: the newest registered, not removed)."""
        with self._reading("read a bot") as s:
            return bot_info(_find_bot(s, name, version))

    def get_bot_by_id(self, bot_id: int) -> BotInfo:
        with self._reading("read a bot") as s:
            bot = s.get(Bot, bot_id)
            if bot is None:
                raise NotFoundError(f"no bot with id {bot_id}")
            return bot_info(bot)

    def get_bot_by_token_hash(self, token_hash: str) -> BotInfo:
        """The remote bot registered with this token hash (not removed)."""
        with self._reading("read a bot") as s:
            bot = s.exec(
                select(Bot).where(Bot.token_hash == token_hash, col(Bot.removed).is_(False))
            ).first()
            if bot is None:
                raise NotFoundError("no bot has this token")
            return bot_info(bot)

    def bot_token_hash(self, bot_id: int) -> str:
        """The stored token hash of a remote bot (what its referee admits it by)."""
        with self._reading("read a bot") as s:
            bot = s.get(Bot, bot_id)
            if bot is None:
                raise NotFoundError(f"no bot with id {bot_id}")
            if bot.token_hash is None:
                raise StoreError(f"bot {bot.name}@{bot.version} is not a remote bot",
                                 kind=ErrorKind.CONFLICT)
            return bot.token_hash

    def set_bot_token_hash(self, name: str, version: str | None, token_hash: str) -> BotInfo:
        """Give a remote bot a new token (by its hash): the old token stops working."""
        with self._writing("change a bot's token") as s:
            bot = _find_bot(s, name, version)
            if bot.removed:
                raise NotFoundError(f"bot {bot.name}@{bot.version} was removed")
            if bot.token_hash is None:
                raise StoreError(f"bot {bot.name}@{bot.version} is managed, not remote: the arena "
                                 "gives it a fresh token each time it starts it",
                                 kind=ErrorKind.CONFLICT)
            bot.token_hash = token_hash
            s.add(bot)
            s.flush()
            return bot_info(bot)

    def remove_bot(self, name: str, version: str | None = None) -> bool:
        """Remove a bot version (``None``: the newest). True if it was deleted outright (no
        seat in any match), False if it was hidden but kept with its matches and history."""
        with self._writing("remove a bot") as s:
            bot = _find_bot(s, name, version)
            played = s.exec(select(Seat.match_id).where(Seat.bot_id == bot.id).limit(1)).first()
            if played is None:
                s.delete(bot)
                return True
            bot.removed = True
            s.add(bot)
            return False

    # -- authors

    def add_author(self, name: str, token_hash: str) -> AuthorInfo:
        """Add an author (the token's SHA-256 is kept, never the token)."""
        check_bot_name(name, "author name")
        with self._writing("add an author") as s:
            if s.exec(select(Author).where(Author.name == name)).first() is not None:
                raise StoreError(f"author {name} already exists (`arena author token {name}` "
                                 "issues a new token)", kind=ErrorKind.CONFLICT)
            author = Author(name=name, token_hash=token_hash, created_at=now())
            s.add(author)
            s.flush()
            return author_info(author, ())

    def list_authors(self) -> list[AuthorInfo]:
        """Every author, by name, with the names of their bots."""
        with self._reading("list authors") as s:
            names: dict[int, list[str]] = {}
            for author_id, bot_name in s.execute(
                    sa.select(col(Bot.author_id), col(Bot.name)).distinct()
                    .where(col(Bot.author_id).is_not(None)).order_by(col(Bot.name))):
                names.setdefault(int(author_id), []).append(str(bot_name))
            return [author_info(a, names.get(a.id or 0, ()))
                    for a in s.exec(select(Author).order_by(col(Author.name)))]

    def set_author_token_hash(self, name: str, token_hash: str) -> AuthorInfo:
        """Give an author a new token (by its hash): the old one stops working at once."""
        with self._writing("change an author's token") as s:
            author = s.exec(select(Author).where(Author.name == name)).first()
            if author is None:
                raise NotFoundError(f"no author {name}")
            author.token_hash = token_hash
            s.add(author)
            s.flush()
            return author_info(author, ())

    def author_by_token_hash(self, token_hash: str) -> AuthorInfo:
        """The author whose token has this SHA-256; a :class:`NotFoundError` if none."""
        with self._reading("read an author") as s:
            author = s.exec(select(Author).where(Author.token_hash == token_hash)).first()
            if author is None:
                raise NotFoundError("no author has this token")
            return author_info(author, ())

    def check_name_free_for(self, name: str, author_id: int) -> None:
        """A :class:`NotAllowedError` unless ``author_id`` may submit versions of ``name``:
        one of that author's names, or a new name that reads like no one else's
        (:func:`~arena.storage.names.fold`) and like no bundled bot's."""
        check_bot_name(name, "bot name")
        with self._reading("read a bot") as s:
            claim(s, name, author_id, adding=False)


def _find_bot(s: Session, name: str, version: str | None) -> Bot:
    """``NAME@VERSION``, or with no version ``NAME``'s newest (not removed) version, when
    that cannot be another owner's than meant (:func:`check_unambiguous`)."""
    query = select(Bot).where(Bot.name == name)
    if version is None:
        check_unambiguous(s, name)
        query = query.where(col(Bot.removed).is_(False)).order_by(col(Bot.id).desc())
    else:
        query = query.where(Bot.version == version)
    bot = s.exec(query).first()
    if bot is None:
        label = name if version is None else f"{name}@{version}"
        raise NotFoundError(f"no bot {label}")
    return bot


__all__ = ["Bots"]
