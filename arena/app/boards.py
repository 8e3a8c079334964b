"""Leaderboards and what they compare: the read use cases over ratings, one home each.

- :func:`leaderboard`: every pool's rows, or a game's, or one pool's (``arena leaderboard``);
- :func:`pool_board`: a game's board in one rating pool, the pool chosen as the web's
  leaderboard page chooses it; :func:`trends`: the last rating points of some of its rows;
- :func:`game_leaders`: each game's leader (the home page);
- :func:`tournament_leaderboard` and :func:`tournament_board`: a tournament's standings as
  leaderboard rows;
- :func:`compare`: which of two bots is better, from the matches they shared (``arena compare``);
- :func:`head_to_head`: a bot against each opponent, per game;
- :func:`bot_list`: the bots by name, a page at a time;
- :func:`resolve_bot` and :func:`bot_page`: a bot version as its public page shows it, with
  :func:`conditions`, its figures by seat, by first to act and by its game's own conditions.

Every function takes the :class:`~arena.storage.store.Store` and returns plain records (the
store's frozen values, or the small dataclasses here); the views format them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arena.app.matches import FaultPage, MatchPage, bot_faults, bot_matches
from arena.app.reports import played
from arena.errors import ArenaError, ErrorKind
from arena.games import base_game, get_game, pool_of
from arena.match.faults import Fault
from arena.rating.conditions import PlaceFigure, PointsFigure, places, points
from arena.rating.standings import paired_ranks
from arena.rating.stats import Comparison
from arena.rating.stats import compare as compare_pairs
from arena.rating.stats import tally as tally_of
from arena.storage.store import (
    BOT_NAME,
    BotInfo,
    HeadToHead,
    HistoryPoint,
    HistorySample,
    LeaderboardRow,
    NotFoundError,
    Store,
    TournamentInfo,
)
from arena.tournament.setup import name_version

# ---------------------------------------------------------------- leaderboards


def leaderboard(store: Store, game: str | None = None, *, pool: str | None = None,
                all_pools: bool = False) -> list[LeaderboardRow]:
    """Rated bots, best conservative estimate first: of ``game`` (a name the registry knows;
    None: every game), of one ``pool``, and of the standard pools only (a game's standard
    rules) unless ``pool`` or ``all_pools`` says otherwise."""
    name = get_game(game).name if game else None
    rows = store.leaderboard(name, pool=pool)
    if pool is None and not all_pools:
        rows = [row for row in rows if row.pool == row.game]
    return rows


@dataclass(frozen=True)
class PoolBoard:
    """A game's board in one rating pool: ``rows`` best first (every row: a view pages them),
    ``pools`` every pool of the game with a rating in it, and its standard one."""

    game: str
    pool: str
    pools: tuple[str, ...]
    rows: tuple[LeaderboardRow, ...]


def pool_board(store: Store, game: str, pool: str | None = None) -> PoolBoard:
    """``game``'s board in ``pool`` (None: its standard rules, or, when nothing is rated
    there, its first rated pool). An unknown game: :class:`~arena.games.OptionError`; a
    pool that is not the game's or has no rating: :class:`NotFoundError`."""
    name = get_game(game).name
    pools = store.pools(name)
    chosen = pool or (name if name in pools or not pools else pools[0])
    if chosen != name and not chosen.startswith(f"{name}["):
        raise NotFoundError(f"{chosen!r} is no rating pool of {name} (its pools: "
                            f"{', '.join(pools) or name})")
    if chosen not in pools and chosen != name:
        raise NotFoundError(f"no rating pool {chosen!r} (pools of {name}: {', '.join(pools)})")
    return PoolBoard(name, chosen, tuple(sorted(set(pools) | {name})),
                     tuple(store.leaderboard(pool=chosen)))


def trends(store: Store, bot_ids: Sequence[int], pool: str,
           points: int) -> dict[int, list[HistoryPoint]]:
    """The last ``points`` rating points of each of these bots in ``pool``, oldest first."""
    return store.rating_trends(bot_ids, pool, points)


def game_leaders(store: Store) -> dict[str, LeaderboardRow]:
    """Each rated game's leader: of its standard pool, else of its first rated pool."""
    leaders: dict[str, LeaderboardRow] = {}
    for row in store.leaderboard():
        game = base_game(row.pool)
        if game not in leaders or (row.pool == game != leaders[game].pool):
            leaders[game] = row
    return leaders


def tournament_leaderboard(store: Store, tournament: TournamentInfo) -> list[LeaderboardRow]:
    """The tournament's standings as leaderboard rows (its matches rated alone): every bot
    that played in it, a ladder's too (its field grows as it plays)."""
    rows = store.tournament_standings(tournament.id)[0]
    bots = {bot.id: bot for bot in store.bots_by_id(row.bot_id for row in rows)}
    pool = pool_of(tournament.game, tournament.options)
    return [LeaderboardRow(game=tournament.game, bot_id=row.bot_id, name=bots[row.bot_id].name,
                           version=bots[row.bot_id].version, mu=row.mu, sigma=row.sigma,
                           conservative=row.rating, matches=row.matches, wins=row.wins,
                           faults=sum(row.faults.values()), pool=pool)
            for row in rows if row.bot_id in bots]


