"""The options the commands that play take (``tournament run|create|resume``, ``ladder
start``, ``match play``, ``serve``): the game and its bots, the format, the clocks, the bot
limits, the sandbox, where matches are played and where remote bots connect."""

from __future__ import annotations

from typing import Annotated

import typer

from arena.cli.common import Failure
from arena.tournament.setup import VERSUS_SETS, VERSUS_SPRT_SETS


def parse_options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise Failure(f"an option must be NAME=VALUE, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


ListenOption = Annotated[str | None, typer.Option(
    "--listen", metavar="HOST:PORT", help="Where remote bots connect (port 0: any free one, "
    "printed). Managed bots always use Unix sockets of their own.")]
TlsCertOption = Annotated[str | None, typer.Option(
    "--tls-cert", metavar="FILE", help="TLS certificate chain (PEM) for --listen.")]
TlsKeyOption = Annotated[str | None, typer.Option(
    "--tls-key", metavar="FILE", help="TLS private key (PEM, no passphrase) for --tls-cert.")]
NoSandboxOption = Annotated[bool, typer.Option(
    "--no-sandbox", help="Run managed bots without the sandbox, as this user, able to read and "
    "signal what it can. Only for bots you trust, on a machine without bubblewrap.")]
KeepGoingOption = Annotated[bool, typer.Option(
    "--keep-going", help="Play on when a managed bot does not start (its seats are no-shows, "
    "rated) instead of stopping with its last words.")]
ExecutorOption = Annotated[str, typer.Option(
    "--executor", metavar="local|ray", help="Where matches are played: local (this machine) or "
    "ray (the nodes of a Ray cluster, each match on one node, its bots started there in its "
    "sandbox; needs pip install 'card-arena\\[ray]', and PostgreSQL for more than one node).")]
RayAddressOption = Annotated[str | None, typer.Option(
    "--ray-address", metavar="HOST:PORT", help="The Ray cluster's head (or 'auto'); by default "
    "RAY_ADDRESS, else Ray started on this machine alone.")]
WaitOption = Annotated[float, typer.Option(
    "--wait-for-remote", min=0.0, metavar="SECONDS", help="How long every remote bot has to "
    "connect before the first match (0: start at once; absent bots are no-shows).")]


GameOption = Annotated[str, typer.Option("--game", "-g", help="The game (see `arena games`).")]
BotsOption = Annotated[list[str], typer.Option(
    "--bot", "-b", help="A bot NAME or NAME@VERSION; repeat for each bot.")]
PlayersOption = Annotated[int | None, typer.Option(help="Seats per match (default: the game's).")]
RepetitionsOption = Annotated[int, typer.Option(
    "--repetitions", "-n", min=1, help="How often the whole schedule is played.")]
SeedOption = Annotated[int | None, typer.Option(
    help="Tournament seed (default: random); it fixes the deals only with --deals-from-seed: "
    "otherwise every deal comes from a secret key of the tournament's.")]
DealsOption = Annotated[str | None, typer.Option(
    "--deals", metavar="KIND",
    help="duplicate or independent. duplicate: every seat rotation of a group plays the same "
    "deal, each rotation by another process of each managed bot (default when every bot is "
    "managed); independent: a deal per match (default with remote bots, which could "
    "remember a deal between rotations).")]
DealsFromSeedOption = Annotated[bool, typer.Option(
    "--deals-from-seed", help="Derive the deals from --seed, so that anyone can reproduce them "
    "(research runs). Unsafe against bots: one that searches seeds from the cards it sees can "
    "learn every deal.")]
GameOptionsOption = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="A game option NAME=VALUE.")]
FormatOption = Annotated[str, typer.Option(
    "--format", metavar="FORMAT",
    help="round-robin, gauntlet or versus. round-robin: every group of the --bot bots; "
    "gauntlet: each --bot (a challenger) against the --field, which never plays itself; "
    "versus: --bot A against --bot B over duplicate sets (a deal in every seat rotation), "
    "the --field in the other seats.")]
FieldOption = Annotated[list[str] | None, typer.Option(
    "--field", "-f", help="A bot of the field (gauntlet, versus); repeat for each.")]
SetsOption = Annotated[int | None, typer.Option(
    min=1, help=f"versus: how many duplicate sets (default {VERSUS_SETS}; with --sprt, at most "
    f"{VERSUS_SPRT_SETS}).")]
SprtOption = Annotated[str | None, typer.Option(
    metavar="SPEC",
    help="versus, with SPEC such as elo0=0,elo1=10 (alpha= and beta= too, if need be): stop "
    "as soon as a sequential probability ratio test on the sets' paired "
    "outcomes decides between H0 (A not better than E0 Elo) and H1 (A better by E1); alpha "
    "and beta (default 0.05) are its false positive and false negative rates.")]
MoveTimeoutOption = Annotated[float, typer.Option(min=0.001, help="Seconds per decision.")]
StartTimeoutOption = Annotated[float, typer.Option(min=0.001,
                                                   help="Seconds for bots to connect.")]
TimeBankOption = Annotated[float, typer.Option(
    min=0.0, help="Extra seconds per seat and match for moves slower than --move-timeout.")]
PublicNotesOption = Annotated[bool, typer.Option(
    "--public-notes", help="Show the bots' notes on their answers in the replays to everyone "
    "(by default only to each bot's author and the operator), once each deal is over.")]
EventDelayOption = Annotated[float, typer.Option(
    min=0.0, help="Longest an event waits to ride with a seat's next decision request before "
    "it is sent on its own; 0 sends every event at once.")]
BotMemoryOption = Annotated[str, typer.Option(
    help="Memory per bot, all its processes together, every lane included (a memory cgroup; "
    "else address space per process): MB, or a size like 512MB or 2GiB; 'unlimited'.")]
BotCpuSecondsOption = Annotated[str, typer.Option(
    help="CPU seconds per bot process start, over all its matches; 'unlimited'.")]
BotProcessesOption = Annotated[str, typer.Option(
    help="Processes and threads per bot, all together, every lane included (a pids cgroup); "
    "'unlimited'.")]
BotCpusOption = Annotated[str, typer.Option(
    help="Cores a bot may keep busy at once, every lane included (a cpu cgroup), e.g. 1 or "
    "0.5; 'unlimited'.")]
BotOpenFilesOption = Annotated[str, typer.Option(help="Open files per bot process; 'unlimited'.")]
