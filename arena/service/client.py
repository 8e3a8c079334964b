"""A client of the operator service, for the command line's ``--arena HOST:PORT``.

It speaks gRPC so that the command line does not have to: it is the
:class:`arena.app.operations.Operations` of a server, every call returning what the local
use cases return (:class:`BotInfo`, :class:`LeaderboardRow`, a ladder's view, an export's
text) or the plain documents the local commands print (``docs/json.md``), and every
refusal from the server (or a server that cannot be reached) is a :class:`RemoteError`
with one line: the server's own message, which names what was wrong.
"""

from __future__ import annotations

import json
import socket
import ssl
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import grpc

from arena.app import watch
from arena.app.bots import LogFile, Submitted
from arena.app.documents import ExportText
from arena.app.ladders import LadderVersion, LadderView
from arena.app.operations import Notice
from arena.app.tournaments import TournamentRequest
from arena.app.watch import WatchUpdate
from arena.errors import ArenaError, ErrorKind, kind_of_status
from arena.players import builds, submissions
from arena.service.operator import BUILD_LOG_KEY, CHUNK_BYTES
from arena.storage.store import BotInfo, LeaderboardRow
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from arena.wire.codec import GameCodec, codec_for
from arena.wire.messages import FAULT_NAMES

TIMEOUT_S = 60.0
"""How long a call may take (a submission: its upload and its build, :data:`SUBMIT_TIMEOUT_S`)."""
SUBMIT_TIMEOUT_S = builds.BUILD_TIMEOUT_S + 120.0


class RemoteError(ArenaError):
    """The server refused a call, or could not be reached; one line, and the kind of the
    server's status (:mod:`arena.errors`). ``log``: the end of a failed build's log, when the
    server sent it."""

    kind = ErrorKind.UNAVAILABLE

    def __init__(self, message: str, code: grpc.StatusCode | None = None, log: str = "") -> None:
        super().__init__(message, kind=None if code is None else kind_of_status(code.name))
        self.code = code
        self.log = log


def _when(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text) if text else datetime.fromtimestamp(0, UTC)
    except ValueError:
        return datetime.fromtimestamp(0, UTC)


def _bot(info: pb.BotInfo) -> tuple[BotInfo, str]:
    return BotInfo(id=info.id, name=info.name, version=info.version, command=info.command,
                   remote=info.remote, removed=False, created_at=_when(info.created_at),
                   content_hash=info.content_hash or None,
                   games=tuple(info.games) if info.content_hash else None), info.author


def _tournament_row(info: pb.TournamentInfo) -> dict[str, Any]:
    """A tournament as ``tournament list --json`` has it, with the scheduler's note."""
    return {"id": info.id, "game": info.game, "players": info.players, "bots": list(info.bots),
            "format": info.format, "finished": info.finished, "total": info.matches,
            "void": info.void, "status": info.status, "created_at": info.created_at or None,
            "finished_at": info.finished_at or None, "note": info.note or None,
            "sprt": _sprt_row(info.sprt) if info.HasField("sprt") else None,
            "scrimmage": info.scrimmage}


def _sprt_row(sprt: pb.SprtProgress) -> dict[str, Any]:
    """A versus's SPRT as ``tournament list --json`` has it (``sprt``)."""
    return {"sets": sprt.sets, "decision": sprt.decision or None,
            "llr": sprt.llr if sprt.HasField("llr") else None,
            "lower": sprt.lower if sprt.HasField("lower") else None,
            "upper": sprt.upper if sprt.HasField("upper") else None}


