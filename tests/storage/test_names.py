"""Bot names that cannot be squatted, on a real SQLite file and a real PostgreSQL database:
look-alikes of another owner's name are refused in the transaction that would write them,
the bundled bots' names are the operator's alone, the operator's ``bot add`` cannot become a
version of an author's bot, and a name without a version never silently picks another
owner's version."""

from __future__ import annotations

import string
from collections.abc import Callable

import pytest
import sqlalchemy as sa

from arena.cli.demo import bundled_bots
from arena.storage.names import bundled_names, fold, fold_sql, reserved
from arena.storage.store import NotAllowedError, NotFoundError, Store, StoreError, SubmittedCode
from tests.conftest import new_postgres_database

LOOK_ALIKES = ("Hill-bot", "hiII-bot", "hill_bot", "hill-bot.", "HILL-BOT", "hi11-b0t",
               ".hill.bot", "hillbot", "-Hill__Bot-")
"""Each reads like ``hill-bot``: case, separators anywhere, I/l/1 and O/0."""


def _code(n: int) -> SubmittedCode:
    return SubmittedCode(f"{n:064x}", f"archive {n}".encode(), 1, 9)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    if request.param == "sqlite":
        return str(tmp_path_factory.mktemp("db") / "arena.db")
    server: str = request.getfixturevalue("postgres_server")
    return new_postgres_database(server)


def _names(store: Store) -> list[tuple[str, str, int | None]]:
    return sorted((b.name, b.version, b.author_id) for b in store.list_bots(include_removed=True))


def test_the_fold_makes_look_alikes_one_name_and_keeps_others_apart() -> None:
    assert {fold(name) for name in (*LOOK_ALIKES, "hill-bot")} == {fold("hill-bot")}
    assert len({fold(n) for n in ("hill-bot", "hall-bot", "hill-bat", "hill-bots", "ill-bot",
                                  "h-bot", "hill2-bot")}) == 7
    assert fold("O0o") == fold("ooo") and fold("Il1i") == fold("llll")
    assert fold("---") == fold("._.") == ""
    assert {reserved(n) for n in ("random", "Rand0m", "RANDOM_", "kiII-bot", "Kill_Bot.")} == \
        {"random", "kill-bot"}
    assert reserved("randomer") is None and reserved("kill-bots") is None


def test_the_bundled_bots_names_are_the_reserved_ones() -> None:
    assert {name for name, _, _ in bundled_bots()} <= set(bundled_names())
    assert "random" in bundled_names() and "kill-bot" in bundled_names()


def test_the_fold_in_sql_is_the_fold(url: str) -> None:
    """Every character a name may hold, in every position, folds alike in Python and in the
    database (SQLite and PostgreSQL)."""
    alphabet = string.ascii_letters + string.digits + "._-"
    samples = [alphabet, alphabet[::-1], *LOOK_ALIKES, "-.-", "A", "i1lI", "O0oo"]
    engine = sa.create_engine(url if "://" in url else f"sqlite:///{url}")
    try:
        with engine.connect() as connection:
            for sample in samples:
                got = connection.execute(sa.select(fold_sql(sa.literal(sample)))).scalar()
                assert got == fold(sample), sample
    finally:
        engine.dispose()


def test_an_author_cannot_take_a_look_alike_of_another_owners_name(url: str) -> None:
    with Store(url) as store:
        ann = store.add_author("ann", "1" * 64)
        eve = store.add_author("eve", "2" * 64)
        store.submit_bot("hill-bot", "v1", "python bot.py", ["kill"], _code(1), author_id=ann.id)
        store.add_bot("cautious", "python -m bots.random_bot")  # the operator's
        before = _names(store)
        for n, name in enumerate(LOOK_ALIKES, 10):
            with pytest.raises(NotAllowedError) as refused:
                store.check_name_free_for(name, eve.id)
            assert str(refused.value) == (f"the bot name {name} reads like hill-bot, which "
                                          "belongs to author ann: submit under another name")
            with pytest.raises(NotAllowedError, match="reads like hill-bot"):
                store.submit_bot(name, None, "python bot.py", ["kill"], _code(n),
                                 author_id=eve.id)
        for name in ("Cautious", "cauti0us", "cautious_"):
            with pytest.raises(NotAllowedError, match="reads like cautious, which is the "
                                                      "operator's: submit under another name"):
                store.submit_bot(name, None, "python bot.py", ["kill"], _code(30),
                                 author_id=eve.id)
        assert _names(store) == before  # nothing written
        # the owner's own look-alikes are hers to take; a different name is anyone's
        mine, new = store.submit_bot("Hill_Bot", "v1", "python bot.py", ["kill"], _code(40),
                                     author_id=ann.id)
        assert new and mine.author_id == ann.id
        theirs, _ = store.submit_bot("hall-bot", "v1", "python bot.py", ["kill"], _code(41),
                                     author_id=eve.id)
        assert theirs.author_id == eve.id


