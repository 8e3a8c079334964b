"""Train a bot: imitate the decisions of a dataset (``arena dataset export``), improve the policy
by self-play in ``sdk.rl``'s environment, and write a submission folder that
``arena bot submit`` takes. numpy only, on CPU, in minutes.

    python examples/trained_bot/train.py DATASET OUT [--game serial-killer] [--players 3]
        [--epochs 8] [--selfplay 5000] [--rounds 3] [--weight 10] [--hidden 64]
        [--name trained] [--seed 1] [--deals 300]

1. **Imitation.** The rows of ``DATASET/trajectories.parquet`` for the game and table size
   (export the seats of the bot to imitate: ``--bot NAME``) train a policy
   (:mod:`policy`) to pick the action that bot picked: a softmax over the legal actions,
   cross-entropy, Adam.
2. **Self-play.** The policy plays every seat of new deals through the game's engine (the
   environment's forward model); at ``--selfplay`` decisions a round, the deal is played on
   twice from there, with the policy's action and with another, and where one did better
   the policy learns it (:func:`self_play`), ``--rounds`` times: policy improvement by
   rollouts. What it bought is measured before it is kept: the improved policy in one seat
   against the imitation in the others, over the same deals in every seat.
3. **The submission.** ``OUT`` gets ``arena-bot.toml``, ``bot.py`` and ``policy.py`` (from
   this folder) and ``policy.npz``, the weights.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.compute as pc
import pyarrow.parquet as pq
from policy import NAMES, Policy

from arena.games import get_game
from sdk.rl import rank_reward
from sdk.rl.spaces import Spaces

HERE = Path(__file__).resolve().parent


@dataclass
class Adam:
    """Adam's moments for each weight of a policy."""

    policy: Policy
    rate: float
    steps: int = 0

    def __post_init__(self) -> None:
        self.first = {k: np.zeros_like(v) for k, v in self.policy.weights.items()}
        self.second = {k: np.zeros_like(v) for k, v in self.policy.weights.items()}

    def step(self, x: np.ndarray, pull: np.ndarray) -> None:
        """Move the weights against ``pull``, the loss's gradient by each action's score."""
        weights = self.policy.weights
        hidden = self.policy.hidden(x)
        back = (pull @ weights["w2"].T) * (hidden > 0)
        grads = {"w1": x.T @ back, "b1": back.sum(0), "w2": hidden.T @ pull, "b2": pull.sum(0)}
        self.steps += 1
        for name in NAMES:
            self.first[name] = 0.9 * self.first[name] + 0.1 * grads[name]
            self.second[name] = 0.999 * self.second[name] + 0.001 * grads[name] ** 2
            first = self.first[name] / (1 - 0.9 ** self.steps)
            second = self.second[name] / (1 - 0.999 ** self.steps)
            weights[name] -= (self.rate * first / (np.sqrt(second) + 1e-8)).astype(np.float32)


def load(dataset: Path, game: str, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The dataset's decisions of ``game`` at ``players`` seats: observations, masks, actions."""
    rows = pq.read_table(dataset / "trajectories.parquet",
                         columns=["game", "players", "observation", "legal_mask", "action",
                                  "fallback"])
    rows = rows.filter(pc.and_(pc.and_(pc.equal(rows["game"], game),
                                       pc.equal(rows["players"], players)),
                               pc.invert(rows["fallback"])))
    if rows.num_rows == 0:
        sys.exit(f"{dataset}: no decisions of {game} at {players} seats to learn from")
    return (np.stack(rows["observation"].to_numpy(zero_copy_only=False)).astype(np.float32),
            np.stack(rows["legal_mask"].to_numpy(zero_copy_only=False)),
            rows["action"].to_numpy().astype(np.int64))


def imitate(policy: Policy, data: tuple[np.ndarray, np.ndarray, np.ndarray], epochs: int,
            rng: np.random.Generator, batch: int = 256) -> float:
    """Train ``policy`` to pick the dataset's actions; the share it picks at the end."""
    x, masks, actions = data
    adam = Adam(policy, 1e-3)
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(x), batch):
            rows = order[start:start + batch]
            pull = policy.probabilities(x[rows], masks[rows])
            pull[np.arange(len(rows)), actions[rows]] -= 1
            adam.step(x[rows], pull / len(rows))
    picked = policy.probabilities(x, masks).argmax(axis=1)
    return float((picked == actions).mean())


