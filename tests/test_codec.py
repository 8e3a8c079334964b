"""Every observation, action and event of random games survives the wire unchanged."""

from __future__ import annotations

import random

import pytest

from arena.games import all_games, get_game
from arena.match import conformance as suite
from arena.v1 import arena_pb2 as pb
from arena.wire import codec as codec_module
from arena.wire.codec import (
    chosen_index,
    codec_for,
    decision_message,
    end_message,
    events_message,
    match_log,
)


@pytest.mark.parametrize("name", list(all_games()))
def test_round_trip_of_random_games(name: str) -> None:
    game = get_game(name)
    codec = codec_for(name)
    checked = 0
    for seed in range(6):
        trace = suite.random_game(game, seed)
        state = game.new(trace.players, seed, trace.options)
        for action in trace.actions:
            seat = game.to_act(state)
            assert seat is not None
            obs = game.observe(state, seat)
            assert codec.decode_observation(codec.observation(obs)) == obs
            for legal in game.legal_actions(state):
                wire = codec.action(legal)
                assert codec.decode_action(type(wire).FromString(wire.SerializeToString())) == legal
            request = pb.DecisionRequest.FromString(
                codec.actions_wire(game.legal_actions(state)))
            assert [codec.decode_action(a) for a in request.legal_actions] == \
                list(game.legal_actions(state))
            for tagged in game.apply(state, action):
                assert codec.decode_event(codec.event(tagged.event)) == tagged.event
                checked += 1
        for seat in range(trace.players):
            obs = game.observe(state, seat)
            assert codec.decode_observation(codec.observation(obs)) == obs
    assert checked > 0


@pytest.mark.parametrize("name", list(all_games()))
def test_every_declared_type_has_a_message(name: str) -> None:
    game = get_game(name)
    codec = codec_for(name)
    action_fields = {f.message_type.name for f in codec.pb.Action.DESCRIPTOR.fields}
    event_fields = {f.message_type.name for f in codec.pb.Event.DESCRIPTOR.fields}
    assert {t.__name__ for t in game.action_types} == action_fields
    assert {t.__name__ for t in game.event_types} == event_fields


