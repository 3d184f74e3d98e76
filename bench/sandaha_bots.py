"""三打哈 bot strength: the bot team against random-legal players on the same deals.

Each seeded deal is played twice: bots in seats 0 and 2 against random players in 1 and 3,
then with the seats swapped. Prints the bot team's mean settlement per hand and its win
rate (team total > 0), each with a 95% interval, plus how bot declarers fare among bots.

    .venv/bin/python bench/sandaha_bots.py            # 2,000 deals (4,000 hands)
    .venv/bin/python bench/sandaha_bots.py --hands 200
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable

from paiju.bots import Bot, RandomBot
from paiju.engine import Action, Game, State
from paiju.games import game
from paiju.games.sandaha.bot import SandahaBot
from paiju.games.sandaha.game import SandahaState


class RandomCardPlayer:
    """Bids, buries and names trump like the bot, then plays random legal cards."""

    def __init__(self, game: Game, seed: int) -> None:
        self.bot = SandahaBot(game, seed)
        self.random = RandomBot(game, seed)

    def act(self, state: State, seat: int) -> Action:
        if state.phase == "playing":
            return self.random.act(state, seat)
        return self.bot.act(state, seat)


def play(state: SandahaState, bots: list[Bot]) -> tuple[int, ...]:
    while not state.is_over:
        (seat,) = state.to_act()
        state.apply(seat, bots[seat].act(state, seat))
    return state.settlement()


def interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, half


def match(g: Game, hands: int, other: Callable[[Game, int], Bot], label: str) -> None:
    """The bot team in two seats against ``other`` in the other two, seats swapped."""
    team_totals: list[float] = []
    wins: list[float] = []
    bot_declarer_made: list[float] = []
    for i in range(hands):
        seed = f"bench/{i}"
        for bot_seats in ((0, 2), (1, 3)):
            bots: list[Bot] = [
                SandahaBot(g, i * 4 + s) if s in bot_seats else other(g, i * 4 + s)
                for s in range(4)
            ]
            state = g.new_state(4, seed=seed)
            assert isinstance(state, SandahaState)
            scores = play(state, bots)
            total = sum(scores[s] for s in bot_seats)
            team_totals.append(total)
            wins.append(1.0 if total > 0 else 0.0)
            if state.declarer in bot_seats:
                bot_declarer_made.append(0.0 if state.lost_by_declarer() else 1.0)
    mean, half = interval(team_totals)
    rate, rate_half = interval(wins)
    print(f"三打哈 bot team vs {label}: {hands} deals x 2 seatings ({len(wins)} hands)")
    print(f"  bot team mean settlement per hand: {mean:+.2f} ± {half:.2f} (95%), stake 10")
    print(f"  bot team win rate: {100 * rate:.1f}% ± {100 * rate_half:.1f}% (95%)")
    made, made_half = interval(bot_declarer_made) if len(bot_declarer_made) > 1 else (0.0, 0.0)
    print(
        f"  bot declarers: {len(bot_declarer_made)} hands, contract made "
        f"{100 * made:.1f}% ± {100 * made_half:.1f}%"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="deals (each played twice)")
    args = parser.parse_args()
    g = game("sandaha")
    started = time.perf_counter()
    match(g, args.hands, RandomBot, "random-legal players")
    match(g, args.hands, RandomCardPlayer, "players bidding like the bot, random card play")
    elapsed = time.perf_counter() - started
    declarer_made: list[float] = []
    bids: list[float] = []
    for i in range(min(args.hands, 500)):
        state = g.new_state(4, seed=f"self/{i}")
        assert isinstance(state, SandahaState)
        play(state, [SandahaBot(g, i * 4 + s) for s in range(4)])
        declarer_made.append(0.0 if state.lost_by_declarer() else 1.0)
        bids.append(float(state.bid or 0))
    made, made_half = interval(declarer_made)
    print(
        f"bots only ({len(bids)} hands): mean 庄分 {statistics.fmean(bids):.1f}, "
        f"declarer made {100 * made:.1f}% ± {100 * made_half:.1f}%"
    )
    print(f"  {elapsed / (4 * args.hands) * 1000:.1f} ms per hand (bots against others)")


if __name__ == "__main__":
    main()
