"""TrueSkill for free-for-all matches (every team one player), exact and fast.

``trueskill.TrueSkill.rate`` builds a factor graph of generic objects for every
match: variables holding dicts of messages, factors, Gaussians created for every
intermediate step. That costs about 0.7 ms for four players, which dominates a
rebuild of many matches. With one player per team the graph is a fixed chain,
so :class:`FreeForAll` runs the library's very message schedule on plain floats:

* prior (with the dynamics factor ``tau``) and performance likelihood, down;
* per team, the performance sum (one term, coefficient 1), down;
* the chain of team differences, iterated exactly like ``run_schedule`` (left to
  right sending to the right, then right to left sending to the left, at most
  ten sweeps, stopping once the largest truncation update is ``<= DELTA``),
  each truncation with the library's v/w functions and draw margin;
* both ends up, then every sum and likelihood up.

Every arithmetic step is the library's, in the library's order (a Gaussian as
precision and precision-adjusted mean; messages divided out and multiplied in
the same way; the same ``sigma ** -2`` round trips where the library builds a
``Rating``), so the results are the same floats, not merely close ones: the tests
compare them bit for bit with ``TrueSkill.rate`` over thousands of random
matches. The normal cdf and pdf are the library's pure-Python fallbacks (its
``erfc`` approximation), which is why only environments using that backend and a
fixed draw probability are handled here (:func:`for_env` says so).

Where the library's sums meet a message of zero precision (a result so
expected that its truncation teaches nothing: the library turns the division by
zero into an infinite variance and carries on) the same is done here, in place.
Any other division by zero (a prior whose precision underflows, a truncation of
zero precision) hands the match to the library itself, so even such inputs get
the library's answer, which is then an exception too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import trueskill
from trueskill import backends

DELTA = trueskill.DELTA
"""The library's default ``min_delta``: a sweep that moves no truncation more than this ends the loop."""

SWEEPS = 10
"""The library's limit on sweeps of the team-difference chain."""

_SQRT2 = math.sqrt(2)
_PDF_SCALE = 1 / math.sqrt(2 * math.pi) * abs(1)  # as backends.pdf with sigma=1
_ROUNDING = 'Cannot calculate correctly, set backend to "mpmath"'  # the library's message

Pair = tuple[float, float]
"""(mu, sigma)."""


def cdf(x: float) -> float:
    """``trueskill.backends.cdf(x)`` (mean 0, deviation 1), step for step: its ``erfc``
    (Numerical Recipes' approximation) of ``-x / sqrt(2)``, halved."""
    u = -x / _SQRT2
    z = abs(u)
    t = 1. / (1. + z / 2.)
    r = t * math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (
        0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (
            0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (
                -0.82215223 + t * 0.17087277
            )))
        )))
    )))
    return 0.5 * (2. - r if u < 0 else r)


def pdf(x: float) -> float:
    """``trueskill.backends.pdf(x)`` (mean 0, deviation 1), step for step."""
    return _PDF_SCALE * math.exp(-(x ** 2 / 2))


def _truncate(diff: float, margin: float, tie: bool) -> Pair:
    """The library's (v, w) for a win (``v_win``, ``w_win``) or a tie (``v_draw``, ``w_draw``)."""
    if tie:
        abs_diff = abs(diff)
        a, b = margin - abs_diff, -margin - abs_diff
        pdf_a, pdf_b = pdf(a), pdf(b)
        denom = cdf(a) - cdf(b)
        if not denom:
            raise FloatingPointError(_ROUNDING)
        v = (pdf_b - pdf_a) / denom
        return (-v if diff < 0 else v), v ** 2 + (a * pdf_a - b * pdf_b) / denom
    x = diff - margin
    denom = cdf(x)
    v = (pdf(x) / denom) if denom else -x
    w = v * (v + x)
    if 0 < w < 1:
        return v, w
    raise FloatingPointError(_ROUNDING)


def _term_mu(pi: float, tau: float) -> float:
    """``Gaussian.mu``: 0 for a zero precision, as the library has it."""
    return pi and tau / pi


def _sum_exact(terms: Sequence[tuple[float, float, float]]) -> Pair:
    """``SumFactor.update`` as written: a term of zero precision makes the variance
    infinite (precision 0) and the remaining terms' variances are skipped.

    ``terms``: (coefficient, precision, precision-adjusted mean) of each term's
    message-divided value.
    """
    pi_inv = 0.
    mu = 0.
    for coeff, pi, tau in terms:
        mu += coeff * _term_mu(pi, tau)
        if pi_inv == math.inf:
            continue
        try:
            pi_inv += coeff ** 2 / pi
        except ZeroDivisionError:
            pi_inv = math.inf
    pi = 1. / pi_inv
    return pi, pi * mu


def _sum1(p: float, t: float) -> Pair:
    """The message of a one-term sum (coefficient 1)."""
    if p:
        inverse = 1. / p
        if math.isfinite(inverse):
            pi = 1. / inverse
            return pi, pi * (t / p)
    return _sum_exact(((1., p, t),))


