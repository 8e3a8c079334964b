"""A duplicate deal's traveller: its seat rotations side by side, as duplicate bridge's
traveller shows how every table played the same cards.

A duplicate deal is played once per seat rotation, each rotation a match of its own with the
same cards (the same tournament, the same seed). The seat positions of a deal are its
*hands*: hand ``k`` is the cards dealt to seat ``k``, the same in every rotation; what changes
from one rotation to the next is the bot holding it. A deal is named by the id of its first
match in schedule order (no seed leaves the store). Its traveller (:func:`traveller`) gives:

* **who sat where**: each rotation's bot (name and version) in each seat, its score (the
  game's own points), its rank and its fault;
* **matchpoints**, as in bridge, comparing each hand's holders: a seat of a finished rotation
  scores, against the holder of the same hand in every other finished rotation, 1 where it
  placed better, ½ where level, 0 where worse. A seat's *place* is its rank, a seat that
  faulted counting as the last place (the number of seats), as :mod:`arena.rating.figures`
  counts a rank. A seat's *top* is the number of other finished rotations; a bot's total over
  the deal is the sum over every seat it held (a bot that held one hand in two rotations
  meets itself there, gaining the ½ or the 1 and 0 of both sides);
* **partings**, the moments where the choices differed: a *parting* is a decision number
  ``N`` and two or more finished rotations whose first ``N - 1`` decisions were the same
  (so their deal, their state, their hand to act were the same: the engine is deterministic)
  and whose ``N``-th decisions were not all the same. It names the hand that chose and each
  distinct choice with the rotations (and the bots) that made it. Every two rotations part
  once, at their first differing decision, so a deal of ``R`` rotations has at most ``R - 1``
  partings; after it their situations are no longer the same, so no later decision of theirs
  is compared. ``N`` is the replay's step (step ``N`` of a match's replay is its ``N``-th
  decision, :func:`arena.match.replay.steps`).

**Secrecy**: the traveller shows every finished rotation's full view (its decisions name its
cards), so it is shown only where :mod:`arena.app.visibility`'s rule shows the full view of
every rotation that is not void: for anyone but the operator, once no rotation of the deal is
pending or running. Before that it is :class:`~arena.app.matches.Hidden`, with the rule's
own reason. A void rotation has no full view: it is shown as void (its seats), and counts in
neither matchpoints nor partings.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arena.app.matches import Hidden
from arena.app.visibility import InPlay, Refusal, Sight, may_show
from arena.match.replay import describe
from arena.storage.store import (
    MatchInfo,
    MatchStatus,
    NotFoundError,
    SeatInfo,
    Store,
    TournamentInfo,
)
from arena.wire.codec import codec_for
from arena.wire.messages import LoggedChoice, decode_choice, read_choices

TO_PLAY = (MatchStatus.PENDING, MatchStatus.RUNNING)


# ---------------------------------------------------------------- what a traveller holds


@dataclass(frozen=True)
class Comparison:
    """One seat against the holder of the same hand in another finished rotation: that
    rotation's match, its bot there, and the matchpoints the seat scored (1, ½ or 0)."""

    match_id: int
    bot: str
    points: float


@dataclass(frozen=True)
class Holding:
    """One seat of a finished rotation (the holder of one hand): its place (its rank, last if
    it faulted), its matchpoints against the other holders of the hand, and its top."""

    seat: SeatInfo
    place: int
    matchpoints: float
    top: int
    against: tuple[Comparison, ...]


@dataclass(frozen=True)
class Rotation:
    """One match of the deal: its seats, and where it finished its holdings and how many
    decisions it took (a void rotation has neither)."""

    match: MatchInfo
    holdings: tuple[Holding, ...]
    decisions: int

    @property
    def void(self) -> bool:
        return self.match.status is MatchStatus.VOID


@dataclass(frozen=True)
class BotTotal:
    """A bot's matchpoints over the deal: the sum over every seat it held, and its top."""

    bot_id: int
    bot: str
    seats: int
    matchpoints: float
    top: int

    @property
    def share(self) -> float | None:
        """Its matchpoints as a share of its top (None: no other finished rotation)."""
        return self.matchpoints / self.top if self.top else None


@dataclass(frozen=True)
class Chooser:
    """A rotation that made a choice at a parting: its match, the bot holding the hand,
    and whether the referee's fallback chose for it (its bot had faulted)."""

    match_id: int
    bot: str
    fallback: bool


@dataclass(frozen=True)
class Choice:
    """One distinct decision at a parting (as the replay writes it) and who made it."""

    action: str
    by: tuple[Chooser, ...]


