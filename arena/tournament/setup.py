"""Creating a tournament (a round-robin, a gauntlet, a match between two bots), and the
rules for resuming one.

Everything is checked before anything is written: a tournament that cannot be
played as asked is a :class:`TournamentError` (or the game's, the store's, a
bot command's or a TLS file's own error), one clear line, and the database is
left as it was. The messages name the ``arena tournament`` flags, since that is
where the values come from.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from arena.games import get_game
from arena.net.tls import check_tls_files
from arena.players.limits import FLAGS as LIMIT_FLAGS
from arena.players.process import parse_command
from arena.rating.stats import SprtSettings
from arena.storage.store import BotInfo, Store, TournamentInfo
from arena.tournament.errors import TournamentError
from arena.tournament.formats import GAUNTLET, KINDS, ROUND_ROBIN, VERSUS, Format
from arena.tournament.schedule import Deals, gauntlet, round_robin, versus
from arena.tournament.settings import RunSettings


def name_version(label: str) -> tuple[str, str | None]:
    """``NAME`` or ``NAME@VERSION`` as (name, version or None: the newest)."""
    name, _, version = label.partition("@")
    return name, version or None


def remote_access(listen: str | None, tls_cert: str | None,
                  tls_key: str | None) -> tuple[str | None, str | None, str | None]:
    """The checked --listen address and TLS files (absolute paths), before anything is written."""
    if listen is not None:
        host, sep, port = listen.strip().rpartition(":")
        if not sep or not host or not port.isdigit() or int(port) > 65535:
            raise TournamentError(f"--listen must be HOST:PORT (e.g. 0.0.0.0:7000), not {listen!r}")
        listen = f"{host}:{int(port)}"
    if (tls_cert is None) != (tls_key is None):
        raise TournamentError("give both --tls-cert and --tls-key, or neither")
    if tls_cert is None or tls_key is None:
        return listen, None, None
    if listen is None:
        raise TournamentError("--tls-cert and --tls-key secure the --listen address: "
                              "give --listen HOST:PORT too")
    check_tls_files(tls_cert, tls_key)
    return listen, str(Path(tls_cert).resolve()), str(Path(tls_key).resolve())


DUPLICATE, INDEPENDENT = "duplicate", "independent"


@dataclass(frozen=True)
class Plan:
    """The format of a tournament to create, with bots by label (``NAME`` or ``NAME@VERSION``).

    A round-robin plays every group of the bots; a gauntlet every group of one of the bots
    (the challengers) and the ``field``; a versus match the two bots over ``sets`` duplicate
    sets, the ``field`` in the other seats, stopping early when ``sprt`` decides."""

    kind: str = ROUND_ROBIN
    field: Sequence[str] = ()
    sets: int | None = None  # versus only: default VERSUS_SETS, or VERSUS_SPRT_SETS with sprt
    sprt: SprtSettings | None = None


VERSUS_SETS = 100
"""Sets of a versus match without an SPRT, unless --sets says otherwise."""
VERSUS_SPRT_SETS = 2000
"""The most sets of a versus match with an SPRT (it usually decides long before)."""



def check_plays(bot: BotInfo, game: str) -> None:
    """Refuse, in one line, a bot whose registration lists its games (a submitted version's
    manifest) without ``game``: a tournament, a ladder and a match play it only in the games
    it says it plays. A bot registered without games (``arena bot add``) plays any game."""
    if bot.games is not None and game not in bot.games:
        names = ", ".join(bot.games) or "no game"
        raise TournamentError(f"{bot.label} does not play {game} (its manifest names {names})")

def create_tournament(store: Store, game_name: str, bot_names: Sequence[str], players: int | None,
                      repetitions: int, seed: int | None, raw_options: Mapping[str, str],
                      settings: RunSettings, deals: str | None = None,
                      deals_from_seed: bool = False,
                      notice: Callable[[str], None] | None = None, plan: Plan | None = None,
                      queued: bool = False, check_size: Callable[[int], None] | None = None
                      ) -> int:
    """Write a tournament of the named bots (``NAME`` or ``NAME@VERSION``), a round-robin
    unless ``plan`` says otherwise, with every match of its schedule pending; its id.
    ``players``: the game's default when None; ``seed``: a random one when None.

    Deals are secret (see :mod:`arena.tournament.schedule`) unless ``deals_from_seed``.
    ``deals``: :data:`DUPLICATE` (every seat rotation of a group plays the same deal),
    :data:`INDEPENDENT`, or None: duplicate unless a remote bot takes part, since a
    remote bot cannot be kept from remembering a deal between rotations (a versus match
    is always played on duplicate sets). ``notice`` hears what an operator's choice allows
    bots to do. ``queued``: for the server's scheduler to play (``arena serve``), which
    resumes it after a crash (``served`` in its settings). ``check_size`` hears the number of
    matches of the schedule before anything is written (and may refuse it)."""
    plan = plan or Plan()
    say = notice or (lambda _: None)
    if plan.kind not in KINDS:
        raise TournamentError(f"--format must be one of {', '.join(KINDS)}, not {plan.kind!r}")
    if deals not in (None, DUPLICATE, INDEPENDENT):
        raise TournamentError(f"--deals must be {DUPLICATE} or {INDEPENDENT}, not {deals!r}")
    if plan.kind == VERSUS and deals == INDEPENDENT:
        raise TournamentError("a match between two bots is played on duplicate sets: "
                              "--deals independent does not apply")
    if plan.kind != VERSUS and (plan.sets is not None or plan.sprt is not None):
        raise TournamentError("--sets and --sprt are for a match between two bots "
                              "(--format versus)")
    if plan.kind == ROUND_ROBIN and plan.field:
        raise TournamentError("--field is for a gauntlet or a match between two bots: a "
                              "round-robin plays every --bot against every other")
    game = get_game(game_name)
    seats = players if players is not None else game.default_players
    options = game.parse_options(seats, dict(raw_options))
    bots = [store.get_bot(*name_version(label)) for label in bot_names]
    field_bots = [store.get_bot(*name_version(label)) for label in plan.field]
    for bot in (*bots, *field_bots):
        check_plays(bot, game.name)
        if bot.submitted:
            pass  # its command was checked against its code at submission
        elif not bot.remote:
            parse_command(bot.command, Path(bot.folder) if bot.folder else None)
        elif settings.listen is None:
            raise TournamentError(f"{bot.label} is a remote bot: give --listen HOST:PORT where it "
                                  "can connect")
    bot_ids = [bot.id for bot in bots]
    field_ids = [bot.id for bot in field_bots]
    if len(set(bot_ids + field_ids)) != len(bot_ids + field_ids):
        raise TournamentError("each bot may be named only once")
    remote = [b.label for b in (*bots, *field_bots) if b.remote]
    duplicate = plan.kind == VERSUS or deals == DUPLICATE or (deals is None and not remote)
    if duplicate and remote:
        say(f"duplicate deals with remote bots ({', '.join(remote)}): each plays every seat "
            "rotation of a deal and can remember it from one rotation to the next")
    tournament_seed = seed if seed is not None else secrets.randbits(63)
    if deals_from_seed:
        say(f"deals come from the public seed {tournament_seed}: a bot that searches seeds "
            "from what it sees can learn every deal")
    source = Deals(duplicate=duplicate, from_seed=deals_from_seed)
    chosen = Format(kind=plan.kind)
    if plan.kind == ROUND_ROBIN:
        schedule = round_robin(bot_ids, seats, repetitions, tournament_seed, source)
    elif plan.kind == GAUNTLET:
        schedule = gauntlet(bot_ids, field_ids, seats, repetitions, tournament_seed, source)
        chosen = Format(kind=GAUNTLET, challengers=tuple(bot_ids), field=tuple(field_ids))
    else:
        if len(bot_ids) != 2:
            raise TournamentError(f"a match between two bots takes exactly two --bot (A and B), "
                                  f"not {len(bot_ids)}; the other seats come from --field")
        if repetitions != 1:
            raise TournamentError("a match between two bots is as long as its --sets, not "
                                  "--repetitions")
        sets = plan.sets if plan.sets is not None else (
            VERSUS_SPRT_SETS if plan.sprt is not None else VERSUS_SETS)
        schedule = versus(bot_ids[0], bot_ids[1], field_ids, seats, sets, tournament_seed, source)
        chosen = Format(kind=VERSUS, challengers=tuple(bot_ids), field=tuple(field_ids),
                        sets=sets, sprt=plan.sprt)
    if check_size is not None:
        check_size(len(schedule))
    saved = {**settings.saved(), "deals": DUPLICATE if duplicate else INDEPENDENT,
             "deals_from_seed": deals_from_seed, "format": chosen.saved(),
             **({"served": True} if queued else {})}
    return store.create_tournament(
        game=game.name, players=seats, options=dict(options), seed=tournament_seed,
        repetitions=repetitions, bot_ids=bot_ids + field_ids, schedule=schedule, settings=saved,
        deal_key=source.stored_key, queued=queued)


@dataclass(frozen=True)
class Repeated:
    """What a resume repeats of the ``run`` that created the tournament (so that the
    same command line can be reused); None: not given. Each value given must equal
    the saved one."""

    game: str | None = None
    bots: Sequence[str] | None = None  # NAME or NAME@VERSION
    players: int | None = None
    repetitions: int | None = None
    seed: int | None = None
    options: Mapping[str, str] | None = None  # raw NAME=VALUE pairs, parsed by the game
    move_timeout_s: float | None = None
    start_timeout_s: float | None = None
    time_bank_s: float | None = None
    event_delay_s: float | None = None
    limits: Mapping[str, int | float | None] = field(default_factory=dict)
    """Bot limits given, by flag (``--bot-memory``: megabytes, ...), parsed; ``None``: unlimited."""


@dataclass(frozen=True)
class RemoteAccess:
    """Where remote bots connect on a resume; None: as saved."""

    listen: str | None = None
    tls_cert: str | None = None  # both or neither; given, they replace the saved pair
    tls_key: str | None = None
    wait_for_remote_s: float | None = None


def resume_settings(store: Store, tournament: TournamentInfo, parallel: int | None = None,
                    repeated: Repeated | None = None,
                    access: RemoteAccess | None = None) -> RunSettings:
    """The settings a resume plays with: the saved ones, with a new ``parallel`` and
    ``access`` if given. A tournament keeps its game, bots, seed, options, clocks and
    bot limits to the end: a ``repeated`` value that differs from the saved one is a
    :class:`TournamentError` (checked before anything runs)."""
    saved = RunSettings.from_saved(tournament.settings, parallel)
    check_unchanged(store, tournament, saved, repeated or Repeated())
    access = access or RemoteAccess()
    new_tls = access.tls_cert is not None or access.tls_key is not None
    address, cert, key = remote_access(
        access.listen or saved.listen,
        *((access.tls_cert, access.tls_key) if new_tls else (saved.tls_cert, saved.tls_key)))
    return replace(saved, listen=address, tls_cert=cert, tls_key=key,
                   wait_for_remote_s=saved.wait_for_remote_s if access.wait_for_remote_s is None
                   else access.wait_for_remote_s)


def check_unchanged(store: Store, tournament: TournamentInfo, saved: RunSettings,
                    repeated: Repeated) -> None:
    """Refuse, before anything runs, a resume that asks for different settings."""
    r = repeated
    given: dict[str, tuple[object, Callable[[], object], object]] = {
        "--game": (r.game, lambda: get_game(r.game or "").name, tournament.game),
        "--bot": (r.bots, lambda: sorted(store.get_bot(*name_version(b)).label for b in r.bots or []),
                  sorted(tournament.bots)),
        "--players": (r.players, lambda: r.players, tournament.players),
        "--repetitions": (r.repetitions, lambda: r.repetitions, tournament.repetitions),
        "--seed": (r.seed, lambda: r.seed, tournament.seed),
        "--option": (r.options, lambda: dict(get_game(tournament.game).parse_options(
            tournament.players, dict(r.options or {}))), tournament.options),
        "--move-timeout": (r.move_timeout_s, lambda: r.move_timeout_s, saved.move_timeout_s),
        "--start-timeout": (r.start_timeout_s, lambda: r.start_timeout_s, saved.start_timeout_s),
        "--time-bank": (r.time_bank_s, lambda: r.time_bank_s, saved.time_bank_s),
        "--event-delay": (r.event_delay_s, lambda: r.event_delay_s, saved.event_delay_s),
    }
    for flag, (raw, value, kept) in given.items():
        if raw is not None and value() != kept:
            raise _changed(tournament.id, flag, kept)
    for flag, wanted in r.limits.items():
        if wanted != (kept := getattr(saved.limits, LIMIT_FLAGS[flag])):
            raise _changed(tournament.id, flag, kept)


def _changed(tournament_id: int, flag: str, kept: object) -> TournamentError:
    return TournamentError(
        f"tournament {tournament_id} was created with {flag} "
        f"{'unlimited' if kept is None else _listed(kept)}; a tournament keeps its settings to "
        "the end (only --parallel may change): resume without it, or start a new tournament")


def _shown(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _listed(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={_shown(v)}" for k, v in value.items()) or "(none)"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return _shown(value)
