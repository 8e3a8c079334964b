"""Every observation, action and event of random games survives the wire unchanged, and
what the referee's links send is what protobuf builds field by field."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from arena.games import all_games, get_game
from arena.match import conformance as suite
from arena.v1 import arena_pb2 as pb
from arena.wire import memo
from arena.wire.codec import codec_for
from arena.wire.messages import (
    FAULT_NUMBERS,
    decision_message,
    end_message,
    events_message,
    match_log,
    read_match_log,
)

LEGAL = pb.DecisionRequest.DESCRIPTOR.fields_by_name["legal_actions"].number


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
                codec.action_pieces(memo.field_key(LEGAL), game.legal_actions(state)))
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


def _requests(name: str) -> list[tuple[int, Any, list[Any], list[Any]]]:
    """(decision id, observation, legal actions, events riding along) along random games."""
    game = get_game(name)
    out = []
    for seed in range(3):
        trace = suite.random_game(game, seed)
        state = game.new(trace.players, seed, trace.options)
        events = [t.event for t in game.opening_events(state)]
        for number, action in enumerate(trace.actions, start=1):
            seat = game.to_act(state)
            assert seat is not None
            out.append((number, game.observe(state, seat), list(game.legal_actions(state)), events))
            events = [t.event for t in game.apply(state, action)]
    return out


@pytest.mark.parametrize("name", list(all_games()))
def test_remembered_encodings_are_the_fresh_bytes(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Repeated immutable items, tuples given again and offered actions are encoded once,
    then merged from bytes: the result is byte for byte what encoding them afresh gives."""
    codec = codec_for(name)
    requests = _requests(name)

    def encode_all() -> list[bytes]:
        return [decision_message(codec, number, 1.5, obs, legal, events)
                for number, obs, legal, events in requests]

    encode_all()  # every item seen once: from here on, remembered
    remembered = encode_all()
    monkeypatch.setattr(memo, "REMEMBER", False)
    assert remembered == encode_all()


@pytest.mark.parametrize("name", list(all_games()))
def test_referee_messages_are_the_messages_built_field_by_field(name: str) -> None:
    """What a link sends parses to the very messages built field by field."""
    codec = codec_for(name)
    for number, observation, legal, events in _requests(name):
        expected = pb.RefereeMessage()
        request = expected.decision
        request.decision_id, request.time_left_s = number, 2.5 * (number % 3)
        request.observation.CopyFrom(codec.observation(observation))
        request.legal_actions.extend(codec.action(a) for a in legal)
        request.events.extend(codec.event(e) for e in events)
        sent = decision_message(codec, number, 2.5 * (number % 3), observation, legal, events)
        parsed = pb.RefereeMessage.FromString(sent)
        assert parsed == expected
        # field presence too (an optional field set to 0 is sent): the same canonical bytes
        assert parsed.SerializeToString(deterministic=True) == expected.SerializeToString(
            deterministic=True)
        if events:
            alone = pb.RefereeMessage.FromString(events_message(codec, events))
            assert [codec.decode_event(e) for e in alone.events.events] == events
    last = pb.RefereeMessage.FromString(end_message(codec, [1.5, -2.0], [1, 2], ["", "timeout"],
                                                    events)).end
    assert list(last.scores) == [1.5, -2.0] and list(last.faults) == [0, FAULT_NUMBERS["timeout"]]
    assert [codec.decode_event(e) for e in last.events] == events


def test_match_log_is_the_log_built_field_by_field_and_reads_back() -> None:
    """The referee's log is the MatchLog built field by field, at the edges too: zero ids
    and seats, fallbacks, no time, -0.0, big numbers; and it reads back as it was given."""
    game = get_game("king")
    codec = codec_for("king")
    state = game.new(4, 1, dict(game.parse_options(4, None)))
    action = game.legal_actions(state)[0]
    event = game.opening_events(state)[0].event
    decisions = [(0, 0, action, True, 0.0, "", 0), (1, 3, action, False, 0.25, "mine: 7♥", 0),
                 (70_000, 1, action, False, -0.0, "", 0),
                 (2**40, 2**20, action, True, 1e9, "x" * 256, 2**31)]
    events = [(event, None), (event, frozenset({2, 0})), (event, frozenset()),
              (event, frozenset(range(300)))]
    entries: list[Any] = [entry for pair in zip(decisions, events, strict=True) for entry in pair]
    expected = pb.MatchLog()
    for decision_id, seat, value, fallback, seconds, note, cut in decisions:
        logged = expected.entries.add().decision
        logged.decision_id, logged.seat, logged.fallback, logged.seconds = (
            decision_id, seat, fallback, seconds)
        logged.note, logged.note_cut = note, cut
        logged.action.CopyFrom(codec.action(value))
        told_event, audience = events[len(expected.entries) // 2]
        told = expected.entries.add().event
        told.event.CopyFrom(codec.event(told_event))
        if audience is None:
            told.public = True
        else:
            told.visible_to.extend(sorted(audience))
    data = match_log(codec, entries)
    got = pb.MatchLog.FromString(data)
    assert got == expected
    assert got.SerializeToString(deterministic=True) == expected.SerializeToString(deterministic=True)
    assert read_match_log(codec, data) == entries


def test_a_table_by_identity_never_answers_for_an_object_that_took_a_dead_ones_id() -> None:
    """Objects made and dropped one after another reuse each other's ids: the table holds
    what it remembers, so an id it knows is always the same object's, and a fresh object
    is never given another's bytes, also once the table has forgotten all (its limit)."""

    @dataclasses.dataclass(frozen=True)
    class Item:
        n: int

    table = memo.Known(limit=8)
    for n in range(200):
        item = Item(n)  # the previous one is gone unless the table holds it
        assert table.data.get(id(item)) is None
        table.put(item, str(n).encode())
        assert table.data[id(item)] == str(n).encode()
        assert len(table.data) == len(table.held) <= 8
    assert all(table.data[id(item)] == str(item.n).encode() for item in table.held)
