"""The Ray executor: a tournament's matches played on the nodes of a Ray cluster.

Each node with CPUs gets one actor, :class:`NodeHost`, pinned to it, which plays the
matches it is given with a :class:`~arena.tournament.local.LocalExecutor` of its own:
the bots' processes are started on that node, in that node's sandbox and control
groups, and kept there for every match the node plays. Lanes hold across nodes as on
one machine: a process plays the matches of one lane only, so no process of a bot sees
a deal twice, whichever nodes play a deal's rotations.

**Code travels through Ray's object store**, never a shared filesystem: a submitted
version as its stored canonical archive, a registered bot's folder packed the same way
(without the arena's own files). A node checks each archive's SHA-256 before it
unpacks it, and builds a submitted version's requirements itself where it has not.
Every node needs the arena installed (the same version, with the sandbox's system
package), as the driver has it.

**One writer.** The run loop, in the driver, writes what :meth:`RayExecutor.play`
returns; nodes never see the database. A match whose node is lost (its actor died: the
node was killed, cut off, out of memory) is played again from its deal on another node,
and a result that arrives twice is stored once (``Store.finish_match``). The report
names the node and where its bot and Ray logs are (``MatchReport.node``).

Ray is an optional extra (``pip install 'card-arena[ray]'``): this module imports it
only when an executor starts or a node runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import tempfile
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from arena.match.referee import MatchReport
from arena.players import builds, submissions
from arena.tournament.errors import BotsDidNotStart, TournamentError
from arena.tournament.executor import Entrant, Executor, MatchJob
from arena.tournament.local import LocalExecutor
from arena.tournament.settings import RunSettings

Notice = Callable[[str], None]

NAMESPACE = "card-arena"
CLOSE_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class Shipped:
    """A managed bot's code on its way to the nodes: an archive in the object store (its
    reference), its SHA-256, and whether it is a submitted version (requirements built on
    the node) or a registered bot's folder."""

    archive: Any  # a ray.ObjectRef to the archive's bytes
    sha256: str
    submitted: bool


@dataclass(frozen=True)
class NodeReady:
    """What a node says once its bots attend."""

    where: str  # "node IP (id ...): bot logs ..., Ray logs ...": kept with each match
    notes: tuple[str, ...]  # what its local executor said (limits, sandbox)


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise TournamentError("the ray executor needs Ray on this machine: "
                              "pip install 'card-arena[ray]'") from None
    return ray


class NodeHost:
    """Plays matches on one node (a Ray actor pinned there): a local executor with the
    bots' code unpacked into a folder of this node's own."""

    def __init__(self, settings: RunSettings) -> None:
        self._settings = settings
        self._root = Path(tempfile.mkdtemp(prefix="arena-node-"))
        self._local: LocalExecutor | None = None
        self._entrants: dict[int, Entrant] = {}
        self._where = ""

    async def start(self, entrants: Sequence[Entrant], shipped: Mapping[int, Shipped]) -> NodeReady:
        ray = _ray()
        context = ray.get_runtime_context()
        self._where = (f"node {ray.util.get_node_ip_address()} (id {context.get_node_id()[:12]}): "
                       f"bot logs {self._root / 'logs'}, Ray logs {_ray_logs(ray)}")
        archives = dict(zip(shipped, await asyncio.gather(*(s.archive for s in shipped.values())),
                            strict=True))
        ready: dict[int, Entrant] = {}
        for entrant in entrants:
            code = shipped.get(entrant.bot_id)
            ready[entrant.bot_id] = entrant if code is None else await asyncio.to_thread(
                self._unpack, entrant, code, archives[entrant.bot_id])
        self._entrants = ready
        notes: list[str] = []
        self._local = LocalExecutor(self._root, self._settings, notes.append)
        await self._local.start(list(ready.values()))
        return NodeReady(self._where, tuple(notes))

    def _unpack(self, entrant: Entrant, code: Shipped, archive: bytes) -> Entrant:
        """The entrant as it runs here: its code unpacked (the hash checked first), and a
        submitted version's requirements built."""
        try:
            if code.submitted:
                installed, _ = builds.materialize(archive, code.sha256, self._root / "bots",
                                                       self._settings.sandbox)
                return replace(entrant, folder=str(installed.code),
                               deps=None if installed.deps is None else str(installed.deps))
            folder = self._root / "code" / str(entrant.bot_id)
            submissions.unpack(archive, code.sha256, folder)
            return replace(entrant, folder=str(folder), deps=None)
        except submissions.SubmissionError as err:
            raise TournamentError(f"cannot prepare bot {entrant.name}: {err}") from None

    async def play(self, job: MatchJob) -> MatchReport:
        if self._local is None:
            raise RuntimeError("the node was not started")
        job = replace(job, seats=tuple(self._entrants[e.bot_id] for e in job.seats))
        report = await self._local.play(job)
        report.node = self._where
        _ = report.log  # encoded here: the driver stores these bytes and never reads the entries,
        report.entries = []  # which cost more to send through Ray than the whole match's bytes
        return report

    async def close(self) -> None:
        """Stop the bots and remove their code (their logs stay)."""
        if self._local is not None:
            await self._local.close()
        for made in ("code", "bots"):
            submissions.remove(self._root / made)


