"""The 困难 (hard) bot: a determinized search over sampled deals, one module for every family.

Perfect-information Monte Carlo (PIMC), as the bridge, 斗地主 and 升级 programs use it, made
safe by a prior for the rule bot:

1. the family's rule bot (普通; in 麻将 a rule bot that discards by what the hand is worth,
   :class:`~paiju.games.majiang.bot.WorthBot`: the family's ``search_policy``) proposes
   its action, and a few other candidates are taken
   (the legal actions where they are few; else the plans the rule bot itself names where
   it has an ``alternatives(state, seat)`` (三打哈: each suit's low and high lead, the
   duck, the feed, the cheapest win; the climbing games: the pass, the cheapest plays,
   the block, and on the 放羊 call its other modes; 麻将: the next best discards by what
   they leave the hand worth), then the advice of :meth:`~paiju.engine.State.suggestions` where
   those are too few, then the family's own draws);
2. a world is sampled: :meth:`~paiju.engine.State.resample` deals again everything the seat
   cannot see, consistently with all public play, so the search never reads a hidden card
   (where few deals fit, :func:`~paiju.sampling.all_samples` gives all of them instead,
   each once a pass and weighed by its probability);
3. every candidate is played in that world (its own :meth:`~paiju.engine.State.clone`),
   then the hand is rolled out to its end with the rule bot in every seat, all candidates
   with the same rollout seeds (common random numbers: the worlds' luck cancels out of the
   comparison);
4. steps 2-3 repeat until the budget (samples: the family's
   :attr:`~paiju.engine.State.search_samples` where it sets one, with CPU time only as a
   safety cap, so that a decision is the same on any machine) is spent, raced: after
   a few worlds a candidate clearly worse than the rule bot's action, or one that
   changed no outcome, is dropped, and the rest of the budget goes to those still in the running
   (when none is, the rule bot's action is played at once); the candidate whose
   mean outcome beats the rule bot's by a margin of its standard errors (one, or the
   family's :attr:`~paiju.engine.State.search_margin`) is played, else the rule bot's
   action. With few samples the search keeps to the rule bot; with more it
   corrects it where the rollouts agree.

The outcome of a rollout is :meth:`~paiju.engine.State.payoff` for the seat (its
settlement by default; 打弹子 counts the deal's points, as a match settles only at its end).
A rollout is cut after :attr:`~paiju.engine.State.search_horizon` decisions where a family
sets one (麻将, whose rule bot is slow), and then valued by
:meth:`~paiju.engine.State.estimate`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from paiju.bots import Bot
from paiju.engine import Action, Game, State
from paiju.sampling import ResampleFailed, all_samples

__all__ = ["BotMaker", "Budget", "SearchBot"]

BotMaker = Callable[[Game, int], Bot]
"""Makes a bot for a game and a seed (:func:`paiju.games.rule_bot`, a bot class)."""


SAFETY_MS = 3000.0
"""The CPU time a decision may take at most, a safety cap only: the budget is in samples
(sized so that a decision's p99 stays under a second of one core's time), so the same
state, seed and level decide the same on any machine unless this cap cuts a search short."""


class Budget:
    """What one decision may spend: at most ``samples`` worlds (None: the family's
    :attr:`~paiju.engine.State.search_samples`, else 48) and at least ``min_samples``;
    ``ms`` of thinking (the CPU time of the thread that thinks: one core's work, however
    busy the machine) only as a safety cap (:data:`SAFETY_MS`)."""

    def __init__(
        self, ms: float = SAFETY_MS, samples: int | None = None, min_samples: int = 2
    ) -> None:
        self.ms = ms
        self.samples = samples
        self.min_samples = min_samples


def _key(action: Action) -> str:
    return repr(sorted(action.to_json().items()))


def _mean_se(d: Sequence[float], w: Sequence[float]) -> tuple[float, float]:
    """The weighted mean of outcome differences ``d`` (each world weighed by ``w``: its
    probability where the worlds are all of them, else 1) and its standard error (by the
    effective number of worlds; with equal weights the plain one)."""
    n = len(d)
    total = sum(w[:n])
    mean = sum(x * v for x, v in zip(d, w, strict=False)) / total
    if n < 2:
        return mean, math.inf
    var = sum(v * (x - mean) ** 2 for x, v in zip(d, w, strict=False)) / total * n / (n - 1)
    effective = total**2 / sum(v * v for v in w[:n])
    return mean, math.sqrt(var / effective)


def _running(d: Sequence[float], w: Sequence[float], quiet_after: int) -> bool:
    """Whether a candidate with outcome differences ``d`` (worlds weighed by ``w``) may
    still beat the rule bot: the mean is not below 0 by more than a standard error, and,
    from ``quiet_after`` worlds on, some outcome changed."""
    n = len(d)
    if not any(d):
        return n < quiet_after
    mean, se = _mean_se(d, w)
    return mean + se >= 0


class SearchBot:
    """困难: PIMC over :meth:`State.resample` with the family's rule bot (see the module)."""

    candidates = 5
    """The most actions compared (the rule bot's among them)."""
    margin = 1.0
    """How many standard errors a candidate must beat the rule bot's action by."""
    race_after = 4
    """The worlds every candidate is rolled out in before the race drops any."""

    def __init__(
        self, game: Game, seed: int, policy: BotMaker, budget: Budget | None = None
    ) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.budget = budget or Budget()
        self.make_policy = policy
        """Makes the rule bot (``policy(game, seed)``) that proposes and rolls out."""
        self.policy: Bot = policy(game, seed)
        self.last_samples = 0
        self.deadline: float | None = None
        """A wall-clock time (:func:`time.monotonic`) at which the search stops, however few
        worlds it has rolled out (the server's cap on a bot's turn); None: no wall cap."""
        self.resample_failures = 0
        self.last_exact = 0
        """How many worlds the last search took as all there are (0: it drew them)."""
        self.last_weights: list[float] = []
        """The weight of each world of the last search (its probability when they are all
        of them, else 1)."""
        """Searches cut short for want of a sample (the samplers raise only where none
        exists: the soak bench counts these)."""

    def rollout_bots(self, seed: int, seats: int) -> list[Bot]:
        return [self.make_policy(self.game, seed + s) for s in range(seats)]

    def act(self, state: State, seat: int) -> Action:
        base = self.policy.act(state, seat)
        choices = self.choices(state, seat, base)
        self.last_samples = 0
        if len(choices) < 2:
            return base
        diffs = self.search(state, seat, choices)
        if not diffs or len(diffs[0]) < 2:
            return base
        margin = state.search_margin if state.search_margin is not None else self.margin
        best, best_score = 0, 0.0
        for i, d in enumerate(diffs[1:], 1):
            mean, se = _mean_se(d, self.last_weights)
            if mean <= 0:
                continue
            score = mean / max(se, 1e-9)
            if score > margin and score > best_score:
                best, best_score = i, score
        return choices[best]

    def choices(self, state: State, seat: int, base: Action) -> list[Action]:
        """The rule bot's action first, then up to :attr:`candidates` - 1 others: every
        legal action where they are few, else the rule bot's alternatives (its own ranking
        of its plans), the advice where those are too few, and random legal actions, in
        that order."""
        out: dict[str, Action] = {_key(base): base}
        legal = state.legal_actions(seat)
        if legal is not None and len(legal) <= self.candidates:
            pool: Sequence[Action] = legal
        else:
            alternatives = getattr(self.policy, "alternatives", None)
            pool = list(alternatives(state, seat)) if alternatives is not None else []
            if len({_key(a) for a in pool} | {_key(base)}) < self.candidates:
                pool = [*pool, *state.suggestions(seat, self.candidates, base)]
            if legal:
                pool = [*pool, *self.rng.sample(list(legal), min(len(legal), self.candidates))]
            else:
                for _ in range(self.candidates * 2):
                    pool = [*pool, state.random_action(seat, self.rng)]
        for action in pool:
            if len(out) >= self.candidates:
                break
            if state.is_legal(seat, action):
                out.setdefault(_key(action), action)
        return list(out.values())

    def search(self, state: State, seat: int, choices: list[Action]) -> list[list[float]]:
        """Per candidate, its outcome minus the rule bot's in each sampled world.

        Where few worlds fit the seat's view (:func:`~paiju.sampling.all_samples`: no more
        than the cap on worlds), the worlds are all of them, each once a pass, in passes
        of a random order as long as whole passes fit the cap, each weighed by its
        probability (:attr:`last_weights`); else they are drawn by
        :meth:`~paiju.engine.State.resample`, weighed alike.

        The budget is raced: from :attr:`race_after` worlds on, a candidate whose mean
        is below the rule bot's by more than its standard error, or (from a twelfth of
        the cap on worlds, at least :attr:`race_after`) that has changed no outcome at
        all, is rolled out no more, so the worlds left go to the candidates still in the
        running; when none is left the search ends (the rule bot plays). A move that
        changes a deal's result only now and then keeps its place where the cap is high."""
        budget = self.budget
        deadline = time.thread_time() + budget.ms / 1000
        diffs: list[list[float]] = [[] for _ in choices]
        weights: list[float] = []
        self.last_weights = weights
        self.last_exact = 0
        self.last_samples = 0
        active = list(range(1, len(choices)))
        cap = budget.samples or state.search_samples or 48
        quiet_after = max(self.race_after, cap // 12)
        try:
            found, complete = all_samples(state, seat, self.rng, cap)
        except ResampleFailed:
            self.resample_failures += 1
            return diffs
        if complete:
            self.last_exact = len(found)
            passes = max(1, cap // len(found))
            cap = passes * len(found)
            queue: list[tuple[State, float]] = []
            for _ in range(passes):
                queue += self.rng.sample(found, len(found))
        else:
            queue = list(found)
        n = 0
        wall = self.deadline
        while (
            active
            and n < cap
            and (n < budget.min_samples or time.thread_time() < deadline)
            and (wall is None or time.monotonic() < wall)
        ):
            if queue:
                world, weight = queue.pop(0)
            else:
                try:
                    world, weight = state.resample(seat, self.rng), 1.0
                except ResampleFailed:
                    self.resample_failures += 1
                    break
            seed = self.rng.randrange(2**31)
            base = self.value(world, seat, choices[0], seed)
            diffs[0].append(0.0)
            weights.append(weight)
            for i in active:
                diffs[i].append(self.value(world, seat, choices[i], seed) - base)
            n += 1
            if n >= self.race_after:
                active = [i for i in active if _running(diffs[i], weights, quiet_after)]
        self.last_samples = n
        return diffs

    def value(self, world: State, seat: int, action: Action, seed: int) -> float:
        """The outcome for ``seat`` of ``action`` in ``world``, rolled out by the rule bot."""
        sim = world.clone()
        sim.apply(seat, action)
        bots = self.rollout_bots(seed, sim.seats)
        pick = random.Random(seed)
        horizon = sim.search_horizon
        # the rule bots pick legal actions only: where the family says its checks change
        # nothing, a rollout step skips them (most of a step's engine time)
        step = sim.apply_unchecked if sim.search_unchecked else sim.apply
        steps = 0
        while not sim.is_over:
            if horizon is not None and steps >= horizon:
                return sim.estimate(seat)
            acting = sim.to_act()
            if len(acting) == 1:
                (who,) = acting
            else:
                who = pick.choice(sorted(acting))
            step(who, bots[who].act(sim, who))
            steps += 1
        return sim.payoff(seat)
