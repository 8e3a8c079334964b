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
running, its deal *sealed*    every view so far, live: public, each seat's and the full view
                              (all hands). Sealed: the match started sealed (every seat a bot the
                              arena runs in its sandbox: ``managed`` or ``submitted``, the run's
                              sandbox on), and every other rotation of its deal still to play
                              is sealed too (running: started sealed; pending: no remote seat)
running, its deal not sealed  its public view so far: the match being played, the live view
                              (even when another rotation of its deal has finished, or runs
                              beside it). Never a seat's or the full view; the refusal names the
                              first seat that is not sealed (a remote bot) or the rotation that
                              runs without the sandbox (``--no-sandbox``)
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

**Why a sealed deal may be shown live.** A hand shown on the web is a secret kept from the bots
still to play its deal. A bot in the sandbox has no network (``arena/players/sandbox.py``): it
cannot read the web, nor hear from anyone who does. So a running match shows every hand when
no bot that will play its deal can reach the web: every seat of it, and of every rotation of
its deal still to play, is a managed or submitted bot in the sandbox. Finished and void
rotations do not count: their bots are done with the deal. A bot's kind never changes, and a
deal that started sealed is played sealed to its end: the store refuses to start a match of it
unsealed (:meth:`~arena.storage.store.Store.mark_running`: its own replay after an
interruption too), and a run with ``--no-sandbox`` refuses such a tournament before it starts
(:func:`arena.tournament.run.refuse_unsealed`). So the answer for a running match cannot turn
from sealed to not sealed while anyone watches: a pending rotation with no remote seat can only
start sealed.

A bot's **notes** on its answers (``Choice.note``: what it thought, which may name its cards)
are its author's and the operator's; anyone else sees them only where the tournament made
them public (``--public-notes``), and then as the full view: once every rotation of the deal
is over (:func:`arena.app.matches.noted_seats`, which also gives an author signed in on the
web their own bots' notes); never live, not even in a sealed deal's all-hands view.

:func:`may_show` is the rule itself, pure, over what the store says; :func:`refusal` asks the
store only what the rule needs (whether a rotation of the deal is in play, only for a
finished match; the rotations of its deal still to play, only for a running one);
:func:`hidden_full_views` does it for many finished matches in one query (a page of faults,
the graphs' worker).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from arena.storage.records import Rotation
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
             in_play: InPlay | None, deal: Sequence[Rotation] | None = None) -> Refusal | None:
    """Why ``sight`` of a match of ``status`` is not shown (None: it is). ``in_play``: another
    rotation of its deal is unfinished (looked up only for a finished match: see
    :func:`refusal`); ``deal``: the rotations of its deal still to play, itself included
    (looked up only for a running match; None: not looked up, so not sealed);
    ``operator``: the operator is asking. The table in this module's docstring is this
    function."""
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
    if status is MatchStatus.RUNNING and deal is not None:
        why = unsealed(match_id, deal)
        return None if why is None else Refusal(why, public_meanwhile=True)
    state = "not started" if status is MatchStatus.PENDING else str(status)
    return Refusal(f"match {match_id} is {state}: its seat and full views open once it has "
                   "finished", public_meanwhile=True)


def unsealed(match_id: int, deal: Sequence[Rotation]) -> str | None:
    """Why the deal of running match ``match_id`` is not sealed, in one line (None: it is):
    ``deal`` holds the rotations of the deal still to play, the match first among them. The
    first seat, in the match itself, then in the deal's other rotations, whose bot is remote,
    or the first of them that runs without the sandbox."""
    own = [r for r in deal if r.match_id == match_id]
    if not own or own[0].status is not MatchStatus.RUNNING:  # the store says otherwise: no
        return (f"match {match_id} is not running: its seat and full views open once it has "
                "finished")
    others = [r for r in deal if r.match_id != match_id]
    after = ", and every other rotation of its deal with it" if others else ""
    opens = f"its seat and full views open once it has finished{after}"
    for rotation in (own[0], *others):
        where = "" if rotation is own[0] else \
            f" of match {rotation.match_id} (rotation {rotation.lane + 1} of its deal)"
        if rotation.remote:
            seat, bot = rotation.remote[0]
            return (f"match {match_id} is running, and seat {seat}{where} is a remote bot "
                    f"({bot}), which may read the web: {opens}")
        if rotation.status is MatchStatus.RUNNING and not rotation.sealed:
            runs = "it runs" if rotation is own[0] else \
                f"match {rotation.match_id} (rotation {rotation.lane + 1} of its deal) runs"
            return (f"match {match_id} is running, and {runs} without the sandbox "
                    f"(--no-sandbox), where bots may read the web: {opens}")
    return None


class Deals(Protocol):
    """What the rule asks of the store (:class:`arena.storage.store.Store` is one)."""

    def deal_in_play(self, match_id: int) -> int | None: ...

    def deals_in_play(self, match_ids: Sequence[int]) -> set[int]: ...

    def deal_rotations(self, match_id: int) -> tuple[Rotation, ...]: ...


def in_play_of(store: Deals, match_id: int, status: MatchStatus,
               operator: bool = False) -> InPlay | None:
    """Whether another rotation of the deal of a match is unfinished, asked of the store only
    when the answer matters (a finished match, for anyone but the operator)."""
    if operator or status is not MatchStatus.FINISHED:
        return None
    other = store.deal_in_play(match_id)
    return None if other is None else InPlay(other)


def deal_of(store: Deals, match_id: int, status: MatchStatus,
            operator: bool = False) -> tuple[Rotation, ...] | None:
    """The rotations of the deal of a match still to play, asked of the store only when the
    answer matters (a running match, for anyone but the operator)."""
    if operator or status is not MatchStatus.RUNNING:
        return None
    return store.deal_rotations(match_id)


def refusal(store: Deals, match: MatchInfo, sight: Sight, *,
            operator: bool = False) -> Refusal | None:
    """:func:`may_show` for a match the store gave, asking the store what the rule needs."""
    return may_show(match.id, match.status, sight, operator=operator,
                    in_play=in_play_of(store, match.id, match.status, operator),
                    deal=deal_of(store, match.id, match.status, operator)
                    if sight.private else None)


def hidden_full_views(store: Deals, match_ids: Sequence[int]) -> set[int]:
    """Those of ``match_ids`` (finished matches) whose full view is not shown to the public
    (another rotation of their deal is still to play), in one query for them all: the fault
    reasons of a page of faults (a bot's own error message may name its cards, so a reason
    is part of the full view), the matches whose win-probability graph may be made."""
    in_play = store.deals_in_play(list(match_ids))
    return {m for m in match_ids
            if may_show(m, MatchStatus.FINISHED, Sight.FULL, operator=False,
                        in_play=InPlay() if m in in_play else None) is not None}


__all__ = ["Deals", "InPlay", "Refusal", "Rotation", "Sight", "deal_of", "hidden_full_views",
           "in_play_of", "may_show", "refusal", "unsealed"]