def _ray_logs(ray: Any) -> str:
    """Where this node's Ray logs are (its session's ``logs`` folder)."""
    with contextlib.suppress(Exception):
        return str(ray._private.worker.global_worker.node.get_logs_dir_path())
    return "in the node's Ray session folder"


@dataclass
class _Node:
    node_id: str
    address: str  # its IP and id, as notices name it
    cpus: float
    actor: Any
    busy: int = 0
    lost: bool = False


class RayExecutor(Executor):
    """Plays matches on a Ray cluster (see the module's docstring).

    ``address`` is the cluster's (``HOST:PORT`` of its head, ``auto``, or ``ray://...``);
    None joins the cluster ``RAY_ADDRESS`` names, or starts Ray on this machine alone.
    ``archives`` gives a submitted version's stored archive by its hash; ``shared_store``
    says whether the results go to a database every machine can reach (PostgreSQL): a
    cluster of more than one node is refused without one. ``hidden`` are the arena's own
    paths, never packed with a bot's folder.
    """

    def __init__(self, address: str | None, settings: RunSettings,
                 notice: Notice | None = None, *, archives: Callable[[str], bytes],
                 shared_store: bool, hidden: Collection[Path] = ()) -> None:
        self._address = address
        self._settings = settings
        self._say: Notice = notice or (lambda _: None)
        self._archives = archives
        self._shared_store = shared_store
        self._hidden = tuple(hidden)
        self._nodes: list[_Node] = []
        self._joined = False
        self._start_s = 0.0

    async def start(self, entrants: Sequence[Entrant]) -> None:
        began = time.perf_counter()
        remote = [e.name for e in entrants if e.remote]
        if remote:
            raise TournamentError(f"remote bots ({', '.join(remote)}) connect to one machine: "
                                  "play them with the local executor (--executor local)")
        ray = _ray()
        nodes = _playable_nodes(ray, self._address, self._shared_store)
        global _users
        _users += 1
        self._joined = True
        shipped = {e.bot_id: self._ship(ray, e) for e in entrants
                   if e.content_hash is not None or e.folder is not None}
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        host = ray.remote(NodeHost)
        for info in nodes:
            actor = host.options(
                num_cpus=0, max_restarts=0, max_task_retries=0, namespace=NAMESPACE,
                scheduling_strategy=NodeAffinitySchedulingStrategy(info["NodeID"], soft=False),
            ).remote(self._settings)
            self._nodes.append(_Node(info["NodeID"], f"{info['NodeManagerAddress']} (id "
                                     f"{info['NodeID'][:12]})", info["Resources"]["CPU"], actor))
        started = await asyncio.gather(*(_call(n.actor.start, list(entrants), shipped)
                                         for n in self._nodes), return_exceptions=True)
        for node, outcome in zip(self._nodes, started, strict=True):
            if isinstance(outcome, ray.exceptions.RayTaskError):
                cause = outcome.cause
                if isinstance(cause, BotsDidNotStart):
                    raise BotsDidNotStart(f"on Ray node {node.address}: {cause}", cause.public)
                raise TournamentError(f"on Ray node {node.address}: {cause}")
            if isinstance(outcome, BaseException):
                self._lose(node, outcome)
                continue
            for note in outcome.notes:
                self._say(f"ray node {node.address}: {note}")
        if all(n.lost for n in self._nodes):
            raise TournamentError("every Ray node was lost while its bots started")
        live = [n for n in self._nodes if not n.lost]
        self._say(f"ray: {len(live)} node(s), {sum(n.cpus for n in live):g} CPUs: "
                  + ", ".join(f"{n.address}, {n.cpus:g} CPUs" for n in live))
        self._start_s = time.perf_counter() - began

    def _ship(self, ray: Any, entrant: Entrant) -> Shipped:
        """A managed bot's code in the object store: its stored archive, or its folder packed
        (a bot without a folder, registered before bots had one, runs in the node's own)."""
        if entrant.content_hash is not None:
            archive, sha256 = self._archives(entrant.content_hash), entrant.content_hash
        else:
            assert entrant.folder is not None
            try:
                archive, sha256 = submissions.pack_folder(Path(entrant.folder), self._hidden)
            except (submissions.SubmissionError, OSError) as err:
                raise TournamentError(f"bot {entrant.name}'s folder {entrant.folder} cannot be "
                                      f"sent to the cluster: {err}") from None
        return Shipped(ray.put(archive), sha256, entrant.content_hash is not None)

    def _pick(self) -> _Node | None:
        """The node with the fewest matches in play for its CPUs."""
        live = [n for n in self._nodes if not n.lost]
        return min(live, key=lambda n: n.busy / n.cpus, default=None)

    def _lose(self, node: _Node, why: BaseException) -> None:
        if not node.lost:
            node.lost = True
            self._say(f"ray node {node.address} is lost ({type(why).__name__}); its matches "
                      "are played again on the other nodes")

    async def play(self, job: MatchJob) -> MatchReport:
        ray = _ray()
        while True:
            node = self._pick()
            if node is None:
                raise TournamentError(f"match {job.match_id} has no Ray node left to play on")
            node.busy += 1
            try:
                report: MatchReport = await _call(node.actor.play, job)
                return report
            except ray.exceptions.RayTaskError as err:  # the match could not be refereed
                raise err.cause from None
            except ray.exceptions.RayError as err:  # the node (or its actor) is gone
                self._lose(node, err)
            finally:
                node.busy -= 1

    async def close(self) -> None:
        global _users
        if not self._joined:
            return
        ray = _ray()
        live = [n for n in self._nodes if not n.lost]
        await asyncio.gather(*(asyncio.wait_for(_call(n.actor.close), CLOSE_TIMEOUT_S)
                               for n in live), return_exceptions=True)
        for node in self._nodes:
            with contextlib.suppress(Exception):
                ray.kill(node.actor)
        self._nodes = []
        self._joined = False
        _users -= 1
        if _users == 0:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(ray.shutdown)

    @property
    def bot_start_s(self) -> float:
        """The wall time of :meth:`start`: joining the cluster, shipping the code, and every
        node starting its bots at once."""
        return self._start_s

    @property
    def sealed(self) -> bool:
        return self._settings.sandbox  # each node's local executor, in its sandbox


