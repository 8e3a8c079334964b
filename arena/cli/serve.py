"""``arena serve``: the operator service over gRPC (docs/server.md), the scheduler of queued
tournaments, and the web app on a port of its own."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated

import typer

from arena.app.graph_worker import GraphWorker
from arena.app.graphs import DEFAULT_CAP_S
from arena.app.live import PENDING_LIMIT_S
from arena.app.scrimmages import SCRIMMAGES, ScrimmageRules
from arena.app.validation import ValidationRules
from arena.cli.common import DEFAULT_DB, DbOption, Failure, console, data_dir_for, errors, open_store
from arena.cli.options import ExecutorOption, RayAddressOption
from arena.cli.remote import LocalOnlyArenaOption, local_only
from arena.cli.web import WEB_PORT, GraphCpuOption
from arena.games import get_game
from arena.net.tls import server_credentials
from arena.players import sandbox
from arena.tournament.ladder import LadderRules, create_ladder, find_ladder
from arena.tournament.run import check_executor
from arena.tournament.settings import PerRun, RunSettings


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free one).")] = 50051,
    operator_token: Annotated[str | None, typer.Option(
        envvar="ARENA_OPERATOR_TOKEN", help="Token operators send as 'authorization: Bearer "
        "TOKEN' (default: the one of the last start, kept hashed in the data folder; at the "
        "first start a new random one, printed once).")] = None,
    rotate_operator_token: Annotated[bool, typer.Option(
        "--rotate-operator-token", help="Issue a new operator token (printed once); the old "
        "one stops working.")] = False,
    tls_cert: Annotated[str | None, typer.Option("--tls-cert", metavar="FILE",
                                                 help="TLS certificate chain (PEM).")] = None,
    tls_key: Annotated[str | None, typer.Option("--tls-key", metavar="FILE",
                                                help="TLS private key (PEM, no passphrase).")] = None,
    operator_socket: Annotated[str | None, typer.Option(
        "--operator-socket", metavar="PATH", help="Also serve the operator service on this Unix "
        "socket (mode 0600), without a token; removed on exit.")] = None,
    web_port: Annotated[int, typer.Option(
        "--web-port", min=0, max=65535, help="The web app's port, on the same --host (0: any "
        "free one; the URL is printed).")] = WEB_PORT,
    no_web: Annotated[bool, typer.Option("--no-web", help="Serve no web app.")] = False,
    live_wait: Annotated[float, typer.Option(
        "--live-wait", min=1.0, max=86_400.0, metavar="SECONDS", help="How long a live feed "
        "(the web's, or `arena match watch`) follows a match that has not started before it "
        "ends, freeing its place.")] = PENDING_LIMIT_S,
    parallel: Annotated[int, typer.Option(
        min=1, max=256, help="Matches the scheduler plays at once, over all the queued "
        "tournaments it plays side by side (each also keeps to its own --parallel).")] = 2,
    no_sandbox: Annotated[bool, typer.Option(
        "--no-sandbox", help="Run the managed bots of queued tournaments without the sandbox, "
        "as this user. Only for bots you trust, on a machine without bubblewrap (without this "
        "flag the server refuses to start there).")] = False,
    executor: ExecutorOption = "local",
    ray_address: RayAddressOption = None,
    no_validation: Annotated[bool, typer.Option(
        "--no-validation", help="Accept new versions without their validation (by default each "
        "first plays, unrated, one match against copies of itself and one against the random "
        "bot in each game it plays, and a fault refuses it).")] = False,
    validation_game: Annotated[list[str] | None, typer.Option(
        "--validation-game", metavar="GAME", help="Validate new versions in this game only "
        "(repeat for more; default: every game a version plays).")] = None,
    scrimmage_share: Annotated[float, typer.Option(
        "--scrimmage-share", min=0.01, max=1.0, metavar="SHARE", help="The share of --parallel "
        "authors' scrimmages may hold at once (at least one match), so that they never starve "
        "the ladder and the tournaments.")] = SCRIMMAGES.share,
    scrimmage_matches: Annotated[int, typer.Option(
        "--scrimmage-matches", min=0, metavar="N", help="Matches of scrimmages an author may ask "
        "for within an hour.")] = SCRIMMAGES.matches_per_hour,
    scrimmage_queue: Annotated[int, typer.Option(
        "--scrimmage-queue", min=0, metavar="N", help="Scrimmages of an author not yet "
        "finished at once.")] = SCRIMMAGES.queued,
    graph_cpu: GraphCpuOption = DEFAULT_CAP_S,
    ladder: Annotated[list[str] | None, typer.Option(
        "--ladder", metavar="GAME", help="Keep this game's ladder playing while the server runs "
        "(its newest ladder, or a new one with the game's defaults); repeat for more games.")]
    = None,
    db: DbOption = DEFAULT_DB,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """Serve the arena until interrupted: the operator service (submissions, queued
    tournaments, matches, logs, leaderboards: docs/server.md), the scheduler that plays
    queued tournaments (resumed after a crash), and the web app.

    The operator's token may do everything; authors' tokens (`arena author add`) may
    submit and read their own bots, ask for scrimmages (`arena scrimmage`), and read what is
    public. Managed and submitted bots are
    started by the server; remote bots connect to a tournament of their own (`arena
    tournament run --listen`). The web app (leaderboards, bots, tournaments, replays:
    docs/web.md) is public; authors sign in there with their token to submit, read their logs
    and notes, and ask for scrimmages.

    Its first lines say what protects it: the sandbox, the cgroups, the builds, and the
    caps on connections (in total and per address) that keep descriptors for the arena.
    """
    local_only(arena, "serve")
    from arena.net.doors import Door, IntervalLog, descriptor_budget
    from arena.service.operator_token import OperatorTokenError
    from arena.service.operator_token import check as check_token
    from arena.service.operator_token import operator_token as operator_token_for
    from arena.service.serve import SocketPathError, prepare_socket_path, serve
    from leaderboard.web.server import WebServer, bind

    if (tls_cert is None) != (tls_key is None):
        raise Failure("give both --tls-cert and --tls-key, or neither")
    credentials = server_credentials(tls_cert, tls_key) if tls_cert and tls_key else None
    try:
        check_token(operator_token, rotate_operator_token)
    except OperatorTokenError as err:
        raise Failure(str(err)) from None
    try:
        socket_path = prepare_socket_path(operator_socket) if operator_socket is not None else None
    except SocketPathError as err:
        raise Failure(f"cannot use --operator-socket: {err}") from None
    if not no_sandbox:  # as `arena tournament run` refuses: before anything is written
        contained = sandbox.check()
        if not contained.works:
            raise Failure(f"cannot sandbox managed bots: {contained.why_not}; {contained.remedy}, or "
                          "pass --no-sandbox to run them uncontained")
    per_run = PerRun(sandbox=not no_sandbox, executor=executor, ray_address=ray_address)
    checked = per_run.applied(RunSettings())  # now, not at the first tournament
    store = open_store(db)
    check_executor(store, checked)
    validation = ValidationRules(
        enabled=not no_validation, sandbox=not no_sandbox,
        games=None if not validation_game else tuple(get_game(g).name for g in validation_game))
    scrimmages = ScrimmageRules(share=scrimmage_share, matches_per_hour=scrimmage_matches,
                                queued=scrimmage_queue)
    ladders = []
    for game in ladder or []:
        name = get_game(game).name
        found = find_ladder(store, name)
        if found is None:
            found = create_ladder(store, name, None, {}, RunSettings(parallel),
                                  rules=LadderRules())
        ladders.append(found)
    budget = descriptor_budget()  # the soft descriptor limit raised first: the caps derive from it
    log = IntervalLog(lambda line: errors.print(line, highlight=False, soft_wrap=True))
    web = None
    if not no_web:
        try:
            web = WebServer(store, host, bind(host, web_port), embedded=True,
                            door=Door("web", budget.web_total, budget.per_address, log),
                            live_wait_s=live_wait)
        except OSError as err:
            raise Failure(f"cannot serve the web app on {host}:{web_port}: "
                          f"{err.strerror or err} (--web-port PORT, or --no-web)") from None
    try:
        token = operator_token_for(data_dir_for(db), operator_token, rotate_operator_token)
    except OperatorTokenError as err:
        raise Failure(str(err)) from None
    if token.new is not None:
        console.print(f"operator token (send as 'authorization: Bearer TOKEN'): {token.new}")
    elif token.kept:
        console.print("operator token: the one of the last start (--rotate-operator-token "
                      "issues a new one)")
    try:
        with GraphWorker(store.url, graph_cpu), contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(store, f"{host}:{port}", console, token.hash, credentials, socket_path,
                              web, data_dir=data_dir_for(db), parallel=parallel,
                              per_run=per_run, ladders=ladders, budget=budget, log=log,
                              live_wait_s=live_wait, validation=validation,
                              scrimmages=scrimmages))
        console.print("stopped")
    except OSError as err:
        raise Failure(f"cannot serve on {host}:{port}: {err}") from None
