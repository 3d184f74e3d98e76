"""Two bot levels against each other on the same seeded deals, seats rotated (``paiju duel``),
and duplicate events of several (``paiju event``, :func:`event`).

Each deal (a seed) is played once per rotation: in a game of fixed sides (甲乙丙's teams,
打弹子's partners) the first level takes one side and the second the other, then they
swap; elsewhere the first level sits in one seat against the second level in every other
seat, one rotation per seat. Every rotation plays the same cards, so the deal's luck
cancels out: a deal's figure is the first level's mean result over its rotations (per
seat it played), and the answer is the mean over the deals with its 95% interval, and the
first level's decision times.

A deal is a whole match (its seeds ``SEED/i/h`` hand after hand: 8 局, 麻将's 圈, 打弹子
to 30 points), valued by the match's totals, or with ``per_hand`` by each of its hands'
own points (:meth:`~paiju.engine.State.payoff`, the measure a search maximises), the mean
per hand: every hand of the match is duelled either way, the later ones with what the
match carries into them (the banker, the leader, the dealer).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from typing import Any

from paiju.bots import Bot, level_name
from paiju.duplicate import compare, interval, sides
from paiju.engine import Game, Match, State
from paiju.errors import PaijuError
from paiju.games import make_bot

__all__ = ["duel", "event", "sides"]  # sides: paiju.duplicate's, kept here for old callers


class _Timed:
    """A bot whose decision times are written down (CPU time of the thread: one core's
    work, whatever else the machine runs)."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.times = times

    def act(self, state: State, seat: int) -> Any:
        start = time.thread_time()
        action = self.bot.act(state, seat)
        self.times.append((time.thread_time() - start) * 1000)
        return action


def _bot(game: Game, seed: int, level: str, budget_ms: float | None) -> Bot:
    bot = make_bot(game, seed, level)
    if budget_ms is not None and hasattr(bot, "budget"):
        from paiju.search import Budget

        bot.budget = Budget(ms=budget_ms)
    return bot


def _play(state: State, bots: list[Bot], rng: random.Random) -> None:
    while not state.is_over:
        acting = sorted(state.to_act())
        seat = acting[0] if len(acting) == 1 else rng.choice(acting)
        state.apply(seat, bots[seat].act(state, seat))


def duel(
    game: Game,
    levels: tuple[str, str],
    deals: int,
    seed: str = "0",
    *,
    per_hand: bool = False,
    budget_ms: float | None = None,
    max_hands: int = 200,
) -> dict[str, Any]:
    """``{"mean", "ci95", "deals", "hands", "decision_ms": {"p50", "p99"}, …}`` of
    ``levels[0]`` against ``levels[1]`` (see the module docs; ``hands``: the hands played
    in all, every rotation of every deal); ``declarer`` adds, where the game has a
    declarer (三打哈), how often each level made its contract as declarer."""
    first, second = (level_name(x) for x in levels)
    times: list[float] = []
    figures: list[float] = []
    made = {"first": [0, 0], "second": [0, 0]}
    per = "hand" if per_hand or game.match_over({}, 1) else "match"
    played = 0
    for i in range(deals):
        probe = game.new_state(seed=f"{seed}/{i}/0")
        groups = sides(probe)
        results: list[float] = []
        for r, mine in enumerate(groups):
            bots: list[Bot] = []
            for s in range(probe.seats):
                bot_seed = (i * 7919 + r * 104729 + s) & 0x7FFFFFFF
                if s in mine:
                    bots.append(_Timed(_bot(game, bot_seed, first, budget_ms), times))
                else:
                    bots.append(_bot(game, bot_seed, second, budget_ms))
            rng = random.Random(f"{seed}/{i}/{r}")
            match = Match(game, probe.seats, (f"{seed}/{i}/{h}" for h in range(max_hands)))
            hands: list[float] = []
            while not match.is_over and len(match.hands) < max_hands:
                state = match.next_hand()
                _play(state, bots, rng)
                hands.append(statistics.fmean(state.payoff(s) for s in mine))
                declarer = getattr(state, "declarer", None)
                lost = getattr(state, "lost_by_declarer", None)
                if isinstance(declarer, int) and callable(lost):
                    side = made["first" if declarer in mine else "second"]
                    side[0] += 1
                    side[1] += not lost()
            played += len(hands)
            if per == "hand":
                results.append(statistics.fmean(hands))
            else:
                results.append(statistics.fmean(match.totals[s] for s in mine))
        figures.append(statistics.fmean(results))
    mean = statistics.fmean(figures)
    half = 1.96 * statistics.stdev(figures) / math.sqrt(len(figures)) if len(figures) > 1 else 0.0
    ordered = sorted(times)

    def pct(q: float) -> float:
        if not ordered:
            return 0.0
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    answer: dict[str, Any] = {
        "code": game.variant.code,
        "levels": [first, second],
        "per": per,
        "mean": round(mean, 4),
        "ci95": [round(mean - half, 4), round(mean + half, 4)],
        "deals": deals,
        "hands": played,
        "decision_ms": {"p50": pct(0.5), "p99": pct(0.99), "n": len(ordered)},
    }
    if made["first"][0] or made["second"][0]:
        answer["declarer"] = {
            side: {"hands": n, "made": k, "rate": round(k / n, 3) if n else None}
            for side, (n, k) in made.items()
        }
    return answer


