"""The Bot protocol, the three levels, the random legal bot and the seat-only wrapper.

A bot is made for a game (``cls(game, seed)``) and asked for one seat's decision at a
time. It decides from what :meth:`~paiju.engine.State.view` shows that seat (its own hand,
public play) and its own past actions, never from another seat's hidden cards: the tests
hand every family's bot, at every level, states its seat cannot tell apart (from
:meth:`~paiju.engine.State.resample`) and check that it decides the same. The server
goes further and hands its bots a resampled state (:class:`SeatOnly`), so that a hidden
card of the true deal never reaches them.

Levels (:data:`LEVELS`, chosen per room; :func:`paiju.games.make_bot` builds them):

* ``easy`` (简单): the rule bot with a beginner's slips (:class:`EasyBot`);
* ``normal`` (普通): the family's rule bot (托管 plays it);
* ``hard`` (困难): a search on sampled deals with the rule bot as its rollout policy
  (:class:`paiju.search.SearchBot`), where the family has one.
"""

from __future__ import annotations

import random
from typing import Protocol

from paiju.engine import Action, Game, State
from paiju.errors import IllegalAction
from paiju.sampling import ResampleFailed

__all__ = ["LEVELS", "Bot", "EasyBot", "RandomBot", "SeatOnly", "level_name"]

LEVELS: dict[str, str] = {
    "easy": "easy",
    "normal": "normal",
    "hard": "hard",
    "简单": "easy",
    "普通": "normal",
    "困难": "hard",
}
"""Every accepted spelling of a level (English, Chinese) -> its name."""

LEVEL_ZH = {"easy": "简单", "normal": "普通", "hard": "困难"}


def level_name(text: str) -> str:
    """``easy``, ``normal`` or ``hard`` for a level in English or Chinese; IllegalAction
    (reason ``bad_level``) for anything else."""
    name = LEVELS.get(text.strip().lower() if isinstance(text, str) else text)
    if name is None:
        raise IllegalAction(
            f"unknown bot level {text!r}: easy, normal or hard (简单 普通 困难)",
            reason="bad_level",
            level=str(text),
        )
    return name


class Bot(Protocol):
    """Anything that can choose an action for a seat."""

    def act(self, state: State, seat: int) -> Action:
        """A legal action for ``seat``, which must be in ``state.to_act()``."""
        ...


class RandomBot:
    """Chooses uniformly among the legal actions (seeded, so games replay)."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)

    def act(self, state: State, seat: int) -> Action:
        return state.random_action(seat, self.rng)


class EasyBot:
    """简单: the rule bot, slipping now and then the way a beginner does.

    On a slip (:attr:`slip` of its decisions in the play of the cards or tiles) it plays,
    instead of the rule bot's action, the next advice of
    :meth:`~paiju.engine.State.suggestions` (in the climbing games the lowest other play,
    or a pass: a small card thrown away without thinking; in 十三张 the second-best
    arrangement), or where a family gives no advice another legal action of the moment
    (a card that does not win the trick, a tile it would rather have kept). It bids,
    buries, calls and bets as the rule bot does, never lets a win (胡) go, and does not
    slip twice in a row.
    """

    slip = 0.35
    phases = frozenset({"playing", "play", "claim", "arranging", "grouping"})
    """The phases it slips in: the play, not the bidding or the kitty."""

    def __init__(self, game: Game, seed: int = 0, inner: Bot | None = None) -> None:
        from paiju.games import make_bot

        self.game = game
        self.rng = random.Random(seed ^ 0x5EED)
        self.inner: Bot = inner if inner is not None else make_bot(game, seed, "normal")
        self.slipped = False

    def act(self, state: State, seat: int) -> Action:
        best = self.inner.act(state, seat)
        if (
            self.slipped
            or best.type == "win"
            or state.phase not in self.phases
            or self.rng.random() >= self.slip
        ):
            self.slipped = False
            return best
        others = [a for a in state.suggestions(seat, 3) if a != best]
        if not others:
            legal = state.legal_actions(seat)
            if legal is None:
                drawn = state.random_action(seat, self.rng)
                others = [drawn] if drawn != best else []
            else:
                others = [a for a in legal if a != best and a.type != "win"]
                others = [self.rng.choice(others)] if others else []
        if not others or not state.is_legal(seat, others[0]):
            return best
        self.slipped = True
        return others[0]


class SeatOnly:
    """A bot handed only what ``seat`` may see: every decision is taken on a state
    resampled for the seat (:meth:`~paiju.engine.State.resample`), never on the true deal.
    Where the sampler finds no deal (very rare), the bot decides on the state itself; the
    tests prove that every family's bot decides the same on any state the seat cannot tell
    apart from it."""

    def __init__(self, bot: Bot, seed: int = 0) -> None:
        self.bot = bot
        self.rng = random.Random(seed)

    def act(self, state: State, seat: int) -> Action:
        try:
            seen = state.resample(seat, self.rng)
        except (ResampleFailed, NotImplementedError):
            seen = state
        return self.bot.act(seen, seat)