def _sum2(p0: float, t0: float, p1: float, t1: float, sign: float) -> Pair:
    """The message of a two-term sum: first term coefficient 1, second ``sign`` (1 or -1)."""
    if p0 and p1:
        inverse = 1. / p0 + 1. / p1
        if math.isfinite(inverse):
            pi = 1. / inverse
            return pi, pi * (t0 / p0 - t1 / p1 if sign < 0 else t0 / p0 + t1 / p1)
    return _sum_exact(((1., p0, t0), (sign, p1, t1)))


class FreeForAll:
    """One environment's update for matches where every team is one player.

    Build it with :func:`for_env`; what depends only on the environment (the
    likelihood variance, the dynamics, the draw margin between two one-player
    teams) is computed once here.
    """

    def __init__(self, env: trueskill.TrueSkill) -> None:
        if not supported(env):
            raise ValueError("only a fixed draw probability and the pure-Python backend are supported")
        self.env = env
        self.beta2: float = env.beta ** 2
        self.tau2: float = env.tau ** 2
        # Two adjacent teams of one player each: the margin is the same for every pair.
        self.draw_margin: float = trueskill.calc_draw_margin(env.draw_probability, 2, env)

    def rate(self, priors: Sequence[Pair], ranks: Sequence[int]) -> list[Pair]:
        """New (mu, sigma) per player, as ``env.rate([(Rating(mu, sigma),), ...], ranks)`` gives.

        ``ranks``: lower is better, equal ranks tie. The result is in the order
        of ``priors`` and holds what the library's returned ``Rating`` objects
        report as ``mu`` and ``sigma``.
        """
        n = len(priors)
        if n < 2:
            raise ValueError("Need multiple rating groups")
        if len(ranks) != n:
            raise ValueError("Wrong ranks")
        in_order = all(ranks[i] <= ranks[i + 1] for i in range(n - 1))
        order = range(n) if in_order else sorted(range(n), key=ranks.__getitem__)  # stable, as the library
        ties = [ranks[order[i]] == ranks[order[i + 1]] for i in range(n - 1)]
        try:
            rated = self._sorted(priors if in_order else [priors[k] for k in order], ties)
        except ZeroDivisionError:
            # Degenerate beyond the zero-precision sums: let the library decide.
            groups = [(self.env.create_rating(*prior),) for prior in priors]
            return [(float(r.mu), float(r.sigma)) for (r,) in self.env.rate(groups, ranks=list(ranks))]
        if in_order:
            return rated
        out: list[Pair] = [(0.0, 0.0)] * n
        for position, k in enumerate(order):
            out[k] = rated[position]
        return out

    def _sorted(self, priors: Sequence[Pair], ties: Sequence[bool]) -> list[Pair]:
        """The schedule for players already sorted by rank (``ties[i]``: i and i + 1 tie)."""
        n = len(priors)
        beta2, margin = self.beta2, self.draw_margin
        # Rating layer (prior with dynamics) and performance layer, down.
        rating_pi: list[float] = []  # the rating variables (precision, precision-adjusted mean)
        rating_tau: list[float] = []
        perf_pi: list[float] = []  # the performance variables
        perf_tau: list[float] = []
        sum_pi: list[float] = []  # message of each team's sum factor to its team variable
        sum_tau: list[float] = []
        for mu, sigma in priors:
            if sigma == 0:
                raise ValueError("sigma**2 should be greater than 0")
            pi = sigma ** -2  # Rating(mu, sigma)
            tau = pi * mu
            prior_mu, prior_sigma = tau / pi, math.sqrt(1 / pi)  # as PriorFactor reads it back
            sigma = math.sqrt(prior_sigma ** 2 + self.tau2)
            pi = sigma ** -2
            tau = pi * prior_mu
            rating_pi.append(pi)
            rating_tau.append(tau)
            a = 1. / (1. + beta2 * pi)
            pi, tau = 0 + a * pi, 0 + a * tau
            perf_pi.append(pi)
            perf_tau.append(tau)
            # the team's sum of one performance, coefficient 1
            sum_p, sum_t = _sum1(pi, tau)
            sum_pi.append(sum_p)
            sum_tau.append(sum_t)

        # Team performance variables and the messages the difference factors send them.
        team_pi, team_tau = sum_pi[:], sum_tau[:]
        left_pi, left_tau = [0.0] * n, [0.0] * n  # from difference i - 1 to team i
        right_pi, right_tau = [0.0] * n, [0.0] * n  # from difference i to team i
        # Difference variables and their two incoming messages.
        m = n - 1
        diff_pi, diff_tau = [0.0] * m, [0.0] * m
        down_pi, down_tau = [0.0] * m, [0.0] * m  # from the difference (sum) factor
        trunc_pi, trunc_tau = [0.0] * m, [0.0] * m  # from the truncation factor

        # One sweep: differences 0 .. m-2 left to right, each then sending to the team on its
        # right; then m-1 .. 1 right to left, each sending to the team on its left. With two
        # teams the one difference sends nothing until the end, and its change is the delta.
        if m == 1:
            steps = [(0, 0)]
        else:
            steps = [(i, 1) for i in range(m - 1)] + [(i, -1) for i in range(m - 1, 0, -1)]
        for _ in range(SWEEPS):
            delta = 0.
            for i, send in steps:
                j = i + 1
                # the difference's sum factor, down: team i minus team j, each divided by the
                # message this factor sent it
                p_i, t_i = team_pi[i] - right_pi[i], team_tau[i] - right_tau[i]
                p_j, t_j = team_pi[j] - left_pi[j], team_tau[j] - left_tau[j]
                pi, tau = _sum2(p_i, t_i, p_j, t_j, -1.)
                d_pi, d_tau = diff_pi[i] - down_pi[i] + pi, diff_tau[i] - down_tau[i] + tau
                down_pi[i], down_tau[i] = pi, tau
                # the truncation factor, up: the difference takes the truncated value
                dp, dt = d_pi - trunc_pi[i], d_tau - trunc_tau[i]
                sqrt_pi = math.sqrt(dp)
                v, w = _truncate(dt / sqrt_pi, margin * sqrt_pi, ties[i])
                denom = 1. - w
                pi, tau = dp / denom, (dt + sqrt_pi * v) / denom
                trunc_pi[i] = pi + trunc_pi[i] - d_pi
                trunc_tau[i] = tau + trunc_tau[i] - d_tau
                diff_pi[i], diff_tau[i] = pi, tau
                pi_delta = abs(d_pi - pi)
                if pi_delta == math.inf:
                    change = 0.
                else:
                    change, root = abs(d_tau - tau), math.sqrt(pi_delta)
                    change = root if root > change else change  # max(), argument order kept
                if send == 0:
                    delta = change
                    continue
                delta = change if change > delta else delta
                # the difference's sum factor, up to its right or left team
                p_d, t_d = pi - down_pi[i], tau - down_tau[i]
                if send > 0:
                    pi, tau = _sum2(p_i, t_i, p_d, t_d, -1.)
                    team_pi[j] = team_pi[j] - left_pi[j] + pi
                    team_tau[j] = team_tau[j] - left_tau[j] + tau
                    left_pi[j], left_tau[j] = pi, tau
                else:
                    pi, tau = _sum2(p_d, t_d, p_j, t_j, 1.)
                    team_pi[i] = team_pi[i] - right_pi[i] + pi
                    team_tau[i] = team_tau[i] - right_tau[i] + tau
                    right_pi[i], right_tau[i] = pi, tau
            if delta <= DELTA:
                break
        # both ends up: the first difference to its left team, the last to its right one
        pi, tau = _sum2(diff_pi[0] - down_pi[0], diff_tau[0] - down_tau[0],
                        team_pi[1] - left_pi[1], team_tau[1] - left_tau[1], 1.)
        team_pi[0] = team_pi[0] - right_pi[0] + pi
        team_tau[0] = team_tau[0] - right_tau[0] + tau
        right_pi[0], right_tau[0] = pi, tau
        i = m - 1
        pi, tau = _sum2(team_pi[i] - right_pi[i], team_tau[i] - right_tau[i],
                        diff_pi[i] - down_pi[i], diff_tau[i] - down_tau[i], -1.)
        team_pi[m] = team_pi[m] - left_pi[m] + pi
        team_tau[m] = team_tau[m] - left_tau[m] + tau

        out: list[Pair] = []
        for i in range(n):
            # team sum, up to the performance variable
            pi, tau = _sum1(team_pi[i] - sum_pi[i], team_tau[i] - sum_tau[i])
            perf_p, perf_t = perf_pi[i] + pi, perf_tau[i] + tau
            # likelihood, up to the rating variable
            p, t = perf_p - perf_pi[i], perf_t - perf_tau[i]
            a = 1. / (1. + beta2 * p)
            pi, tau = rating_pi[i] + a * p, rating_tau[i] + a * t
            # Rating(var.mu, var.sigma), read back through its own precision
            sigma = math.sqrt(1 / pi)
            mu = tau / pi
            pi = sigma ** -2
            tau = pi * mu
            out.append((_term_mu(pi, tau), math.sqrt(1 / pi)))
        return out


def supported(env: trueskill.TrueSkill) -> bool:
    """True when :class:`FreeForAll` reproduces ``env``: pure-Python backend, fixed draw probability."""
    return (
        env.cdf is backends.cdf and env.pdf is backends.pdf and env.ppf is backends.ppf
        and not callable(env.draw_probability)
    )


_MODELS: dict[tuple[object, ...], FreeForAll] = {}


def for_env(env: trueskill.TrueSkill) -> FreeForAll | None:
    """The (cached) fast update for ``env``, or None when only the library can rate in it."""
    if not supported(env):
        return None
    key = (env.beta, env.tau, env.draw_probability, env.mu, env.sigma)
    model = _MODELS.get(key)
    if model is None:
        model = _MODELS[key] = FreeForAll(trueskill.TrueSkill(
            mu=env.mu, sigma=env.sigma, beta=env.beta, tau=env.tau,
            draw_probability=env.draw_probability, backend=None,
        ))
    return model


__all__ = ["DELTA", "SWEEPS", "FreeForAll", "Pair", "cdf", "for_env", "pdf", "supported"]
