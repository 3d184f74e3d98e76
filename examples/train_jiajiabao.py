"""Train a small policy for 佳佳宝 (2101) with plain numpy, and show it beats random.

One seat (a player, 闲家) learns against the family bots (the banker groups its cards with
the grouping solver); the policy is linear - a softmax over the legal actions of
``W @ observation`` - trained by REINFORCE with a running-mean baseline. It has two
decisions a hand: the bet (下注, made before any card is seen) and the grouping (分组) of
its four cards, where the observation's ``groupings`` field says how strong each split's
groups are.

    python examples/train_jiajiabao.py            # about a minute
    python examples/train_jiajiabao.py 2000 400   # episodes to train, episodes to compare

It prints the learner's mean result per hand, then the same hands (same seeds) played by
a uniformly random masked policy.
"""

from __future__ import annotations

import sys

import numpy as np

import paiju.rl


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask > 0, logits, -np.inf)
    z = np.exp(z - z.max())
    return np.asarray(z / z.sum())


class LinearPolicy:
    """Softmax over ``W @ obs + b``, masked to the legal actions."""

    def __init__(self, obs_size: int, actions: int, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.w = np.zeros((actions, obs_size))
        self.b = np.zeros(actions)

    def probs(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        return masked_softmax(self.w @ obs["observation"] + self.b, obs["action_mask"])

    def sample(self, obs: dict[str, np.ndarray]) -> int:
        p = self.probs(obs)
        return int(self.rng.choice(len(p), p=p))

    def greedy(self, obs: dict[str, np.ndarray]) -> int:
        return int(np.argmax(np.where(obs["action_mask"] > 0, self.probs(obs), -1.0)))

    def update(
        self, steps: list[tuple[dict[str, np.ndarray], int]], advantage: float, lr: float
    ) -> None:
        for obs, action in steps:
            p = self.probs(obs)
            grad = -p
            grad[action] += 1.0  # d log pi(a) / d logits
            self.w += lr * advantage * np.outer(grad, obs["observation"])
            self.b += lr * advantage * grad


def play(env: paiju.rl.SingleAgentEnv, choose, seed: int) -> tuple[float, list]:
    """One hand with ``choose(obs) -> index``: the learner's result and its decisions."""
    obs, _ = env.reset(seed=seed)
    steps, total, done = [], 0.0, False
    while not done:
        action = choose(obs)
        steps.append((obs, action))
        obs, reward, terminated, truncated, _ = env.step(action)
        total += reward
        done = terminated or truncated
    return total, steps


def train(episodes: int = 4000, compare: int = 600, seed: int = 0) -> tuple[float, float]:
    """Train, then return (trained policy's mean result, random policy's mean result) over
    the same ``compare`` hands."""
    env = paiju.rl.SingleAgentEnv("2101", seat=1, seats=4)
    size = env.observation_space["observation"].shape[0]
    policy = LinearPolicy(size, int(env.action_space.n), seed)
    baseline = 0.0
    for episode in range(episodes):
        result, steps = play(env, policy.sample, seed=seed * 1_000_003 + episode)
        policy.update(steps, result - baseline, lr=0.01)
        baseline += 0.02 * (result - baseline)
    rng = np.random.default_rng(seed)

    def uniform(obs: dict[str, np.ndarray]) -> int:
        legal = np.flatnonzero(obs["action_mask"])
        return int(rng.choice(legal))

    seeds = [10**9 + seed * 100_000 + i for i in range(compare)]
    trained = float(np.mean([play(env, policy.greedy, s)[0] for s in seeds]))
    random_ = float(np.mean([play(env, uniform, s)[0] for s in seeds]))
    return trained, random_


if __name__ == "__main__":
    episodes = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    compare = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    trained, random_ = train(episodes, compare)
    print(f"佳佳宝 2101, seat 1 against the family bots, {compare} hands each:")
    print(f"  trained linear policy: {trained:+.3f} per hand")
    print(f"  uniform random policy: {random_:+.3f} per hand")
    print("  the trained policy beats random" if trained > random_ else "  no better than random")