@dataclass(frozen=True)
class Parting:
    """Rotations with the same first ``decision - 1`` decisions whose ``decision``-th
    differed: the hand (``seat``) that chose, and each choice (see the module's docstring)."""

    decision: int
    seat: int
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class Traveller:
    """A deal's traveller (see the module's docstring): ``deal`` is the id of its first
    match; rotations in schedule order; totals best first; partings by decision."""

    tournament: TournamentInfo
    deal: int
    rotations: tuple[Rotation, ...]
    totals: tuple[BotTotal, ...]
    partings: tuple[Parting, ...]

    @property
    def finished(self) -> int:
        return sum(1 for r in self.rotations if r.match.status is MatchStatus.FINISHED)


# ---------------------------------------------------------------- the secrecy rule


def deal_refusal(plays: Iterable[tuple[int, MatchStatus]], in_play: Iterable[int], *,
                 operator: bool = False) -> Refusal | None:
    """Why a deal's traveller is not shown (None: it is): the first rotation (``plays``: its
    matches' ids and statuses, in schedule order) that is not void and whose full view
    :func:`arena.app.visibility.may_show` refuses; ``in_play``: those of its finished matches
    the store says another rotation of their deal has still to play
    (:meth:`~arena.storage.store.Store.deals_in_play`)."""
    plays, in_play = list(plays), set(in_play)
    to_play = [match_id for match_id, status in plays if status in TO_PLAY]
    for match_id, status in plays:
        if status is MatchStatus.VOID:
            continue
        other = next((m for m in to_play if m != match_id), None)
        refused = may_show(match_id, status, Sight.FULL, operator=operator,
                           in_play=InPlay(other) if match_id in in_play else None)
        if refused is not None:
            return refused
    return None


def _in_play(store: Store, plays: Iterable[tuple[int, MatchStatus]], operator: bool) -> set[int]:
    """What :func:`deal_refusal` asks of the store: one query, for anyone but the operator."""
    finished = [match_id for match_id, status in plays if status is MatchStatus.FINISHED]
    return set() if operator or not finished else store.deals_in_play(finished)


# ---------------------------------------------------------------- the use cases


def traveller(store: Store, tournament_id: int, match_id: int, *,
              operator: bool = False) -> Traveller:
    """The traveller of the deal that match ``match_id`` of tournament ``tournament_id`` plays
    (any rotation of it names it), as the secrecy rule allows the operator (``operator``) or
    anyone else. An unknown tournament or match, or a deal played once:
    :class:`~arena.storage.store.NotFoundError`; a deal not over: :class:`Hidden`. Reads the
    logs of its finished rotations (an event loop calls this in a worker thread)."""
    tournament = store.get_tournament(tournament_id)
    matches = store.deal_matches(tournament_id, match_id)
    deal = matches[0].id
    if len(matches) < 2:
        raise NotFoundError(f"match {deal} of tournament {tournament_id} deals cards no other "
                            "match deals: a traveller compares the rotations of a duplicate deal")
    plays = [(m.id, m.status) for m in matches]
    refused = deal_refusal(plays, _in_play(store, plays, operator), operator=operator)
    if refused is not None:
        raise Hidden(Refusal(f"the traveller of deal {deal} is shown once every rotation of it "
                             f"is over: {refused.text}"))
    matches = [store.get_match(m.id) if m.status is MatchStatus.FINISHED else m
               for m in matches]  # with their logs, and their status read again
    finished = [m for m in matches if m.status is MatchStatus.FINISHED]
    decisions = {m.id: _decisions(m) for m in finished}
    holdings = _holdings(finished, len(matches[0].seats))
    rotations = tuple(Rotation(m, holdings.get(m.id, ()), len(decisions.get(m.id, ())))
                      for m in matches)
    return Traveller(tournament, deal, rotations, _totals(holdings.values()),
                     tuple(partings({m.id: decisions[m.id] for m in finished},
                                    {m.id: m for m in finished})))


@dataclass(frozen=True)
class DealLinks:
    """The travellers a page of a tournament's matches links: ``duplicate``, some match of the
    page is one of several rotations of its deal; ``deals``, for each match whose deal's
    traveller is shown, that deal (the id of its first match)."""

    duplicate: bool
    deals: dict[int, int]


def deal_links(store: Store, tournament_id: int, match_ids: Sequence[int], *,
               operator: bool = False) -> DealLinks:
    """Which of ``match_ids`` (matches of tournament ``tournament_id``) link their deal's
    traveller: those of a deal of several rotations that :func:`traveller` shows, with at
    least one rotation finished. Two queries, whatever the number of matches."""
    found = {m: plays for m, plays in store.deal_plays(tournament_id, match_ids).items()
             if len(plays) > 1}
    every = {(p.id, p.status) for plays in found.values() for p in plays}
    in_play = _in_play(store, every, operator)
    deals: dict[int, int] = {}
    for match_id, plays in found.items():
        listed = [(p.id, p.status) for p in plays]
        if any(status is MatchStatus.FINISHED for _, status in listed) and \
                deal_refusal(listed, in_play, operator=operator) is None:
            deals[match_id] = plays[0].id
    return DealLinks(bool(found), deals)