def tournament_board(store: Store, tournament_id: int,
                     game: str | None = None) -> list[LeaderboardRow]:
    """:func:`tournament_leaderboard` of tournament ``tournament_id`` (``arena leaderboard
    --tournament``); ``game``: the game the asker expects it to be (else
    :class:`NotFoundError`, as for an unknown tournament)."""
    tournament = store.get_tournament(tournament_id)
    if game is not None and get_game(game).name != tournament.game:
        raise NotFoundError(f"tournament {tournament.id} is a {tournament.game} tournament, "
                            f"not {get_game(game).name}")
    return tournament_leaderboard(store, tournament)


# ---------------------------------------------------------------- comparing bots


class SameBot(ArenaError, ValueError):
    """:func:`compare` was asked to compare a bot version with itself."""

    kind = ErrorKind.BAD_REQUEST


@dataclass(frozen=True)
class BotComparison:
    """Bot ``a`` against bot ``b`` in ``game``: ``result`` over the finished matches both
    took a seat in; ``rating_a``/``rating_b`` their conservative ratings in the game's
    standard pool (None: not rated there)."""

    game: str
    a: BotInfo
    b: BotInfo
    result: Comparison
    rating_a: float | None
    rating_b: float | None

    @property
    def rating_difference(self) -> float | None:
        if self.rating_a is None or self.rating_b is None:
            return None
        return self.rating_a - self.rating_b


def compare(store: Store, game: str, first: str, second: str) -> BotComparison:
    """Is ``first`` better than ``second`` (each ``NAME`` or ``NAME@VERSION``) at ``game``?
    The share of their shared finished matches in which A placed above B (ties half), its
    interval and likelihood of superiority, and their ratings. :class:`SameBot` when both
    name one version; an unknown bot or game: the store's or the registry's error."""
    name = get_game(game).name
    a, b = (store.get_bot(*name_version(label)) for label in (first, second))
    if a.id == b.id:
        raise SameBot(f"compare two different bots, not {a.label} with itself")
    shared = played(store.shared_matches([a.id, b.id], name))
    result = compare_pairs(paired_ranks(shared, a.id, b.id))
    ratings = {row.bot_id: row.conservative
               for row in store.leaderboard(pool=name, include_removed=True)}
    return BotComparison(name, a, b, result, ratings.get(a.id), ratings.get(b.id))


@dataclass(frozen=True)
class HeadToHeadRow:
    """A bot against one ``opponent`` (name@version) over the rated matches of ``game`` (all
    its pools) in which both took a seat; ``mean_rank``: the bot's (None: no match)."""

    game: str
    bot: str
    opponent: str
    tally: Comparison
    mean_rank: float | None


def head_to_head_by_game(rows: Sequence[HeadToHead]) -> list[HeadToHead]:
    """A bot's head-to-head rows (:meth:`Store.head_to_head`, per pool) added up per game: the
    pools of a game (its variants) add up. By game, then opponent id."""
    totals: dict[tuple[str, int], HeadToHead] = {}
    for row in rows:
        key = (base_game(row.pool), row.opponent_id)
        old = totals.get(key)
        totals[key] = HeadToHead(key[0], row.opponent_id, row.wins, row.losses, row.ties,
                                 row.rank_sum) if old is None else HeadToHead(
            key[0], row.opponent_id, old.wins + row.wins, old.losses + row.losses,
            old.ties + row.ties, old.rank_sum + row.rank_sum)
    return [totals[key] for key in sorted(totals)]


def head_to_head(store: Store, bot: BotInfo) -> list[HeadToHeadRow]:
    """``bot`` against every bot it shared a rated match with, per game; by game, then
    opponent."""
    tallies = head_to_head_by_game(store.head_to_head(bot.id))
    labels = {b.id: b.label for b in store.bots_by_id({t.opponent_id for t in tallies})}
    ordered = sorted(tallies, key=lambda h: (h.pool, labels.get(h.opponent_id, ""),
                                             h.opponent_id))
    return [HeadToHeadRow(row.pool, bot.label, labels.get(row.opponent_id, f"#{row.opponent_id}"),
                          tally_of(row.wins, row.losses, row.ties),
                          row.rank_sum / row.n if row.n else None) for row in ordered]


# ---------------------------------------------------------------- a bot's page