def test_the_bundled_names_are_never_an_authors(url: str) -> None:
    with Store(url) as store:
        eve = store.add_author("eve", "2" * 64)
        for n, name in enumerate((*bundled_names(), "Rand0m", "random.", "KIlI_b0t",
                                  "kings_c0rner-bot"), 1):
            with pytest.raises(NotAllowedError, match=f"the bot name {name} is kept for the "
                                                      "bundled bots"):
                store.submit_bot(name, None, "python bot.py", ["kill"], _code(n),
                                 author_id=eve.id)
        assert _names(store) == []
        for name in bundled_names():  # the operator registers them freely
            store.add_bot(name, "python -m bots.random_bot")
        assert store.get_bot("random").author_id is None


def test_the_operators_bot_add_cannot_become_a_version_of_an_authors_bot(url: str) -> None:
    with Store(url) as store:
        ann = store.add_author("ann", "1" * 64)
        store.submit_bot("hill-bot", "v1", "python bot.py", ["kill"], _code(1), author_id=ann.id)
        before = _names(store)
        with pytest.raises(NotAllowedError) as refused:
            store.add_bot("hill-bot", "python -m bots.random_bot")
        assert str(refused.value) == ("the bot name hill-bot belongs to author ann: register "
                                      "the operator's bot under another name")
        for name in LOOK_ALIKES:
            with pytest.raises(NotAllowedError, match="reads like hill-bot, which belongs to "
                                                      "author ann: register the operator's"):
                store.add_bot(name, "python -m bots.random_bot", version="9")
        with pytest.raises(NotAllowedError, match="belongs to author ann"):
            store.add_bot("hill-bot", token_hash="3" * 64)  # a remote one neither
        assert _names(store) == before
        # the operator's own names take versions and look-alikes of its own
        store.add_bot("mine", "python -m bots.random_bot")
        store.add_bot("mine", "python -m bots.random_bot", version="2")
        store.add_bot("MINE", "python -m bots.random_bot")
        with pytest.raises(StoreError, match="needs a letter or a digit"):
            store.add_bot("-._", "python -m bots.random_bot")


def _legacy_version(url: str, name: str, version: str, author_id: int | None) -> None:
    """A version written as a database from before names were owned could hold it."""
    engine = sa.create_engine(url if "://" in url else f"sqlite:///{url}")
    try:
        with engine.begin() as connection:
            connection.execute(sa.text(
                "insert into bot (name, version, command, removed, created_at, author_id) "
                "values (:name, :version, 'python bot.py', false, CURRENT_TIMESTAMP, :author)"),
                {"name": name, "version": version, "author": author_id})
    finally:
        engine.dispose()


def test_a_name_alone_never_picks_another_owners_version(url: str) -> None:
    with Store(url) as store:
        ann = store.add_author("ann", "1" * 64)
        store.submit_bot("hill-bot", "v1", "python bot.py", ["kill"], _code(1), author_id=ann.id)
        store.add_bot("mine", "python -m bots.random_bot")
        assert store.get_bot("hill-bot").version == "v1"  # one owner: the name is enough
        assert store.get_bot("mine").author_id is None
    # the operator's version of ann's bot, a look-alike of the operator's, and ann's random,
    # as an older arena let them be written
    _legacy_version(url, "hill-bot", "op", None)
    _legacy_version(url, "M1NE", "1", ann.id)
    _legacy_version(url, "random", "anns", ann.id)
    with Store(url) as store:
        refusals: dict[str, Callable[[], object]] = {
            "hill-bot": lambda: store.get_bot("hill-bot"),
            "mine": lambda: store.get_bot("mine"),
            "M1NE": lambda: store.remove_bot("M1NE"),
        }
        for name, call in refusals.items():
            with pytest.raises(NotAllowedError) as refused:
                call()
            message = str(refused.value)
            assert message.startswith(f"bot {name} is ambiguous: versions of ") and \
                message.endswith("say which with NAME@VERSION (`arena bot list` lists them)")
            assert "\n" not in message
        with pytest.raises(NotAllowedError, match="versions of hill-bot \\(the operator's\\), "
                                                  "hill-bot \\(author ann's\\);"):
            store.get_bot("hill-bot")
        with pytest.raises(NotAllowedError, match="bot random is author ann's, not a bundled "
                                                  "bot: say which version with NAME@VERSION"):
            store.get_bot("random")
        # NAME@VERSION always says which
        assert store.get_bot("hill-bot", "op").author_id is None
        assert store.get_bot("hill-bot", "v1").author_id == ann.id
        assert store.get_bot("random", "anns").author_id == ann.id
        assert store.get_bot("M1NE", "1").author_id == ann.id
        with pytest.raises(NotFoundError, match="no bot nobody"):
            store.get_bot("nobody")