def event(
    game: Game,
    entrants: list[str],
    deals: int,
    seed: str = "0",
    *,
    field: str = "normal",
    budget_ms: float | None = None,
) -> dict[str, Any]:
    """A duplicate event (复式赛) of bot levels: every entrant plays every deal (one hand,
    the seed ``SEED/i/0``) from every side of it (:func:`sides`: each seat alone, or each
    fixed team) against the same ``field`` in the other seats, with the same seeds for
    every bot and every draw; an entrant's figure for a deal is its mean result over the
    sides it played, so the luck of the deal cancels out of the comparison. Standings:
    each entrant's mean per deal with its 95% interval, and ``vs_others``, its mean lead
    over the other entrants on the same deals (with its interval), best first."""
    names = [level_name(x) for x in entrants]
    if len(names) < 2 or len(set(names)) != len(names):
        raise PaijuError("an event needs two or more different entrants")
    if deals < 2:
        raise PaijuError("an event needs at least 2 deals")
    field_level = level_name(field)
    scores: dict[str, list[float]] = {name: [] for name in names}
    results: list[tuple[int, int, int, float]] = []
    for i in range(deals):
        probe = game.new_state(seed=f"{seed}/{i}/0")
        groups = sides(probe)
        for e, name in enumerate(names):
            mine_results: list[float] = []
            for r, mine in enumerate(groups):
                bots: list[Bot] = []
                for s in range(probe.seats):
                    bot_seed = (i * 7919 + r * 104729 + s) & 0x7FFFFFFF
                    level = name if s in mine else field_level
                    bots.append(_bot(game, bot_seed, level, budget_ms))
                state = game.new_state(probe.seats, seed=f"{seed}/{i}/0")
                _play(state, bots, random.Random(f"{seed}/{i}/{r}"))
                points = statistics.fmean(state.payoff(s) for s in mine)
                mine_results.append(points)
                results.append((i, r, e, points))
            scores[name].append(statistics.fmean(mine_results))
    # the lead over the others on the same deal from the same side (paiju.duplicate)
    leads: dict[int, dict[int, list[float]]] = {}
    for (i, _side, e), value in compare(results).items():
        leads.setdefault(e, {}).setdefault(i, []).append(value)
    standings: list[dict[str, Any]] = []
    for e, name in enumerate(names):
        mean, ci = interval(scores[name])
        lead, lead_ci = interval([statistics.fmean(v) for _, v in sorted(leads[e].items())])
        standings.append(
            {
                "entrant": name,
                "mean": mean,
                "ci95": ci,
                "vs_others": lead,
                "vs_others_ci95": lead_ci,
            }
        )
    standings.sort(key=lambda row: -float(row["mean"]))
    return {
        "code": game.variant.code,
        "deals": deals,
        "field": field_level,
        "sides": len(sides(game.new_state(seed=f"{seed}/0/0"))),
        "standings": standings,
    }
