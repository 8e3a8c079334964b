"""A tournament request's defaults are written once: the command line, the operator service,
the ladder, ``match play`` and the SDK's ``play_local`` all take theirs from there."""

from __future__ import annotations

import inspect
from typing import Any

import typer

import arena.cli  # noqa: F401  (every command group registers itself on import)
from arena.app.tournaments import TournamentRequest
from arena.cli.app import app
from arena.match.referee import MatchSettings
from arena.players.limits import DEFAULT_LIMIT_TEXTS, DEFAULT_LIMITS, ResourceLimits
from arena.service.messages import tournament_request
from arena.tournament.settings import DEFAULTS, RunSettings
from arena.v1 import arena_pb2 as pb
from sdk.local import play_local


def _defaults(*path: str) -> dict[str, Any]:
    command: Any = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    return {param.name: param.default for param in command.params}


def test_the_defaults_are_the_referees_clocks_and_the_limits_default() -> None:
    clocks = MatchSettings()
    assert (DEFAULTS.move_timeout_s, DEFAULTS.start_timeout_s, DEFAULTS.time_bank_s,
            DEFAULTS.event_delay_s) == (clocks.move_timeout_s, clocks.start_timeout_s,
                                        clocks.time_bank_s, clocks.event_delay_s)
    assert DEFAULTS.limits == DEFAULT_LIMITS == ResourceLimits.from_texts(DEFAULT_LIMIT_TEXTS)
    request = TournamentRequest(game="kill", bots=["a", "b"])
    assert request.settings() == RunSettings()


def test_run_and_create_offer_the_requests_defaults() -> None:
    request = TournamentRequest(game="kill", bots=["a"])
    for command in ("run", "create"):
        given = _defaults("tournament", command)
        assert given["move_timeout"] == request.move_timeout_s
        assert given["start_timeout"] == request.start_timeout_s
        assert given["time_bank"] == request.time_bank_s
        assert given["event_delay"] == request.event_delay_s
        assert given["parallel"] == request.parallel
        assert (given["bot_memory"], given["bot_cpu_seconds"], given["bot_processes"],
                given["bot_cpus"], given["bot_open_files"]) == (
            request.limits.memory, request.limits.cpu_seconds, request.limits.processes,
            request.limits.cpus, request.limits.open_files)
    assert _defaults("tournament", "run")["wait_for_remote"] == DEFAULTS.wait_for_remote_s
    for path in (("ladder", "start"), ("match", "play")):
        given = _defaults(*path)
        assert given["move_timeout"] == DEFAULTS.move_timeout_s
        assert given["start_timeout"] == DEFAULTS.start_timeout_s


def test_the_operator_service_fills_what_a_request_leaves_out_with_the_same_defaults() -> None:
    decoded = tournament_request(pb.CreateTournamentRequest(game="kill", bots=["a", "b"]))
    assert decoded == TournamentRequest(game="kill", bots=["a", "b"], field=[])
    sent = tournament_request(pb.CreateTournamentRequest(
        game="kill", bots=["a", "b"], move_timeout_s=2.5, parallel=4, bot_memory="512MB"))
    assert (sent.move_timeout_s, sent.parallel, sent.limits.memory) == (2.5, 4, "512MB")
    assert sent.limits.processes == DEFAULT_LIMIT_TEXTS.processes


def test_play_local_keeps_a_tournaments_clocks() -> None:
    given = inspect.signature(play_local).parameters
    assert given["move_timeout_s"].default == DEFAULTS.move_timeout_s
    assert given["time_bank_s"].default == DEFAULTS.time_bank_s
    assert given["event_delay_s"].default == DEFAULTS.event_delay_s
