"""A bot's bytes become the typed replies the referee judges: every kind of message."""

from __future__ import annotations

from arena.games import get_game
from arena.match.protocol import Choice, Garbled, OtherMessage
from arena.net.seat_wire import SeatWire
from arena.v1 import arena_pb2 as pb

GAME = "king"


def _reply(message: pb.BotMessage | bytes, asked: int = 7) -> object:
    data = message if isinstance(message, bytes) else message.SerializeToString()
    return SeatWire.for_game(GAME).reply(data, asked)


def test_a_choice_of_an_index_names_its_decision_whatever_the_decision_asked() -> None:
    assert _reply(pb.BotMessage(choice=pb.Choice(decision_id=7, index=3))) == Choice(7, index=3)
    assert _reply(pb.BotMessage(choice=pb.Choice(decision_id=6, index=0))) == Choice(6, index=0)
    big = pb.BotMessage(choice=pb.Choice(decision_id=2**63, index=2**31))
    assert _reply(big) == Choice(2**63, index=2**31)


def test_an_action_named_in_full_is_decoded_and_a_foreign_one_is_unreadable() -> None:
    game = get_game(GAME)
    action = game.legal_actions(game.new(4, 1, dict(game.parse_options(4))))[0]
    wire = SeatWire.for_game(GAME)
    named = pb.BotMessage(choice=pb.Choice(decision_id=7, action=wire.codec.action(action)))
    assert _reply(named) == Choice(7, action=action)
    foreign = pb.BotMessage(choice=pb.Choice(decision_id=7, action=pb.GameAction()))
    assert _reply(foreign) == Choice(7, unreadable=True)
    assert _reply(pb.BotMessage(choice=pb.Choice(decision_id=7))) == Choice(7, unreadable=True)


def test_other_messages_and_garbage_are_told_apart() -> None:
    assert _reply(pb.BotMessage(hello=pb.Hello(credential="x"))) == OtherMessage("hello")
    assert _reply(pb.BotMessage()) == OtherMessage("")
    assert _reply(b"\xff\xff\xff") == Garbled()


def test_every_fault_has_its_wire_number_and_back() -> None:
    """The match layer's faults and the wire's enum name the same faults (two lists, one truth)."""
    from arena.match.faults import Fault
    from arena.wire.messages import FAULT_NAMES, FAULT_NUMBERS

    assert set(FAULT_NUMBERS) == {fault.value for fault in Fault}
    assert all(FAULT_NAMES[FAULT_NUMBERS[fault]] == fault for fault in Fault)
