"""The vector environment: N games of one code stepped together (:class:`PaijuVectorEnv`).

For training on many games at once. Each game is played as the AEC environment plays it
(:class:`~paiju.rl.env.PaijuAEC`: the same hands from the same seeds, the same seat to act,
the same observation and mask), but there is no PettingZoo loop and nothing is made per
step: the observation and the mask of the seat to act in every game are written into
arrays made once, which the agent reads in place.

* ``observations`` - ``(N, layout.size)`` float32: row ``i`` is what the seat to act in
  game ``i`` observes (the family's layout, seats relative to that seat);
* ``action_masks`` - ``(N, action_size)`` int8: that seat's legal indexes, exact;
* ``agents`` - ``(N,)`` int64: the seat to act in each game (``min(state.to_act())``, as the
  AEC environment's ``agent_selection``: the seats of a simultaneous decision are asked one
  after another);
* ``rewards`` - ``(N, seats)`` float32: what the last step paid each seat, in seat order
  (a hand's settlement on the step that ends it, else zeros);
* ``terminations`` - ``(N,)`` bool: whether the last step ended game ``i``'s episode.

The arrays are rewritten by every :meth:`~PaijuVectorEnv.step`: an agent that keeps a row
past the next step copies it. They are the environment's to write: an agent only reads them
(a mask row that stays as it was is not written again). :meth:`~PaijuVectorEnv.step` takes
one index per game (an integer array or sequence of N), checks all of them against the
masks before any game moves (a masked-out index raises :class:`~paiju.errors.IllegalAction`
and nothing changes), and returns the arrays.

**Reset and autoreset.** :meth:`~PaijuVectorEnv.reset` starts every game's episode; with a
``seed``, game ``i`` deals from ``seed + i`` (as ``PaijuAEC.reset(seed=seed + i)``). A
step that ends an episode sets ``terminations[i]`` and that episode's last rewards, and
resets game ``i`` at once (its next episode dealt from the same stream of seeds, as the
AEC environment's ``reset()`` without a seed): the rows of game ``i`` then already show
the first decision of the new episode. The final observation of an ended episode is not
written (everything in it past the rewards is the showdown). Episodes are never truncated.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from paiju.engine import State
from paiju.errors import IllegalAction
from paiju.rl.cardseq import CardChoice
from paiju.rl.encoding import Encoder, Layout, Mask
from paiju.rl.env import Table

__all__ = ["PaijuVectorEnv"]


class PaijuVectorEnv:
    """N games of one code stepped together (see the module docs)."""

    def __init__(
        self,
        code: str,
        num_envs: int,
        *,
        seats: int | None = None,
        hands: int | Literal["default"] | None = "default",
        context: Mapping[str, Any] | None = None,
        **room: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise IllegalAction(f"num_envs must be a whole number >= 1, got {num_envs!r}")
        self.num_envs = num_envs
        first_table = Table(code, seats, hands, context, room)
        self.tables = [first_table] + [
            Table(code, seats, hands, context, room, first_table.game) for _ in range(num_envs - 1)
        ]
        """Each game's table (its engine state is ``tables[i].state``)."""
        self.encoders: list[Encoder] = [t.encoder for t in self.tables]
        """Each game's encoder (a family's encoder keeps per-game caches: one per game)."""
        first = self.encoders[0]
        self.seats = self.tables[0].seats
        self.layout: Layout = first.layout
        self.action_size = first.action_size
        self.observations = np.zeros((num_envs, first.layout.size), dtype=np.float32)
        self.action_masks = np.zeros((num_envs, self.action_size), dtype=np.int8)
        self.agents = np.zeros(num_envs, dtype=np.int64)
        self.rewards = np.zeros((num_envs, self.seats), dtype=np.float32)
        self.terminations = np.zeros(num_envs, dtype=bool)
        self._rows = [row.data for row in self.observations]
        """Each game's observation row, written by one copy between float32 memoryviews."""
        self._masks = [row.data for row in self.action_masks]
        """Each game's mask row (an index checked against it costs a fraction of numpy's)."""
        self._written: list[Mask | None] = [None] * num_envs
        """The read-only mask last copied into each game's row (an encoder hands one out
        again while the legal indexes stay: 十三张's 72,076 entries are then not copied
        again)."""
        self._set: list[Sequence[int] | None] = [None] * num_envs
        """The legal indexes last set in each game's mask row, where they were written one
        by one from the encoder's :meth:`~Encoder.legal_indexes` (the next mask clears
        just these); None where the row was written whole."""
        self._chosen_at = first.at.get("chosen", -1)
        """Where the ``chosen`` field begins: a card-choice step changes the row only
        there, by the card chosen (-1: a family without card choices)."""
        self._paid: list[int] = []
        """The games whose rewards or termination the last step set."""
        self._choices: list[CardChoice | None] = [None] * num_envs
        self._acting: list[frozenset[int]] = [frozenset()] * num_envs
        self._seat = [0] * num_envs
        self._started = False
        self.decisions = 0
        """Indexes stepped (one per game a step), over the environment's life."""
        self.applied = 0
        """Engine actions applied, over the environment's life."""
        self.hands = 0
        """Hands played to their end, over the environment's life."""

    def reset(
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """Start every game's episode (game ``i`` from ``seed + i`` when seeded); the
        observations, masks and seats to act."""
        self.rewards.fill(0)
        self.terminations.fill(False)
        self._paid = []
        for i, table in enumerate(self.tables):
            table.seed(None if seed is None else seed + i)
            self._start(i, table.new_episode())
        self._started = True
        return self.observations, self.action_masks, self.agents

    def step(
        self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.int64],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
    ]:
        """One index for each game's seat to act; the observations, masks, seats to act,
        rewards and terminations after it (the arrays made once, rewritten)."""
        indexes = self._check(actions)
        for i in self._paid:  # only the rows the last step wrote are cleared
            self.rewards[i] = 0
            self.terminations[i] = False
        self._paid = []
        for i, index in enumerate(indexes):
            self._step_one(i, index)
        self.decisions += self.num_envs
        return self.observations, self.action_masks, self.agents, self.rewards, self.terminations

    def _check(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> list[int]:
        """The actions as a list of ints, each checked against its game's mask row (all of
        them before any game moves)."""
        if not self._started:
            raise IllegalAction("reset the vector environment before stepping it")
        indexes = actions.tolist() if isinstance(actions, np.ndarray) else list(actions)
        if len(indexes) != self.num_envs:
            raise IllegalAction(f"actions are {self.num_envs} indexes, got {len(indexes)}")
        size, masks = self.action_size, self._masks
        for i, index in enumerate(indexes):
            if type(index) is not int:  # a numpy integer, say: as an int
                index = indexes[i] = self._as_int(i, index)
            if not 0 <= index < size or not masks[i][index]:
                self._refuse(i, index)
        return indexes

    @staticmethod
    def _as_int(i: int, index: Any) -> int:
        """Game ``i``'s action as a plain int (any integer but a bool)."""
        try:
            if isinstance(index, bool | np.bool_):
                raise TypeError
            return operator.index(index)
        except TypeError:
            raise IllegalAction(f"game {i}: an action is an integer index, got {index!r}") from None

    def _refuse(self, i: int, index: int) -> None:
        """Raise the error of game ``i``'s action ``index`` (not a legal index)."""
        if not 0 <= index < self.action_size:
            raise IllegalAction(
                f"game {i}: an action is an index 0-{self.action_size - 1}, got {index}"
            )
        legal = np.flatnonzero(self.action_masks[i])
        raise IllegalAction(
            f"game {i}: action {index} of seat {self.agents[i]} is masked out (not legal"
            f" now); legal: {legal[:20].tolist()}{' …' if len(legal) > 20 else ''}"
        )

    def _step_one(self, i: int, index: int) -> None:
        table = self.tables[i]
        state = table.state
        seat = self._seat[i]
        done = self.encoders[i].step(state, seat, index, self._choices[i])
        if isinstance(done, CardChoice):
            # The same seat chooses on through the same state: its row changes only by the
            # card just chosen, counted into ``chosen`` in place (the seat's kept
            # observation is brought up to date when the state next changes).
            self._choices[i] = done
            if self._chosen_at >= 0:
                self._rows[i][self._chosen_at + index] += 1
                self._put_mask(i, state, seat, done)
            else:
                self._write(i, state, seat, done, self._acting[i])
            return
        self._choices[i] = None
        self.encoders[i].apply(state, seat, done)
        self.applied += 1
        acting = state.to_act()
        if acting:
            self._acting[i] = acting
            seat = self._seat[i] = min(acting)
            self.agents[i] = seat
            self._write(i, state, seat, None, acting)
            return
        self.rewards[i] = table.hand_over()
        self.hands += 1
        self._paid.append(i)
        if table.episode_over():
            self.terminations[i] = True
            self._start(i, table.new_episode())
        else:
            self._start(i, table.deal(state.next_context()))

    def _start(self, i: int, state: State) -> None:
        """Game ``i`` at the first decision of a new hand (``state``)."""
        acting = self._acting[i] = state.to_act()
        seat = self._seat[i] = min(acting)
        self.agents[i] = seat
        self._choices[i] = None
        self._write(i, state, seat, None, acting)

    def _write(
        self, i: int, state: State, seat: int, choice: CardChoice | None, acting: frozenset[int]
    ) -> None:
        """Game ``i``'s row of observations and of masks: ``seat``'s, which is to act."""
        sight = self.encoders[i].sights[seat]
        sight.update(state, choice, acting)
        self._rows[i][:] = sight.span
        self._put_mask(i, state, seat, choice)

    def _put_mask(self, i: int, state: State, seat: int, choice: CardChoice | None) -> None:
        """Game ``i``'s mask row: ``seat``'s legal indexes set one by one where the encoder
        lists them (the last ones cleared), else its mask copied in whole."""
        enc = self.encoders[i]
        legal = enc.legal_indexes(state, seat, choice)
        row = self._masks[i]
        if legal is not None:
            known = self._set[i]
            if known is None or len(known) > 8:  # cleared whole (at once, if many were set)
                row[:] = enc.idle.data
                self._written[i] = None
            else:
                for j in known:
                    row[j] = 0
            for j in legal:
                row[j] = 1
            self._set[i] = legal
            return
        mask = enc.mask(state, seat, choice)
        self._set[i] = None
        if mask is not self._written[i]:
            row[:] = mask.data
            self._written[i] = None if mask.flags.writeable else mask
