"""Soak: many whole matches of a family with every invariant on, for the rare states.

Plays ``--matches`` whole matches (the game's own match, or ``--hands`` hands each) with
the harness's deep checks on every hand (liveness, conservation, views, replay, resample)
and bots of every level in the seats (easy, normal and hard in turn, each bot handed a
resampled state as the server hands it, so a sample the sampler cannot find is counted;
the hard bot searches ``--samples`` worlds a decision, fewer than in play, to soak more
matches), in ``--workers`` processes. Prints every failure with the match seed that
reproduces it and the command that plays it again, the failures counted by kind, the
matches per second, and the cost of the deep checks and these bots: the first match played
again with the cheap checks and normal bots, as the baseline in the same run.

    .venv/bin/python bench/soak.py sandaha                       # 4 matches, short
    .venv/bin/python bench/soak.py sandaha --matches 2000 --workers 2
    .venv/bin/python bench/soak.py all --matches 20 --levels normal
    .venv/bin/python bench/soak.py 1301,2001 --matches 2000 --progress 60
    .venv/bin/python bench/soak.py anshan-jiayibing --option must_beat=true
    .venv/bin/python bench/soak.py sandaha --seed soak:17 --matches 1   # one match again
    .venv/bin/python bench/soak.py sandaha --start 500 --matches 500    # matches 500..999

``kill -INT`` or ``kill -TERM`` stops a long run early and still prints the figures of the
matches played.
A match's seed is ``{seed}:{i}``; ``--seed S:I --matches 1`` plays exactly that match, and
``--start I --matches N`` plays matches I..I+N-1 of the seed's sequence, so that a long soak
can be run in pieces across runs (the summary names the range played).
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from paiju.bots import Bot, SeatOnly
from paiju.games import SAMPLE_CODES, game, make_bot
from paiju.harness import playout
from paiju.search import Budget, SearchBot

LEVELS = ("easy", "normal", "hard")


@dataclass
class MatchReport:
    code: str
    seed: str
    hands: int = 0
    decisions: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)


def match_seed(seed: str, i: int, matches: int) -> str:
    """The seed of match ``i``: ``seed`` itself when it names one match (``S:I``, one match)."""
    return seed if matches == 1 and ":" in seed else f"{seed}:{i}"


def soak_match(
    code: str,
    seed: str,
    levels: tuple[str, ...],
    hands: int | None,
    samples: int,
    options: dict[str, Any],
) -> MatchReport:
    """One whole match of ``code`` from ``seed``, every invariant on, seat ``s`` played by
    a bot of level ``levels[s % len(levels)]`` handed resampled states only (a hard bot
    searching ``samples`` worlds a decision)."""
    g = game(code, **options)
    seats = g.seat_count(None)
    inner = [make_bot(g, 1000 + s, levels[s % len(levels)]) for s in range(seats)]
    for bot in inner:
        if isinstance(bot, SearchBot):
            bot.budget = Budget(samples=samples)
    wrapped = [SeatOnly(b, 2000 + s) for s, b in enumerate(inner)]
    bots: list[Bot] = list(wrapped)
    started = time.process_time()
    result = playout(g, seats, seed, bots=bots, hands=hands)
    report = MatchReport(code, seed, len(result.hands), result.decisions)
    report.seconds = time.process_time() - started
    report.failures = list(result.failures)
    for s, bot in enumerate(wrapped):
        if bot.failures:
            report.failures.append(
                f"{code} seed {seed}: no sample for seat {s}'s bot {bot.failures} times"
            )
        search = bot.bot
        if isinstance(search, SearchBot) and search.resample_failures:
            report.failures.append(
                f"{code} seed {seed}: the hard bot of seat {s} found no sample"
                f" {search.resample_failures} times"
            )
    return report


def kind_of(failure: str) -> str:
    """A failure's kind: its text without the seed and the numbers."""
    text = re.sub(r"seed \S+", "seed _", failure)
    return re.sub(r"\d+", "N", text)[:90]


