"""The Bot protocol, the three levels, the random legal bot and the seat-only wrapper.

A bot is made for a game (``cls(game, seed)``) and asked for one seat's decision at a
time. It decides from what :meth:`~paiju.engine.State.view` shows that seat (its own hand,
public play) and its own past actions, never from another seat's hidden cards: the tests
hand every family's bot, at every level, states its seat cannot tell apart (from
:meth:`~paiju.engine.State.resample`) and check that it decides the same. The server
goes further and hands its bots a resampled state (:class:`SeatOnly`), so that a hidden
card of the true deal never reaches them.

Levels (:data:`LEVELS`, chosen per room; :func:`paiju.games.make_bot` builds them, handing
the easy and hard bots the family's rule bot: this module and :mod:`paiju.search` sit below
the registry and never import it):

* ``easy`` (简单): the rule bot with a beginner's slips (:class:`EasyBot`);
* ``normal`` (普通): the family's rule bot (托管 plays it);
* ``hard`` (困难): a search on sampled deals with the rule bot as its rollout policy
  (:class:`paiju.search.SearchBot`), where the family has one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
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

    On a slip (:attr:`slip` of its decisions in the play of the cards or tiles) it makes
    the mistake its family's rule bot names (its ``mistake(state, seat, best, rng)``): the
    errors a beginner makes at that table, not a random move. A 三打哈 beginner throws a
    point card into the opponents' trick, ducks a trick it could take, leads a point card
    that is not master; a climbing beginner (甲乙丙, 放羊, 打弹子) breaks a bomb up, spends
    its top cards early, passes when it could take the trick, overtakes its partner; a
    麻将 beginner keeps no count of the tiles (any discard as near to 听, never the one
    with the most 进张, no defence) and claims every 碰 and 吃 it is offered. Where a
    family names none, the slip is the next advice of
    :meth:`~paiju.engine.State.suggestions` (十三张's second-best arrangement), else
    another legal action of the moment. It bids, buries, calls and bets as the rule bot
    does, never lets a win (胡) go, and does not slip twice in a row.
    """

    slip = 0.35
    phases = frozenset({"playing", "play", "claim", "arranging", "grouping"})
    """The phases it slips in: the play, not the bidding or the kitty."""

    def __init__(self, game: Game, seed: int, inner: Bot) -> None:
        self.game = game
        self.rng = random.Random(seed ^ 0x5EED)
        self.inner = inner
        """The rule bot whose choices it makes, slips aside (:func:`paiju.games.make_bot`
        hands it the family's)."""
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
        wrong = self.mistake(state, seat, best)
        if wrong is None or wrong == best or wrong.type == "win" or not state.is_legal(seat, wrong):
            return best
        self.slipped = True
        return wrong

    def mistake(self, state: State, seat: int, best: Action) -> Action | None:
        """The slip instead of ``best``: the family's beginner's mistake, else the next
        advice or another legal action; None when there is no plausible one."""
        family: Callable[[State, int, Action, random.Random], Action | None] | None = getattr(
            self.inner, "mistake", None
        )
        if family is not None:
            return family(state, seat, best, self.rng)
        others = [a for a in state.suggestions(seat, 3, best) if a != best]
        if others:
            return others[0]
        legal = state.legal_actions(seat)
        if legal is None:
            return state.random_action(seat, self.rng)
        rest = [a for a in legal if a != best and a.type != "win"]
        return self.rng.choice(rest) if rest else None


class SeatOnly:
    """A bot handed only what ``seat`` may see: every decision is taken on a state
    resampled for the seat (:meth:`~paiju.engine.State.resample`), never on the true deal.
    Where the sampler finds no deal (a :class:`~paiju.sampling.ResampleFailed`, which
    the samplers raise only when none exists), the bot is not asked: the seat plays a
    random legal action, drawn from what the seat itself holds."""

    def __init__(self, bot: Bot, seed: int = 0) -> None:
        self.bot = bot
        self.rng = random.Random(seed)
        self.failures = 0
        """Decisions taken without the bot, for want of a sample."""

    def act(self, state: State, seat: int) -> Action:
        try:
            seen = state.resample(seat, self.rng)
        except (ResampleFailed, NotImplementedError):
            self.failures += 1
            return state.random_action(seat, self.rng)
        return self.bot.act(seen, seat)