_users = 0
"""Executors of this process using its connection to the cluster (shut when none is)."""


def check_cluster(address: str | None, shared_store: bool) -> None:
    """Join the cluster at ``address`` and check that a tournament can be played on it,
    before anything is written (one line, :class:`TournamentError`, when it cannot); the
    executor then reuses this process's connection."""
    _playable_nodes(_ray(), address, shared_store)


def _playable_nodes(ray: Any, address: str | None, shared_store: bool) -> list[dict[str, Any]]:
    """The cluster's live nodes with CPUs, this process connected to it first."""
    _connect(ray, address)
    nodes = [n for n in ray.nodes() if n.get("Alive") and n["Resources"].get("CPU", 0) > 0]
    if not nodes:
        raise TournamentError("the Ray cluster has no node with CPUs to play on")
    if len(nodes) > 1 and not shared_store:
        raise TournamentError(f"the Ray cluster has {len(nodes)} nodes: a tournament on "
                              "several machines needs a database they all reach (--db "
                              "postgresql+psycopg://...), not a SQLite file")
    return nodes


def _connect(ray: Any, address: str | None) -> None:
    """Connect this process to the cluster, once (a server plays several tournaments through
    one connection). Run on the main thread: Ray sets its signal handlers there."""
    if ray.is_initialized():
        return
    if address and address != "auto" and not address.startswith("ray://"):
        host, _, port = address.rpartition(":")
        try:
            with socket.create_connection((host or "127.0.0.1", int(port)), timeout=5):
                pass
        except (OSError, ValueError) as err:
            why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
            raise TournamentError(f"no Ray cluster at {address}: {why}") from None
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        ray.init(address=address, namespace=NAMESPACE, log_to_driver=False,
                 logging_level="WARNING", include_dashboard=False if address is None else None)
    except Exception as err:  # ray raises ConnectionError, RuntimeError, ValueError...
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise TournamentError(f"cannot join the Ray cluster at {address or 'RAY_ADDRESS'}: "
                              f"{first}") from None


async def _call(method: Any, *args: Any) -> Any:
    """Call an actor's method and wait for its result in this event loop."""
    return await method.remote(*args)