def resolve_bot(store: Store, label: str) -> tuple[BotInfo, list[BotInfo]]:
    """The bot version ``label`` names (``name``: its newest version not removed, else its
    newest; ``name@version``), and every version of it; else :class:`NotFoundError`."""
    name, _, version = label.partition("@")
    if BOT_NAME.fullmatch(name) is None or (version and BOT_NAME.fullmatch(version) is None):
        raise NotFoundError(f"no bot {label}")
    versions = store.bot_versions(name)
    if version:
        chosen = next((b for b in versions if b.version == version), None)
        if chosen is None:
            raise NotFoundError(f"no bot {label} (versions of {name}: "
                                f"{', '.join(b.version for b in versions)})")
        return chosen, versions
    active = [b for b in versions if not b.removed]
    return (active or versions)[-1], versions


def authors_of(store: Store, bots: Sequence[BotInfo]) -> dict[int, str]:
    """The names of the authors of these bots, by author id (none asked when no bot has one)."""
    if not any(b.author_id is not None for b in bots):
        return {}
    return {a.id: a.name for a in store.list_authors()}


@dataclass(frozen=True)
class BotList:
    """A page of bot names with every version of each (removed ones too), their ``authors``
    (names by id) and how many names there are in all (``total_names``)."""

    bots: tuple[BotInfo, ...]
    authors: Mapping[int, str]
    total_names: int


def bot_list(store: Store, page: int, limit: int) -> BotList:
    """Page ``page`` (from 1) of the bots by name, ``limit`` names a page."""
    names, total = store.bot_names((page - 1) * limit, limit)
    bots = store.bots_named(names)
    return BotList(tuple(bots), authors_of(store, bots), total)


@dataclass(frozen=True)
class PoolPlace:
    """A bot's ``row`` in a rating pool and its ``place`` there (1: best; removed bots
    count)."""

    place: int
    row: LeaderboardRow


def pool_places(store: Store, bot: BotInfo) -> list[PoolPlace]:
    """The bot's rating and place in every pool it is rated in, by pool."""
    out = []
    for rating in store.bot_ratings(bot.id):
        board = store.leaderboard(pool=rating.pool, include_removed=True)
        place = next(n for n, row in enumerate(board, 1) if row.bot_id == bot.id)
        out.append(PoolPlace(place, board[place - 1]))
    return out


CONDITION_SEATS = 2000
"""How many of a bot's latest seats its figures by condition read."""


@dataclass(frozen=True)
class Conditions:
    """A bot version's figures by condition (:mod:`arena.rating.conditions`), read from its
    ``seats`` latest seats in finished matches whose deal is over (at most
    :data:`CONDITION_SEATS`)."""

    seats: int
    places: tuple[PlaceFigure, ...]
    points: tuple[PointsFigure, ...]


def conditions(store: Store, bot_id: int, limit: int = CONDITION_SEATS) -> Conditions:
    seats, hands = store.bot_conditions(bot_id, limit)
    return Conditions(sum(t.seats for t in seats), tuple(places(seats)), tuple(points(hands)))


@dataclass(frozen=True)
class BotPage:
    """A bot version as its public page shows it: every ``version`` of it, its ``authors``
    (by id), its ``places`` per pool, its rating ``history`` per pool, ``head_to_head``,
    its ``fault_counts``, a page of its ``matches`` and of its ``faults`` (the reasons
    that the secrecy rule hides taken out), and its figures by condition."""

    bot: BotInfo
    versions: tuple[BotInfo, ...]
    authors: Mapping[int, str]
    places: tuple[PoolPlace, ...]
    history: tuple[HistorySample, ...]
    head_to_head: tuple[HeadToHeadRow, ...]
    fault_counts: Mapping[Fault, int]
    matches: MatchPage
    faults: FaultPage
    conditions: Conditions


def bot_page(store: Store, label: str, *, before: int | None = None,
             faults_before: int | None = None, limit: int = 20,
             history_points: int = 120) -> BotPage:
    """The page of the bot version ``label`` names (see :func:`resolve_bot`): its matches
    and faults with an id below ``before``/``faults_before``, ``limit`` of each; at most
    ``history_points`` points of its rating history in each pool."""
    bot, versions = resolve_bot(store, label)
    places = pool_places(store, bot)
    return BotPage(
        bot=bot, versions=tuple(versions), authors=authors_of(store, versions),
        places=tuple(places),
        history=tuple(store.rating_history_sample(bot.id, p.row.pool, history_points)
                      for p in places),
        head_to_head=tuple(head_to_head(store, bot)),
        fault_counts=dict(sorted(store.bot_fault_counts(bot.id).items())),
        matches=bot_matches(store, bot.id, before, limit),
        faults=bot_faults(store, bot.id, faults_before, limit),
        conditions=conditions(store, bot.id))


__all__ = ["CONDITION_SEATS", "BotComparison", "BotList", "BotPage", "Conditions",
           "HeadToHeadRow", "PoolBoard", "PoolPlace", "SameBot", "authors_of", "bot_list",
           "bot_page", "compare", "conditions", "game_leaders", "head_to_head",
           "head_to_head_by_game", "leaderboard", "pool_board", "pool_places", "resolve_bot",
           "tournament_board", "tournament_leaderboard", "trends"]
