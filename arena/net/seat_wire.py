"""The seat protocol on the wire: the referee's typed messages as ``arena.v1`` bytes,
and a bot's bytes as typed replies.

The messages are built by :mod:`arena.wire.messages`; a bot's message is parsed
in full and read into one of the replies of :mod:`arena.match.protocol`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from google.protobuf.message import DecodeError

from arena.games.base import GameError
from arena.match.protocol import (
    Choice,
    Decision,
    Failed,
    Garbled,
    MatchEnd,
    MatchStart,
    OtherMessage,
    Reply,
)
from arena.v1 import arena_pb2 as pb
from arena.wire.codec import GameCodec, codec_for
from arena.wire.messages import (
    REASON_LENGTH,
    decision_message,
    encode_options,
    end_message,
    events_message,
)


class SeatWire:
    """One game's seat protocol as bytes (one instance per game, shared by its seats)."""

    def __init__(self, codec: GameCodec) -> None:
        self.codec = codec

    @staticmethod
    @cache
    def for_game(game: str) -> SeatWire:
        return SeatWire(codec_for(game))

    # -- the referee's messages ----------------------------------------------------------
    def start(self, start: MatchStart) -> bytes:
        message = pb.MatchStart(match_id=start.match_id, game=start.game,
                                game_version=start.game_version, seat=start.seat,
                                players=start.players, seat_names=list(start.seat_names),
                                move_timeout_s=start.move_timeout_s, time_bank_s=start.time_bank_s)
        encode_options(dict(start.options), message.options)
        return pb.RefereeMessage(start=message).SerializeToString()

    def decision(self, decision: Decision) -> bytes:
        return decision_message(self.codec, decision.decision_id, decision.time_left_s,
                                decision.observation, decision.legal_actions, decision.events)

    def events(self, events: Sequence[Any]) -> bytes:
        return events_message(self.codec, events)

    def notice(self, text: str, decision_id: int) -> bytes:
        return pb.RefereeMessage(notice=pb.Notice(text=text, decision_id=decision_id)) \
            .SerializeToString()

    def end(self, end: MatchEnd) -> bytes:
        return end_message(self.codec, end.scores, end.ranks, end.faults, end.events)

    # -- the bot's messages --------------------------------------------------------------
    def reply(self, data: bytes, asked: int) -> Reply:
        """A ``BotMessage``'s bytes, read while the seat is asked decision ``asked``."""
        try:
            message = pb.BotMessage.FromString(data)
        except DecodeError:  # bytes that are no BotMessage
            return Garbled()
        choice = message.choice  # the usual answer first: the index of a legal action
        if choice.decision_id == asked and choice.HasField("index") and message.HasField("choice"):
            return Choice(asked, index=choice.index, note=choice.note)
        kind = message.WhichOneof("kind")
        if kind == "failure":
            return Failed(message.failure.message[:REASON_LENGTH])
        if kind != "choice":
            return OtherMessage(kind or "")
        pick = choice.WhichOneof("pick")
        if pick == "index":
            return Choice(choice.decision_id, index=choice.index, note=choice.note)
        if pick == "action":
            try:
                return Choice(choice.decision_id, action=self.codec.decode_action(choice.action),
                              note=choice.note)
            except (GameError, ValueError):
                pass
        return Choice(choice.decision_id, unreadable=True)