def seen(spaces: Spaces, state: Any, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """What ``seat`` sees now: its numbers and its mask of legal actions."""
    return (spaces.encoder.encode(spaces.game.observe(state, seat)),
            spaces.mask(spaces.game.legal_actions(state)))


def finish(spaces: Spaces, state: Any, policies: Sequence[Policy]) -> tuple[int, ...]:
    """Play ``state`` to its end, ``policies[seat]`` in each seat; the ranks."""
    game = spaces.game
    while (seat := game.to_act(state)) is not None:
        game.apply(state, spaces.catalogue.actions[policies[seat].choose(*seen(spaces, state,
                                                                            seat))])
    outcome = game.outcome(state)
    assert outcome is not None
    return tuple(outcome.ranks)


def self_play(policy: Policy, spaces: Spaces, samples: int, rng: np.random.Generator,
              branch: float = 0.1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Decisions where another action did better than the policy's, found by self-play: the
    policy plays every seat of new deals; now and then (``branch``) at a decision with a
    choice, the deal is played on twice from there, once with the policy's action and once
    with another legal one, the policy in every seat after it. The two share everything
    but that action, hidden cards included, so the difference of the seat's rank reward is
    that action's doing on this deal; over many deals, what the seat could not see averages
    out. Returns ``samples`` decisions as (numbers, masks, the better action)."""
    game, everyone = spaces.game, [policy] * spaces.players
    found: list[tuple[np.ndarray, np.ndarray, int]] = []
    tried = 0
    while tried < samples:
        state = game.new(spaces.players, int(rng.integers(2**62)))
        while (seat := game.to_act(state)) is not None:
            x, mask = seen(spaces, state, seat)
            chosen = policy.choose(x, mask)
            if mask.sum() > 1 and rng.random() < branch and tried < samples:
                tried += 1
                other = int(rng.choice([i for i in np.flatnonzero(mask) if i != chosen]))
                gains = []
                for action in (chosen, other):
                    branch_state = game.clone(state)
                    game.apply(branch_state, spaces.catalogue.actions[action])
                    ranks = finish(spaces, branch_state, everyone)
                    gains.append(rank_reward(ranks[seat], spaces.players))
                if gains[1] != gains[0]:
                    found.append((x, mask, other if gains[1] > gains[0] else chosen))
            game.apply(state, spaces.catalogue.actions[chosen])
    if not found:
        return (np.zeros((0, spaces.encoder.size), np.float32),
                np.zeros((0, len(spaces.catalogue)), np.bool_), np.zeros(0, np.int64))
    xs, masks, actions = zip(*found, strict=True)
    return np.stack(xs), np.stack(masks), np.asarray(actions, np.int64)


def head_to_head(new: Policy, old: Policy, spaces: Spaces, deals: int, seed: int) -> float:
    """``new``'s mean rank reward in one seat against ``old`` in the others, each deal played
    with ``new`` in every seat (0: as good; 1: always first, -1: always last). Deal ``d`` is
    the one ``sdk.rl``'s environment deals on ``reset(seed=seed + d)``."""
    players, total = spaces.players, 0.0
    for deal in range(deals):
        dealt = random.Random(seed + deal).getrandbits(63)
        for seat in range(players):
            policies = [new if s == seat else old for s in range(players)]
            ranks = finish(spaces, spaces.game.new(players, dealt), policies)
            total += rank_reward(ranks[seat], players)
    return total / (deals * players)


def package(policy: Policy, out: Path, name: str, game: str) -> None:
    """The submission folder: manifest, bot, policy code and weights."""
    out.mkdir(parents=True, exist_ok=True)
    for source in ("bot.py", "policy.py"):
        shutil.copyfile(HERE / source, out / source)
    policy.save(out / "policy.npz")
    (out / "arena-bot.toml").write_text(
        f'name = "{name}"\ncommand = "python bot.py"\ngames = ["{game}"]\n', encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset", type=Path, help="a folder arena dataset export wrote")
    parser.add_argument("out", type=Path, help="the submission folder to write")
    parser.add_argument("--game", default="serial-killer")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=8, help="passes over the dataset")
    parser.add_argument("--selfplay", type=int, default=5000,
                        help="decisions tried two ways in each round of self-play")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of self-play")
    parser.add_argument("--weight", type=int, default=10,
                        help="how much more a self-play decision counts than a dataset's")
    parser.add_argument("--hidden", type=int, default=64, help="the policy's hidden units")
    parser.add_argument("--name", default="trained", help="the bot's name in its manifest")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=300,
                        help="deals of the self-play check, each in every seat")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    game = get_game(args.game)
    spaces = Spaces.of(game, args.players, game.parse_options(args.players))
    data = load(args.dataset, args.game, args.players)
    print(f"imitation: {len(data[0]):,} decisions of {args.game} at {args.players} seats",
          flush=True)
    policy = Policy.new(data[0].shape[1], data[1].shape[1], args.hidden, rng)
    agreement = imitate(policy, data, args.epochs, rng)
    print(f"imitation: the policy picks the dataset's action in {agreement:.1%} of them",
          flush=True)
    imitation = Policy({k: v.copy() for k, v in policy.weights.items()})
    if args.selfplay and args.rounds:
        for number in range(1, args.rounds + 1):
            better = self_play(policy, spaces, args.selfplay, rng)
            print(f"self-play round {number}: {args.selfplay:,} decisions tried two ways, "
                  f"{len(better[0]):,} where one action did better", flush=True)
            x, masks, actions = (np.concatenate([whole, *[part] * args.weight])
                                 for whole, part in zip(data, better, strict=True))
            imitate(policy, (x, masks, actions), 2, rng)
        gain = head_to_head(policy, imitation, spaces, args.deals, seed=10**6 + args.seed)
        print(f"self-play: against the imitation policy, the improved one's mean rank reward "
              f"is {gain:+.3f} over {args.deals} deals, each in every seat", flush=True)
        if gain <= 0:
            print("self-play: no gain, the imitation policy is kept", flush=True)
            policy = imitation
    package(policy, args.out, args.name, args.game)
    print(f"wrote {args.out}: arena bot submit {args.out}", flush=True)


if __name__ == "__main__":
    main()
