"""Who may see what of a match, and when: the one rule, used by every door that shows a match
(the operator service's ``GetMatch`` and ``WatchMatch``; the web's match page, its replay
JSON, its live feed; the fault reasons on a bot's page).

A duplicate deal is played once per seat rotation, each rotation a match of its own with the
same cards. Whatever one rotation shows of its cards (a seat's hand, the full deal, and also
its *public* events once it is over: the cards drawn face up, the showdown) is the other
rotations' secret until they are played. So, for anyone but the operator:

============================  ===================================================================
the match is                  what is shown
============================  ===================================================================
pending                       its public view (nothing yet; a live feed waits for its start)
running                       its public view so far: the match being played, the live view
                              (even when another rotation of its deal has finished, or runs
                              beside it). Never a seat's or the full view.
void                          its public view (a void match keeps no final log: nothing). Never
                              a seat's or the full view.
finished, while another       **nothing**: no view at all, public included (page, JSON, replay,
rotation of its deal is       live feed, ``GetMatch``, ``WatchMatch``, its seats' fault reasons,
pending or running            which a bot's own message may fill with its cards). A live feed
                              that followed it while it ran ends without its last events.
finished, every rotation of   every view: public, each seat's, full, and the fault reasons
its deal over
============================  ===================================================================

The operator (who holds the tournament's deal key anyway) sees everything, always.

A bot's **notes** on its answers (``Choice.note``: what it thought, which may name its cards)
are its author's and the operator's; anyone else sees them only where the tournament made
them public (``--public-notes``), and then as the full view: once every rotation of the deal
is over (:func:`arena.app.matches.noted_seats`, which also gives an author signed in on the
web their own bots' notes).

:func:`may_show` is the rule itself, pure, over what the store says; :func:`refusal` asks the
store only what the rule needs (whether a rotation of the deal is in play, only for a
finished match); :func:`hidden_reasons` does it for a page of faults in one query.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from arena.storage.store import MatchInfo, MatchStatus


class Sight(StrEnum):
    """What of a match is asked for."""

    PUBLIC = "public"  # what every seat sees: the table and the public events
    SEAT = "seat"  # one seat's view: its own cards too
    FULL = "full"  # every seat's cards (also: the faulting seats' own reasons)

    @property
    def private(self) -> bool:
        return self is not Sight.PUBLIC


@dataclass(frozen=True)
class InPlay:
    """Another rotation of the match's deal is pending or running: ``match_id`` (None when
    the store said only that there is one)."""

    match_id: int | None = None


@dataclass(frozen=True)
class Refusal:
    """Why a view is not shown, in one line (:attr:`text`); ``public_meanwhile``: the public
    view of the match is open meanwhile (adapters say so in their own words)."""

    text: str
    public_meanwhile: bool = False

    def __str__(self) -> str:
        return self.text


def may_show(match_id: int, status: MatchStatus, sight: Sight, *, operator: bool,
             in_play: InPlay | None) -> Refusal | None:
    """Why ``sight`` of a match of ``status`` is not shown (None: it is). ``in_play``: another
    rotation of its deal is unfinished (looked up only for a finished match: see
    :func:`refusal`); ``operator``: the operator is asking. The table in this module's
    docstring is this function."""
    if operator:
        return None
    if status is MatchStatus.FINISHED:
        if in_play is None:
            return None
        other = "another match" if in_play.match_id is None else f"match {in_play.match_id}"
        return Refusal(f"match {match_id} deals the same cards as {other}, which is not "
                       f"finished yet: match {match_id} is shown once that match has finished")
    if not sight.private:
        return None
    if status is MatchStatus.VOID:
        return Refusal(f"match {match_id} is void: it never finished, and has no seat or full "
                       "view")
    state = "not started" if status is MatchStatus.PENDING else str(status)
    return Refusal(f"match {match_id} is {state}: its seat and full views open once it has "
                   "finished", public_meanwhile=True)


class Deals(Protocol):
    """What the rule asks of the store (:class:`arena.storage.store.Store` is one)."""

    def deal_in_play(self, match_id: int) -> int | None: ...

    def deals_in_play(self, match_ids: Sequence[int]) -> set[int]: ...


def in_play_of(store: Deals, match_id: int, status: MatchStatus,
               operator: bool = False) -> InPlay | None:
    """Whether another rotation of the deal of a match is unfinished, asked of the store only
    when the answer matters (a finished match, for anyone but the operator)."""
    if operator or status is not MatchStatus.FINISHED:
        return None
    other = store.deal_in_play(match_id)
    return None if other is None else InPlay(other)


def refusal(store: Deals, match: MatchInfo, sight: Sight, *,
            operator: bool = False) -> Refusal | None:
    """:func:`may_show` for a match the store gave, asking the store what the rule needs."""
    return may_show(match.id, match.status, sight, operator=operator,
                    in_play=in_play_of(store, match.id, match.status, operator))


def hidden_reasons(store: Deals, match_ids: Sequence[int]) -> set[int]:
    """Those of ``match_ids`` (finished matches with faults) whose seats' fault reasons are not
    shown to the public: a bot's own error message may name its cards, so a reason is part of
    the full view. One query for them all."""
    in_play = store.deals_in_play(list(match_ids))
    return {m for m in match_ids
            if may_show(m, MatchStatus.FINISHED, Sight.FULL, operator=False,
                        in_play=InPlay() if m in in_play else None) is not None}


__all__ = ["Deals", "InPlay", "Refusal", "Sight", "hidden_reasons", "in_play_of", "may_show",
           "refusal"]