class ArenaClient:
    """The operator service at ``address`` (``HOST:PORT``, or ``unix:PATH`` for the operator
    socket), with ``token`` (the operator's or an author's), over TLS when ``tls_ca`` names
    the certificate to trust."""

    def __init__(self, address: str, token: str | None, tls_ca: str | None = None) -> None:
        self.address = address
        self._tls = tls_ca is not None
        self._metadata = () if not token else (("authorization", f"Bearer {token}"),)
        options = [("grpc.max_receive_message_length", 16 * 1024 * 1024)]
        if tls_ca is not None:
            try:
                roots = Path(tls_ca).read_bytes()
            except OSError as err:
                raise RemoteError(f"cannot read --tls-ca {tls_ca!r}: {err.strerror or err}") \
                    from None
            self._channel = grpc.secure_channel(
                address, grpc.ssl_channel_credentials(root_certificates=roots), options)
        else:
            self._channel = grpc.insecure_channel(address, options)
        self._stub = pb_grpc.OperatorServiceStub(self._channel)

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> ArenaClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _call(self, method: str, request: Any, timeout: float = TIMEOUT_S) -> Any:
        try:
            return getattr(self._stub, method)(request, metadata=self._metadata, timeout=timeout)
        except grpc.RpcError as err:
            raise self._error(err) from None

    def _error(self, err: grpc.RpcError) -> RemoteError:
        assert isinstance(err, grpc.Call)
        code, details = err.code(), (err.details() or "").strip()
        log = ""
        for key, value in err.trailing_metadata() or ():
            if key == BUILD_LOG_KEY:
                log = bytes(value).decode("utf-8", "replace")
        if code == grpc.StatusCode.UNAVAILABLE and not self._tls and speaks_tls(self.address):
            return RemoteError(f"the arena at {self.address} speaks TLS: pass --tls-ca FILE, the "
                               "certificate to trust (or ARENA_REMOTE_CA)", code)
        if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED) and \
                not details.startswith(("the ", "cannot")):
            return RemoteError(f"cannot reach the arena at {self.address} "
                               f"({code.name.lower()}: {details.splitlines()[0] if details else ''})",
                               code)
        line = details.splitlines()[0] if details else code.name.lower().replace("_", " ")
        return RemoteError(line, code, log)

    # ---------------------------------------------------------------- bots

    def bots(self) -> list[tuple[BotInfo, str]]:
        """Every bot version, with its author's name (empty: the operator's)."""
        return [_bot(b) for b in self._call("ListBots", pb.ListBotsRequest()).bots]

    def submit(self, path: Path, label: str | None, known_games: Sequence[str]) -> Submitted:
        """Upload a submission: an archive's bytes as they are (the server checks them), or a
        folder packed here (as a gzipped canonical tar) after the same checks."""
        if path.is_dir():
            import gzip  # a folder only

            data = gzip.compress(submissions.read_submission(path, known_games).archive, 6, mtime=0)
            chunks: Iterator[bytes] = iter([data[i:i + CHUNK_BYTES]
                                            for i in range(0, len(data), CHUNK_BYTES)])
        elif path.is_file():
            chunks = _file_chunks(path)
        else:
            raise submissions.SubmissionError(f"{str(path)!r} is not a folder or an archive")

        def requests() -> Iterator[pb.SubmitBotRequest]:
            first = True
            for chunk in chunks:
                yield pb.SubmitBotRequest(label=(label or "") if first else "", data=chunk)
                first = False
            if first:
                yield pb.SubmitBotRequest(label=label or "")

        answer = self._call("SubmitBot", requests(), SUBMIT_TIMEOUT_S)
        bot, author = _bot(answer.bot)
        return Submitted(bot, author, answer.new, answer.files, answer.size,
                         answer.build_s if answer.build_s else None)

    def bot_log(self, bot: str, max_bytes: int = 0) -> tuple[str, list[LogFile]]:
        answer = self._call("ReadBotLog", pb.ReadBotLogRequest(bot=bot, max_bytes=max_bytes))
        return answer.bot, [LogFile(f.name, f.text, f.truncated) for f in answer.files]

    # ---------------------------------------------------------------- tournaments

    def tournaments(self) -> list[dict[str, Any]]:
        return [_tournament_row(t)
                for t in self._call("ListTournaments", pb.ListTournamentsRequest()).tournaments]

    def tournament_report(self, tournament_id: int) -> dict[str, Any]:
        """``tournament show --json``'s document, from the server."""
        answer = self._call("GetTournament", pb.GetTournamentRequest(tournament_id=tournament_id))
        report: dict[str, Any] = json.loads(answer.report_json)
        return report

    def create_tournament(self, asked: TournamentRequest, notice: Notice) -> dict[str, Any]:
        """Queue a tournament on the server; its row as ``tournament list`` gives it (the
        server keeps its notices)."""
        limits = asked.limits
        request = pb.CreateTournamentRequest(
            game=asked.game, bots=list(asked.bots), repetitions=asked.repetitions,
            format=asked.format, field=list(asked.field), sprt=asked.sprt or "",
            options=dict(asked.options), parallel=asked.parallel, deals=asked.deals or "",
            deals_from_seed=asked.deals_from_seed, move_timeout_s=asked.move_timeout_s,
            start_timeout_s=asked.start_timeout_s, time_bank_s=asked.time_bank_s,
            event_delay_s=asked.event_delay_s, bot_memory=limits.memory,
            bot_cpu_seconds=limits.cpu_seconds, bot_processes=limits.processes,
            bot_cpus=limits.cpus, bot_open_files=limits.open_files,
            public_notes=asked.public_notes)
        if asked.players is not None:
            request.players = asked.players
        if asked.sets is not None:
            request.sets = asked.sets
        if asked.seed is not None:
            request.seed = asked.seed
        return _tournament_row(self._call("CreateTournament", request))

    def request_scrimmage(self, game: str, mine: Sequence[str], against: Sequence[str],
                          sets: int, sprt: str | None) -> dict[str, Any]:
        """Queue a scrimmage for the caller (an author); its row as ``tournament list``
        gives it."""
        return _tournament_row(self._call("RequestScrimmage", pb.ScrimmageRequest(
            game=game, bots=list(mine), against=list(against), sets=sets, sprt=sprt or "")))

    def cancel_tournament(self, tournament_id: int) -> int:
        return int(self._call("CancelTournament",
                              pb.CancelTournamentRequest(tournament_id=tournament_id)).voided)

    def void_tournament(self, tournament_id: int) -> int:
        return int(self._call("VoidTournament",
                              pb.VoidTournamentRequest(tournament_id=tournament_id)).counted)

    def resume_tournament(self, tournament_id: int) -> dict[str, Any]:
        """Queue an interrupted tournament again for the server's scheduler; its row."""
        return _tournament_row(self._call(
            "ResumeTournament", pb.ResumeTournamentRequest(tournament_id=tournament_id)))

    def export_tournament(self, tournament_id: int, export_format: str) -> ExportText:
        """The export's text as the server sends it, chunk by chunk (no message holds it all)."""
        data, matches = bytearray(), 0
        try:
            for chunk in self._stub.ExportTournament(
                    pb.ExportTournamentRequest(tournament_id=tournament_id, format=export_format),
                    metadata=self._metadata, timeout=TIMEOUT_S):
                data += chunk.data
                matches = chunk.matches or matches
        except grpc.RpcError as err:
            raise self._error(err) from None
        return ExportText(data.decode("utf-8"), matches)

    def ladder(self, game: str) -> LadderView:
        answer = self._call("GetLadder", pb.GetLadderRequest(game=game))
        return LadderView(answer.id, answer.game, answer.status, answer.matches, tuple(
            LadderVersion(v.bot, v.mu, v.sigma, v.matches, v.suspended or None)
            for v in answer.versions))

    # ---------------------------------------------------------------- ratings

    def leaderboard(self, game: str | None, pool: str | None, tournament_id: int | None,
                    all_pools: bool) -> list[LeaderboardRow]:
        rows = [LeaderboardRow(game=r.game, bot_id=r.bot_id, name=r.name, version=r.version,
                               mu=r.mu, sigma=r.sigma, conservative=r.conservative,
                               matches=r.matches, wins=r.wins, faults=r.faults,
                               pool=r.pool or r.game)
                for r in self._call("Leaderboard", pb.LeaderboardRequest(
                    game=game or "", pool=pool or "", tournament_id=tournament_id or 0)).rows]
        if tournament_id is None and pool is None and not all_pools:  # the standard pools
            rows = [row for row in rows if row.pool == row.game]
        return rows


    # ---------------------------------------------------------------- matches

    def watch_match(self, match_id: int, all_hands: bool = False) -> Iterator[WatchUpdate]:
        """``WatchMatch``: the match as it stands, each batch of new public events (with
        ``all_hands``, every event, where the server's secrecy rule allows; decoded to the
        game's typed events), then its end with its result. No deadline: a match may run for
        long; the server ends a watch of a match that does not start."""
        codec: GameCodec | None = None
        request = pb.WatchMatchRequest(match_id=match_id, all_hands=all_hands)
        try:
            for update in self._stub.WatchMatch(request, metadata=self._metadata):
                info = update.match
                codec = codec or codec_for(info.game)
                over = update.ended
                seats = tuple(watch.SeatResult(
                    s.seat, s.bot, s.rank if over and s.rank else None,
                    s.score if over and s.rank else None,
                    FAULT_NAMES.get(s.fault) or None) for s in info.seats)
                yield watch.WatchUpdate(info.id, info.game, info.status, seats,
                                        tuple(codec.decode_event(e) for e in update.events), over)
        except grpc.RpcError as err:
            raise self._error(err) from None


def speaks_tls(address: str, timeout_s: float = 5.0) -> bool:
    """Whether the server at ``HOST:PORT`` answers a TLS handshake (a plain-text client of a
    TLS port is only told "Socket closed"). The certificate is not checked: this only asks
    which language the port speaks, and sends nothing else."""
    host, sep, port = address.rpartition(":")
    if address.startswith("unix:") or not sep or not port.isdigit():
        return False
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    context.set_alpn_protocols(["h2"])
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s) as raw, \
                context.wrap_socket(raw, server_hostname=host.strip("[]") or None):
            return True
    except (OSError, ssl.SSLError, ValueError):
        return False


def _file_chunks(path: Path) -> Iterator[bytes]:
    """An archive's bytes in chunks, read as they are sent (the server stops a large one)."""
    try:
        with path.open("rb") as file:
            while chunk := file.read(CHUNK_BYTES):
                yield chunk
    except OSError as err:
        raise submissions.SubmissionError(f"cannot read {str(path)!r}: {err.strerror or err}") \
            from None


__all__ = ["ArenaClient", "LogFile", "RemoteError", "Submitted", "WatchUpdate"]
