"""What a 复盘 costs: decisions reviewed per CPU second and the p99 per decision, per game,
beside the 困难 bot's own decision (the search the review stands on) in the same run.

    PYTHONPATH=src .venv/bin/python bench/review_cost.py [--hands 2] [--samples 12]
        [--worlds 200] [--seat 1] [--codes …]

For each code, hands are played by the rule bot in every seat (seeds 0, 1, …); ``--seat``'s
decisions are then reviewed (:func:`paiju.review.review_record`, ``--samples`` worlds a
decision for the search, ``--worlds`` fields for a 十三张 arrangement) and, for the
baseline, decided again by the 困难 bot from the same positions. Seat 1, not 0: seat 0
is the banker of 宝子, who makes no decision. ``how`` is how the decisions were valued
(``search``, ``exact``: 宝子's and 佳佳宝's, ``field``: 十三张's arrangement). One hand of
each code is reviewed first, untimed, so that the one-time tables of a code (宝子's odds,
佳佳宝's rank multisets, 2107's Monte Carlo odds) are made, as in a worker process that
has reviewed that code before; ``--cold`` times them too.
Times are CPU time of this thread (one core's work, whatever else the machine runs). The
ratio is the review's time per decision over the hard bot's: what a review costs in
units of the bot's own thinking.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from paiju.fairness import deal_seed
from paiju.games import SAMPLE_CODES, game, make_bot, rule_bot
from paiju.review import FIELD_WORLDS, review_record


def _record(code: str, seed: int) -> dict[str, Any]:
    g = game(code)
    text = f"{seed:064x}"
    state = g.new_state(seed=deal_seed(text, None))
    bots = [rule_bot(g, seed + s) for s in range(state.seats)]
    pick = random.Random(seed)
    actions = []
    while not state.is_over:
        acting = sorted(state.to_act())
        who = acting[0] if len(acting) == 1 else pick.choice(acting)
        action = bots[who].act(state, who)
        state.apply(who, action)
        actions.append({"seat": who, "action": action.to_json(), "actor": "player"})
    return {"id": seed, "code": code, "options": {}, "seats": state.seats, "seed": text,
            "client_seeds": None, "context": {}, "actions": actions, "format": None}  # fmt: skip


def _hard_times(record: dict[str, Any], seat: int) -> list[float]:
    """The 困难 bot's CPU time for each of ``seat``'s decisions of the record."""
    g = game(record["code"])
    state = g.new_state(record["seats"], seed=deal_seed(record["seed"], None))
    hard = make_bot(g, 0, "hard")
    out = []
    rng = random.Random(0)
    for item in record["actions"]:
        who, action = item["seat"], g.parse_action(item["action"])
        legal = state.legal_actions(who)
        if who == seat and (legal is None or len(legal) > 1):
            seen = state.resample(seat, rng)
            start = time.thread_time()
            hard.act(seen, seat)
            out.append(time.thread_time() - start)
        state.apply(who, action)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--worlds", type=int, default=FIELD_WORLDS)
    parser.add_argument("--seat", type=int, default=1)
    parser.add_argument(
        "--cold",
        action="store_true",
        help="Time the first review too (a code's one-time tables: the odds, the rank"
        " multisets), which a worker process makes once and keeps.",
    )
    parser.add_argument("--codes", nargs="*", default=list(SAMPLE_CODES))
    args = parser.parse_args()
    heads = ("code", "decisions", "per CPU s", "p99 ms", "hard p50", "ratio", "how")
    print("{:<18} {:>9} {:>9} {:>8} {:>9} {:>6}  {}".format(*heads))
    for code in args.codes:
        times: list[float] = []
        hard: list[float] = []
        how: set[str] = set()
        if not args.cold:  # a worker's tables made once, as a running server has them
            review_record(_record(code, 10_000), args.seat, args.samples, worlds=args.worlds)
        for h in range(args.hands):
            record = _record(code, h)
            start = time.thread_time()
            found = review_record(record, args.seat, args.samples, seed=h, worlds=args.worlds)
            spent = time.thread_time() - start
            n = found["reviewed"]
            times += [spent / n] * n if n else []
            how.update(d["method"] for d in found["decisions"])
            hard += _hard_times(record, args.seat)
        times.sort()
        hard.sort()
        per_s = len(times) / sum(times) if sum(times) else float("inf")
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))] * 1000 if times else 0.0
        mean = sum(times) / len(times) if times else 0.0
        hard_mean = sum(hard) / len(hard) if hard else 0.0
        hard_p50 = hard[len(hard) // 2] * 1000 if hard else 0.0
        ratio = mean / hard_mean if hard_mean else float("nan")
        print(
            f"{code:<18} {len(times):>9} {per_s:>9.1f} {p99:>8.0f} {hard_p50:>9.0f} {ratio:>5.1f}x"
            f"  {','.join(sorted(how))}"
        )


if __name__ == "__main__":
    main()
