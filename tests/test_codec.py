"""Every observation, action and event of random games survives the wire unchanged."""

from __future__ import annotations

import pytest

from arena.codec import codec_for
from arena.games import all_games, get_game
from arena.games import conformance as suite


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
