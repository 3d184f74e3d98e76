"""复盘: the review of one seat's decisions in a finished hand, by the search of the 困难 bot.

For each decision the seat made where it had a choice, the review takes the position as
the seat saw it - the hand resampled from the seat's view (:meth:`State.resample`), so
nothing the seat could not see is ever read - and values the played action and the
bot's candidates (:meth:`paiju.search.SearchBot.choices`: the rule bot's action, its own
alternatives, the advice) the way the search does: each candidate played in the same
sampled worlds, the hand rolled out to its end by the rule bot with the same seeds
(common random numbers, so that the luck of the worlds cancels out of the comparison).

A candidate's value is its mean outcome for the seat over the worlds, in the game's
points (:meth:`State.payoff`), with its standard deviation; ``best`` is the candidate of
the highest mean and ``loss`` what the played action gave up against it (0 when the
played action was the best). Every decision is reviewed with ``samples`` worlds (not
raced), so that the review of a hand with the same seed is the same on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from typing import Any

from paiju.appraisal import Appraisal, Valued
from paiju.engine import Action, State, apply_log, record_format
from paiju.errors import PaijuError, ProtocolError
from paiju.fairness import deal_seed
from paiju.games import FAMILIES, resolve, rule_bot
from paiju.games import game as make_game
from paiju.sampling import ResampleFailed
from paiju.search import Budget, SearchBot

__all__ = ["FIELD_WORLDS", "SAMPLES", "review_record"]

Appraise = Callable[[State, int, Action, random.Random, int], Appraisal | None]

SAMPLES = 12
"""Worlds each decision is valued in by default."""

FIELD_WORLDS = 200
"""Fields (the others' hands dealt anew) a decision valued against the field is settled in
(十三张's arrangement, :mod:`paiju.appraisal.shisanzhang`)."""

MISTAKE = 0.5
"""A decision that gave up at least this many points (expected) is marked a mistake."""


def _key(action: Action) -> str:
    return repr(sorted(action.to_json().items()))


def _num(x: float) -> float:
    """A value as the review shows it: 3 decimals, never -0.0."""
    return round(x, 3) + 0.0


def _stats(values: list[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    var = sum((x - mean) ** 2 for x in values) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var)


def review_record(
    record: Mapping[str, Any],
    seat: int,
    samples: int = SAMPLES,
    seed: int = 0,
    worlds: int = FIELD_WORLDS,
) -> dict[str, Any]:
    """The review of ``seat``'s decisions in a finished game's published record (what
    ``GET /api/games/{id}`` answers, or a replay file of that form)."""
    if not isinstance(record.get("code"), str):
        raise ProtocolError("a game record names its game's code")
    g = make_game(str(record["code"]), **dict(record.get("options") or {}))
    seats = int(record["seats"])
    if not 0 <= seat < seats:
        raise PaijuError(f"there is no seat {seat}; seats are 0-{seats - 1}")
    if not 1 <= samples <= 256:
        raise PaijuError("samples are 1 to 256 worlds a decision")
    if not 1 <= worlds <= 10_000:
        raise PaijuError("worlds are 1 to 10,000 fields a decision")
    seed_text = record.get("deal_seed") or deal_seed(
        str(record["seed"]), record.get("client_seeds")
    )
    state = g.new_state(seats, seed=seed_text, context=dict(record.get("context") or {}))
    family = FAMILIES[g.variant.family]
    policy = rule_bot if family.search_policy is None else resolve(family.search_policy)
    search = SearchBot(g, seed, policy, Budget(samples=samples))
    rng = random.Random(seed)
    items = list(record.get("actions") or [])
    logged = [(int(item["seat"]), g.parse_action(item["action"])) for item in items]
    decisions: list[dict[str, Any]] = []
    appraise = None if family.appraise is None else resolve(family.appraise)
    reviewed = _Reviewer(search, rng, seat, samples, appraise, worlds)
    log_format = record_format(record.get("format"))
    index = 0
    for index, (who, action) in enumerate(logged):
        if who == seat and items[index].get("actor", "player") == "player":
            found = reviewed.decision(state, action, index)
            if found is not None:
                decisions.append(found)
        # one action at a time, as apply_log plays it (older formats filled in)
        for _ in apply_log(state, [(who, action)], log_format):
            pass
    losses = [d["loss"] for d in decisions]
    mistakes = sorted((d for d in decisions if d["mistake"]), key=lambda d: d["loss"], reverse=True)
    matched = sum(1 for d in decisions if d["matched"])
    return {
        "game": record.get("id"),
        "code": g.variant.code,
        "seat": seat,
        "samples": samples,
        "decisions": decisions,
        "mistakes": [d["index"] for d in mistakes],
        "loss_per_hand": round(sum(losses), 3),
        "matched": matched,
        "reviewed": len(decisions),
    }


class _Reviewer:
    def __init__(
        self,
        search: SearchBot,
        rng: random.Random,
        seat: int,
        samples: int,
        appraise: Appraise | None = None,
        worlds: int = FIELD_WORLDS,
    ) -> None:
        self.search, self.rng, self.seat, self.samples = search, rng, seat, samples
        self.appraise, self.worlds = appraise, worlds

    def decision(self, state: State, played: Action, index: int) -> dict[str, Any] | None:
        seat = self.seat
        legal = state.legal_actions(seat)
        if legal is not None and len(legal) < 2:
            return None  # no choice: nothing to review
        try:
            root = state.resample(seat, self.rng)  # the position as the seat saw it
        except ResampleFailed:
            return None
        if self.appraise is not None:
            found = self.appraise(root, seat, played, self.rng, self.worlds)
            if found is not None:
                return self.appraised(found, index)
        base = self.search.policy.act(root, seat)
        choices = self.search.choices(root, seat, base)
        keys = [_key(a) for a in choices]
        if _key(played) not in keys:
            choices.append(played)
            keys.append(_key(played))
        if len(choices) < 2:
            return None
        outcomes: list[list[float]] = [[] for _ in choices]
        for _ in range(self.samples):
            try:
                world = root.resample(seat, self.rng)
            except ResampleFailed:
                break
            roll = self.rng.randrange(2**31)
            for i, action in enumerate(choices):
                outcomes[i].append(self.search.value(world, seat, action, roll))
        if not outcomes[0]:
            return None
        stats = [_stats(o) for o in outcomes]
        valued = [Valued(a, m, sd) for a, (m, sd) in zip(choices, stats, strict=True)]
        return _decision(index, valued, played, base, "search", len(outcomes[0]), {})

    def appraised(self, found: Appraisal, index: int) -> dict[str, Any]:
        """A decision the family valued itself (exactly, or against the field)."""
        return _decision(
            index,
            list(found.candidates),
            found.played,
            found.bot,
            found.method,
            found.worlds,
            found.facts,
        )


def _decision(
    index: int,
    valued: list[Valued],
    played: Action,
    base: Action,
    method: str,
    worlds: int,
    facts: Mapping[str, Any],
) -> dict[str, Any]:
    """One reviewed decision: the best candidate (the highest value, the first of equals),
    the played one's loss against it, whether it matched the bot or the best."""
    keys = [_key(v.action) for v in valued]
    best = max(range(len(valued)), key=lambda i: (valued[i].value, -i))
    mine = keys.index(_key(played))
    value_best, value_played = valued[best].value, valued[mine].value
    loss = max(0.0, value_best - value_played)
    if loss < 1e-9:
        best = mine  # as good as the best: the played move is a best one
    return {
        "index": index,
        "played": played.to_json(),
        "best": valued[best].action.to_json(),
        "bot": base.to_json(),
        "value_played": _num(value_played),
        "value_best": _num(value_best),
        "spread_played": round(valued[mine].spread, 3),
        "spread_best": round(valued[best].spread, 3),
        "loss": _num(loss),
        "matched": mine == best or _key(played) == _key(base),
        "mistake": loss >= MISTAKE,
        "method": method,
        "worlds": worlds,
        **({"facts": dict(facts)} if facts else {}),
        "candidates": [
            {
                "action": v.action.to_json(),
                "value": _num(v.value),
                "spread": round(v.spread, 3),
                **({"facts": dict(v.facts)} if v.facts else {}),
            }
            for v in valued
        ],
    }
