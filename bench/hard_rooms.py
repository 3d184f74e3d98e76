"""Wall time of a 困难 decision when many rooms' bots think at once, as the server runs them.

``--rooms`` rooms each ask the server's pool of bot threads (:func:`seat_bots.thinker`,
one thread a core) for a hard 三打哈 decision at the same moment, ``--rounds`` times, each
search stopped by the room's wall deadline (:func:`seat_bots.wall_deadline`, the room's
30 s per move capped at :data:`seat_bots.HARD_WALL_S`). Prints the wall p50/p99 from the
ask to the answer, for 1 room (the baseline, measured in the same run) and for 8 and 32.

    .venv/bin/python bench/hard_rooms.py
    .venv/bin/python bench/hard_rooms.py --rooms 8 --rooms 32 --rounds 3
"""

from __future__ import annotations

import argparse
import random
import time

from paiju.engine import State
from paiju.games import game, make_bot
from paiju.server import seat_bots


def positions(count: int) -> list[tuple[State, int]]:
    """Mid-hand 三打哈 positions (after 20 rule-bot decisions) and the seat to act."""
    g = game("sandaha")
    out: list[tuple[State, int]] = []
    for k in range(count):
        state = g.new_state(seed=f"hard-rooms/{k}")
        bots = [make_bot(g, s) for s in range(state.seats)]
        while len(state.history) < 20 and not state.is_over:
            seat = min(state.to_act())
            state.apply(seat, bots[seat].act(state, seat))
        out.append((state, min(state.to_act())))
    return out


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(rooms: int, rounds: int, spots: list[tuple[State, int]]) -> list[float]:
    """The wall seconds of each decision, ``rooms`` asked at once, ``rounds`` times."""
    pool = seat_bots.thinker()
    g = game("sandaha")
    walls: list[float] = []
    rng = random.Random(rooms)
    for _ in range(rounds):
        asked = []
        for r in range(rooms):
            state, seat = spots[rng.randrange(len(spots))]
            seen = seat_bots.seat_view_state(state, seat)
            bot = make_bot(g, r, "hard")
            start = time.monotonic()
            deadline = seat_bots.wall_deadline(30.0)
            asked.append((start, pool.submit(seat_bots.think, bot, seen, seat, deadline)))
        for start, future in asked:
            future.result()
            walls.append(time.monotonic() - start)
    return walls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, action="append", help="rooms at once (repeat)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    spots = positions(6)
    print(
        f"{seat_bots.cores()} core(s), {seat_bots.thinker()._max_workers} bot threads,"
        f" wall cap {seat_bots.HARD_WALL_S:.0f} s"
    )
    base = run(1, max(args.rounds, 4), spots)
    base_p99 = quantile(base, 0.99)
    print(f"1 room: wall p50 {quantile(base, 0.5):.2f} s, p99 {base_p99:.2f} s (baseline)")
    for rooms in args.rooms or [8, 32]:
        walls = run(rooms, args.rounds, spots)
        p99 = quantile(walls, 0.99)
        print(
            f"{rooms} rooms: wall p50 {quantile(walls, 0.5):.2f} s, p99 {p99:.2f} s,"
            f" max {max(walls):.2f} s; p99 {p99 / base_p99:.1f}x the single room's"
        )


if __name__ == "__main__":
    main()