# ---------------------------------------------------------------- matchpoints


def place(seat: SeatInfo, players: int) -> int:
    """A seat's place for matchpoints: its rank, a seat that faulted counting last (as
    :mod:`arena.rating.figures` counts a rank)."""
    return players if seat.fault or seat.rank is None else seat.rank


def matchpoints(mine: int, theirs: int) -> float:
    """What a place scores against another holder's of the same hand: 1, ½ or 0."""
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def _holdings(finished: Sequence[MatchInfo], players: int) -> dict[int, tuple[Holding, ...]]:
    """Each finished rotation's seats with their matchpoints."""
    found: dict[int, tuple[Holding, ...]] = {}
    for match in finished:
        rows = []
        for seat in match.seats:
            mine = place(seat, players)
            against = tuple(
                Comparison(other.id, theirs.bot, matchpoints(mine, place(theirs, players)))
                for other in finished if other.id != match.id
                for theirs in other.seats if theirs.seat == seat.seat)
            rows.append(Holding(seat, mine, sum(c.points for c in against), len(against),
                                against))
        found[match.id] = tuple(rows)
    return found


def _totals(holdings: Iterable[Sequence[Holding]]) -> tuple[BotTotal, ...]:
    """Each bot's matchpoints over the deal, best share first."""
    sums: dict[int, list[float]] = {}
    labels: dict[int, str] = {}
    for rows in holdings:
        for row in rows:
            line = sums.setdefault(row.seat.bot_id, [0, 0.0, 0])
            line[0] += 1
            line[1] += row.matchpoints
            line[2] += row.top
            labels[row.seat.bot_id] = row.seat.bot
    totals = [BotTotal(bot_id, labels[bot_id], int(n), points, int(top))
              for bot_id, (n, points, top) in sums.items()]
    totals.sort(key=lambda t: (-(t.share or 0.0), -t.matchpoints, t.bot))
    return tuple(totals)


# ---------------------------------------------------------------- partings


def _decisions(match: MatchInfo) -> list[LoggedChoice]:
    """A finished match's decisions in order, their actions still encoded (compared as bytes,
    decoded only where rotations part): the ``N``-th is its replay's step ``N``."""
    if match.log is None:
        return []
    return read_choices(match.log)


def partings(decisions: dict[int, Sequence[LoggedChoice]],
             matches: dict[int, MatchInfo]) -> list[Parting]:
    """Where rotations with the same decisions so far made different ones (see the module's
    docstring): ``decisions`` per match id (the rotations, in schedule order), ``matches``
    for the game and the bots in their seats. By decision number, then schedule order."""
    found: list[tuple[int, int, Parting]] = []
    order = {match_id: place for place, match_id in enumerate(decisions)}
    groups: list[tuple[int, list[int]]] = [(0, list(decisions))]  # (decisions shared, ids)
    while groups:
        at, group = groups.pop()
        while len(group) > 1:
            group = [m for m in group if at < len(decisions[m])]  # a match over drops out
            buckets: list[tuple[LoggedChoice, list[int]]] = []
            for match_id in group:
                line = decisions[match_id][at]
                same = next((b for b in buckets if _same(b[0], line)), None)
                if same is None:
                    buckets.append((line, [match_id]))
                else:
                    same[1].append(match_id)
            at += 1
            if len(buckets) > 1:
                seat = buckets[0][0].seat
                codec = codec_for(matches[group[0]].game)
                choices = tuple(Choice(describe(decode_choice(codec, line)), tuple(
                    Chooser(m, _holder(matches[m], seat), decisions[m][at - 1].fallback)
                    for m in ids)) for line, ids in buckets)
                found.append((at, order[group[0]], Parting(at, -1 if seat is None else seat,
                                                             choices)))
                groups += [(at, ids) for _, ids in buckets]
                break
    return [parting for _, _, parting in sorted(found, key=lambda f: (f[0], f[1]))]


def _same(a: LoggedChoice, b: LoggedChoice) -> bool:
    """The same decision: the same seat chose the same action (the same bytes)."""
    return a.seat == b.seat and a.action == b.action


def _holder(match: MatchInfo, seat: int | None) -> str:
    return next((s.bot for s in match.seats if s.seat == seat), "?")


__all__ = ["BotTotal", "Choice", "Chooser", "Comparison", "DealLinks", "Holding", "Parting",
           "Rotation", "Traveller", "deal_links", "deal_refusal", "matchpoints", "partings",
           "place", "traveller"]