def summarize(
    code: str,
    reports: list[MatchReport],
    args: argparse.Namespace,
    levels: tuple[str, ...],
    options: dict[str, Any],
) -> int:
    """Print one family's figures, failures and the commands that play them again; the
    number of failures."""
    failures = [f for r in reports for f in r.failures]
    hands = sum(r.hands for r in reports)
    cpu = sum(r.seconds for r in reports)
    g = game(code, **options)
    playout(g, None, reports[0].seed, hands=1, deep=False)  # warm: tables built, modules read
    quick_started = time.process_time()
    playout(g, None, reports[0].seed, hands=args.hands, deep=False)
    quick = time.process_time() - quick_started
    print(
        f"{code}: {len(reports)} matches ({reports[0].seed}..{reports[-1].seed}), {hands} hands,"
        f" levels {'/'.join(levels)},"
        f" {len(failures)} failures; {cpu / len(reports):.2f} s CPU a match;"
        f" deep checks and these bots cost {reports[0].seconds / max(quick, 1e-9):.1f}x"
        f" the first match with cheap checks and normal bots ({quick:.2f} s)"
    )
    for kind, n in Counter(kind_of(f) for f in failures).most_common():
        print(f"  {n:5d} × {kind}")
    for f in failures[:50]:
        print(f"  {f}")
    for r in reports:
        if r.failures:
            print(
                f"  again: bench/soak.py {code} --seed {r.seed} --matches 1"
                f" --levels {','.join(levels)} --samples {args.samples}"
                + (f" --hands {args.hands}" if args.hands else "")
                + "".join(f" --option '{o}'" for o in args.option)
            )
    return len(failures)


def played_range(args: argparse.Namespace) -> str:
    """The matches asked for, as the seeds that name them (a run stopped early played the
    first of them in turn)."""
    if args.matches == 1 and ":" in args.seed:
        return f"match {args.seed}"
    last = args.start + args.matches - 1
    return f"matches {args.seed}:{args.start}..{args.seed}:{last}"


def stop(signum: int, frame: object) -> None:
    """Stop a long run early (SIGINT or SIGTERM, even in a background job, where the shell
    has SIGINT ignored): the matches played are still summed up."""
    raise KeyboardInterrupt


def tally(reports: dict[str, list[MatchReport]]) -> str:
    """Matches played and failures found so far, by family."""
    return ", ".join(
        f"{c} {len(rs)}/{sum(len(r.failures) for r in rs)}" for c, rs in reports.items()
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "code", help=f"variant codes, comma-separated, or 'all' ({' '.join(SAMPLE_CODES)})"
    )
    parser.add_argument("--matches", type=int, default=4, help="matches of each family")
    parser.add_argument("--seed", default="soak")
    parser.add_argument(
        "--start", type=int, default=0, help="the first match's index in the seed's sequence"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--hands", type=int, default=None, help="hands per match (else whole)")
    parser.add_argument("--levels", default=",".join(LEVELS), help="bot levels, by seat in turn")
    parser.add_argument("--samples", type=int, default=8, help="worlds a hard decision searches")
    parser.add_argument(
        "--progress",
        type=float,
        default=0.0,
        help="every so many seconds, print the matches played and failures so far",
    )
    parser.add_argument(
        "--option", action="append", default=[], help="a room option, NAME=JSON (repeat)"
    )
    args = parser.parse_args()
    codes = SAMPLE_CODES if args.code == "all" else tuple(args.code.split(","))
    levels = tuple(args.levels.split(","))
    options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    # The families take turns, match by match, so a run stopped early has soaked each alike.
    jobs = [
        (code, match_seed(args.seed, i, args.matches), levels, args.hands, args.samples, options)
        for i in range(args.start, args.start + args.matches)
        for code in codes
    ]
    reports: dict[str, list[MatchReport]] = {code: [] for code in codes}
    started = time.perf_counter()
    shown = started
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    done = (
        pool.map(soak_match, *zip(*jobs, strict=True)) if pool else (soak_match(*j) for j in jobs)
    )
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        for report in done:
            reports[report.code].append(report)
            for f in report.failures:
                print(f"  failure: {f}", flush=True)
            now = time.perf_counter()
            if args.progress and now - shown >= args.progress:
                shown = now
                print(f"[{now - started:.0f} s] matches/failures: {tally(reports)}", flush=True)
    except KeyboardInterrupt:  # stopped early (SIGINT): the figures of the matches played
        print(f"stopped early; matches/failures: {tally(reports)}", flush=True)
        if pool:
            pool.shutdown(cancel_futures=True)
    else:
        if pool:
            pool.shutdown()
    wall = time.perf_counter() - started
    worst = 0
    for code in codes:
        if not reports[code]:
            continue
        worst = max(worst, summarize(code, reports[code], args, levels, options))
    played = sum(len(rs) for rs in reports.values())
    print(
        f"all: {played} matches in {wall:.0f} s wall on {args.workers} worker(s)"
        f" ({played / wall:.3f} matches/s); {played_range(args)}"
    )
    sys.exit(1 if worst else 0)


if __name__ == "__main__":
    main()