@pytest.mark.parametrize("name", list(all_games()))
def test_remembered_encodings_are_the_fresh_bytes(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Repeated immutable items, tuples given again and legal actions are encoded once, then
    merged from bytes: the result is byte for byte what encoding them afresh gives."""
    game = get_game(name)
    codec = codec_for(name)
    requests = []
    for seed in range(3):
        trace = suite.random_game(game, seed)
        state = game.new(trace.players, seed, trace.options)
        for action in trace.actions:
            seat = game.to_act(state)
            assert seat is not None
            requests.append((game.observe(state, seat), list(game.legal_actions(state))))
            game.apply(state, action)

    def encode_all() -> list[bytes]:
        out = []
        for obs, legal in requests:
            request = pb.DecisionRequest()
            request.observation.MergeFromString(codec.observation_wire(obs))
            request.MergeFromString(codec.actions_wire(legal))
            out.append(request.SerializeToString())
            out.append(codec.action_wire(legal[-1]))  # as logged
        return out

    encode_all()  # every item seen once: from here on, remembered
    remembered = encode_all()
    monkeypatch.setattr(codec_module, "REMEMBER", False)
    assert remembered == encode_all()


@pytest.mark.parametrize("name", list(all_games()))
def test_wire_bytes_are_the_messages_built_field_by_field(name: str) -> None:
    """What the referee sends (built from bytes) parses to the very messages the codec builds."""
    game = get_game(name)
    codec = codec_for(name)
    for seed in range(3):
        trace = suite.random_game(game, seed)
        state = game.new(trace.players, seed, trace.options)
        events = [codec.event(t.event).SerializeToString() for t in game.opening_events(state)]
        for number, action in enumerate(trace.actions, start=1):
            seat = game.to_act(state)
            assert seat is not None
            observation, legal = game.observe(state, seat), list(game.legal_actions(state))
            expected = pb.RefereeMessage()
            request = expected.decision
            request.decision_id, request.time_left_s = number, 2.5 * (number % 3)
            request.observation.CopyFrom(codec.observation(observation))
            request.legal_actions.extend(codec.action(a) for a in legal)
            request.events.extend(pb.GameEvent.FromString(e) for e in events)
            sent = decision_message(number, 2.5 * (number % 3), codec.observation_wire(observation),
                                    codec.actions_wire(legal), events)
            parsed = pb.RefereeMessage.FromString(sent)
            assert parsed == expected
            # field presence too (an optional field set to 0 is sent): the same canonical bytes
            assert parsed.SerializeToString(deterministic=True) == expected.SerializeToString(
                deterministic=True)
            events = [codec.event(t.event).SerializeToString() for t in game.apply(state, action)]
        alone = pb.RefereeMessage.FromString(events_message(events))
        assert [codec.decode_event(e) for e in alone.events.events] == [
            codec.decode_event(pb.GameEvent.FromString(e)) for e in events]
        end = pb.MatchEnd(scores=[1.5, -2.0], ranks=[1, 2], faults=[pb.FAULT_NONE, pb.FAULT_TIMEOUT])
        last = pb.RefereeMessage.FromString(end_message(end, events)).end
        assert list(last.scores) == [1.5, -2.0] and list(last.faults) == [0, pb.FAULT_TIMEOUT]
        assert [e.SerializeToString() for e in last.events] == events


def test_match_log_bytes_are_the_log_built_field_by_field() -> None:
    """The referee's log, written as bytes, is the MatchLog protobuf builds, field by field,
    at the edges too: zero ids and seats (left out), fallbacks, no time, -0.0, big numbers."""
    codec = codec_for("king")
    action = codec.action(get_game("king").legal_actions(
        get_game("king").new(4, 1, dict(get_game("king").parse_options(4, None))))[0])
    event = pb.GameEvent(king=pb.GameEvent().king).SerializeToString()  # an empty event is one too
    decisions = [(0, 0, action.SerializeToString(), True, 0.0),
                 (1, 3, action.SerializeToString(), False, 0.25),
                 (70_000, 1, b"", False, -0.0),
                 (2**40, 2**20, action.SerializeToString(), True, 1e9)]
    events = [(event, None), (action.SerializeToString(), frozenset({2, 0})), (b"", frozenset()),
              (event, frozenset(range(300)))]
    entries = [entry for pair in zip(decisions, events, strict=True) for entry in pair]
    expected = pb.MatchLog()
    for decision_id, seat, wire, fallback, seconds in decisions:
        logged = expected.entries.add().decision
        logged.decision_id, logged.seat, logged.fallback, logged.seconds = (
            decision_id, seat, fallback, seconds)
        logged.action.MergeFromString(wire)
        logged.action.SetInParent()
        event_wire, audience = events[len(expected.entries) // 2]
        told = expected.entries.add().event
        told.event.MergeFromString(event_wire)
        told.event.SetInParent()
        if audience is None:
            told.public = True
        else:
            told.visible_to.extend(sorted(audience))
    got = pb.MatchLog.FromString(match_log(entries))
    assert got == expected
    assert got.SerializeToString(deterministic=True) == expected.SerializeToString(deterministic=True)


def test_the_usual_answer_is_read_without_parsing_and_nothing_else_is() -> None:
    """chosen_index reads exactly a choice of an index for the decision asked, as protobuf
    writes it; for anything else it says None (the referee then parses in full), and
    whatever it reads is what protobuf reads."""
    rng = random.Random(5)
    for _ in range(20_000):
        decision_id = rng.choice([1, 127, 128, 300, 2**20, 2**63, rng.getrandbits(64) or 1])
        index = rng.choice([0, 1, 127, 128, 16383, 16384, 2**31])
        data = pb.BotMessage(choice=pb.Choice(decision_id=decision_id, index=index)).SerializeToString()
        assert chosen_index(data, decision_id) == (index if index < 16384 else None)
        assert chosen_index(data, decision_id + 1) is None
        assert chosen_index(data[:-1], decision_id) is None
        flipped = bytearray(data)
        flipped[rng.randrange(len(flipped))] = rng.randrange(256)
        read = chosen_index(bytes(flipped), decision_id)
        if read is not None:
            message = pb.BotMessage.FromString(bytes(flipped))
            assert message.choice.decision_id == decision_id and message.choice.index == read
            assert message.choice.WhichOneof("pick") == "index"
    hello = pb.BotMessage(hello=pb.Hello(credential="x")).SerializeToString()
    assert chosen_index(hello, 1) is None and chosen_index(b"", 1) is None


@pytest.mark.parametrize("name", list(all_games()))
def test_encode_wire_takes_a_oneof_member_too(name: str) -> None:
    """encode_wire of an action into its game's Action message (a oneof member, filled into
    the message field by field) is the bytes protobuf writes for it."""
    game = get_game(name)
    codec = codec_for(name)
    trace = suite.random_game(game, 0)
    state = game.new(trace.players, 0, trace.options)
    for action in game.legal_actions(state):
        expected = getattr(codec.action(action), codec.field)
        assert codec_module.encode_wire(type(expected)(), action) == expected.SerializeToString()
