"""TrueSkill ratings for free-for-all matches with ranks and ties.

One configured :class:`trueskill.TrueSkill` environment (:data:`ENV`) is passed
around; the library's global ``setup()`` is never touched, so nothing else in
the process can change the numbers.

Every seat of a match is its own one-player team. A seat that faulted lost to every
seat that did not, and tells nothing about another seat that faulted: the referee ranks
faulted seats level behind the others, but two crashing bots are not two equal players,
and rating them as a tie would make TrueSkill sure of a skill it never saw. So a bot whose
seats all faulted is rated from the seats that did not fault and its own alone (last);
every other bot from the whole match as ranked. A bot may fill several seats
of one match (round-robins with fewer bots than seats): each of its seats is
rated as a separate team starting from the bot's prior, and the bot then takes
the mean of its seats' new mu and the mean of their new sigma. Seats of one bot
never "play against themselves" in a way that moves that bot: when only one
distinct bot took part, nothing changes.

The functions here are pure and deterministic, so replaying the same matches in
the same order (see ``Store.rebuild_ratings``) gives the very same floats.

The update itself is :mod:`arena.rating.ffa`: the library's own message
schedule specialised to one-player teams, giving ``TrueSkill.rate``'s floats
about ten times faster. An environment it cannot reproduce (another backend, a
draw probability given as a function) is rated by the library.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping, Sequence
from statistics import fmean

import trueskill

from arena.rating import ffa as trueskill_ffa

MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
TAU = MU / 300
DRAW_PROBABILITY = 0.1

RatingPair = tuple[float, float]
"""(mu, sigma) of one bot in one game."""


def make_env(
    *,
    mu: float = MU,
    sigma: float = SIGMA,
    beta: float = BETA,
    tau: float = TAU,
    draw_probability: float = DRAW_PROBABILITY,
) -> trueskill.TrueSkill:
    """A TrueSkill environment; ``backend=None`` keeps the pure-Python maths (no mpmath/scipy
    differences between machines)."""
    return trueskill.TrueSkill(
        mu=mu, sigma=sigma, beta=beta, tau=tau, draw_probability=draw_probability, backend=None
    )


ENV = make_env()
"""The arena's environment: mu 25, sigma 25/3, beta 25/6, tau 25/300, draw probability 0.1."""

DEFAULT: RatingPair = (MU, SIGMA)


def conservative(mu: float, sigma: float) -> float:
    """The leaderboard's sort key: mu - 3 sigma."""
    return mu - 3 * sigma


def rate(
    ratings: Mapping[int, RatingPair],
    seats: Sequence[tuple[int, int]],
    env: trueskill.TrueSkill = ENV,
    tie_key: int = 0,
    faulted: Collection[int] = (),
) -> dict[int, RatingPair]:
    """New (mu, sigma) for every distinct bot of one finished match.

    ``ratings`` holds the priors of bots already rated (others start at the
    environment's defaults); ``seats`` is ``(bot_id, rank)`` per seat in seat
    order, rank 1 best, equal ranks tie. ``tie_key`` (the match's id) orders tied
    bots. ``faulted`` holds the indexes (in ``seats``) of the seats that faulted:
    a bot all of whose seats faulted is rated against the seats that did not fault
    only (see the module's docstring). Returns an empty dict when fewer than two
    distinct bots took part; otherwise the bots in ascending id order.
    """
    bots = {bot for bot, _ in seats}
    if len(bots) < 2:
        return {}
    clean = [seat for index, seat in enumerate(seats) if index not in faulted]
    if not faulted or not clean:
        return _rate_as_ranked(ratings, seats, env, tie_key)
    new = _rate_as_ranked(ratings, seats, env, tie_key)
    playing = {bot for bot, _ in clean}
    for bot in sorted(bots - playing):  # every seat of it faulted
        alone = [seat for seat in seats if seat[0] == bot]
        new[bot] = _rate_as_ranked(ratings, clean + alone, env, tie_key)[bot]
    return new


def _rate_as_ranked(
    ratings: Mapping[int, RatingPair],
    seats: Sequence[tuple[int, int]],
    env: trueskill.TrueSkill,
    tie_key: int,
) -> dict[int, RatingPair]:
    """:func:`rate` of seats taken as ranked, faulted or not (at least two distinct bots)."""
    bots = {bot for bot, _ in seats}
    # TrueSkill's update for more than two teams is iterative, so the order of the
    # teams shows in the last digits: fix it by rank, so a result depends on who
    # placed where, never on seat numbers. Tied bots go in an order drawn afresh for
    # each match from its key (reproducible by a rebuild): by bot id, a bot registered
    # later would get a slightly larger update in every tie.
    ordered = sorted(seats, key=lambda seat: (seat[1], tie_order(tie_key, seat[0])))
    bot, rank = ordered[0]
    if rank < 1:  # the lowest rank comes first
        raise ValueError(f"rank of bot {bot} must be 1 or more, not {rank}")
    default = (env.mu, env.sigma)
    priors = [ratings.get(bot, default) for bot, _ in ordered]
    # TrueSkill wants ranks where lower is better; competition ranks already are.
    ranks = [rank for _, rank in ordered]
    fast = trueskill_ffa.for_env(env)
    rated = fast.rate(priors, ranks) if fast is not None else rate_with_library(priors, ranks, env)
    if len(bots) == len(ordered):  # one seat each
        return dict(sorted(zip([bot for bot, _ in ordered], rated, strict=True)))
    per_bot: dict[int, list[RatingPair]] = {bot: [] for bot in sorted(bots)}
    for (bot, _), pair in zip(ordered, rated, strict=True):
        per_bot[bot].append(pair)
    return {
        bot: news[0] if len(news) == 1 else (fmean(mu for mu, _ in news), fmean(s for _, s in news))
        for bot, news in per_bot.items()
    }


def tie_order(tie_key: int, bot: int) -> bytes:
    """Where ``bot`` goes among tied bots in the match with ``tie_key``: a hash, so that over
    many matches every bot is first as often as any other."""
    return hashlib.blake2b(f"{tie_key}:{bot}".encode(), digest_size=8).digest()


def rate_with_library(
    priors: Sequence[RatingPair], ranks: Sequence[int], env: trueskill.TrueSkill = ENV
) -> list[RatingPair]:
    """``env.rate`` with one-player teams: new (mu, sigma) per prior, in the same order.

    The library's generic factor graph: what :func:`rate` must agree with, and
    what it uses for environments :mod:`arena.rating.ffa` cannot reproduce.
    """
    groups = [(env.create_rating(mu, sigma),) for mu, sigma in priors]
    return [(float(r.mu), float(r.sigma)) for (r,) in env.rate(groups, ranks=list(ranks))]


__all__ = ["DEFAULT", "ENV", "RatingPair", "conservative", "make_env", "rate", "rate_with_library"]
