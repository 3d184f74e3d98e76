"""Shared helpers of the RL tests: random masked playthroughs and the hidden-card check."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import numpy as np

from paiju.rl.env import PaijuAEC


def masked_choice(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    assert len(legal), "an acting seat has no legal index"
    return int(legal[rng.integers(len(legal))])


def playthrough(env: PaijuAEC, seed: int) -> Iterator[tuple[str, dict[str, np.ndarray]]]:
    """Play one episode with uniform masked random choices; yield (agent, obs) before each
    decision. The final None steps are taken too."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        yield agent, obs
        env.step(masked_choice(obs["action_mask"], rng))


def leaks(env: PaijuAEC, seat: int, vector: np.ndarray) -> list[str]:
    """Card fields of an observation that show more copies of a card than ``seat`` may see
    (the harness's hidden-card check, per field, on counts)."""
    state = env.table.state
    copies = Counter(state.game.full_set())
    hidden = state.hidden_from(seat)
    layout = env.encoder.layout
    found = []
    slots = env.encoder.item_slots
    for name in layout.card_fields(slots):
        counts = layout.unpack(vector)[name].reshape(-1, slots)
        for row in counts:
            for card in np.flatnonzero(row):
                if row[card] > copies[card] - hidden.get(card, 0):
                    found.append(f"{name} shows card {card} hidden from seat {seat}")
    return found
