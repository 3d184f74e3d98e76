"""The climbing games (鞍山甲乙丙, 鞍山放羊, 宁城打弹子) through the generic PlayEncoder.

A play (出牌: any combination that beats the table, a bomb of two decks included) or a pass
(过) is a card-choice sequence over the core's listed legal plays: ``0-53`` choose a card,
``54`` done (with nothing chosen: pass, where passing is legal). Small decisions follow:

* 放羊: ``55 + i`` the banker's call (叫牌) of card ``i // 2`` (card index 0-51), 亮 when
  ``i`` is odd - the callable ones are masked in;
* 打弹子: ``55`` 宣战 (declare), ``56`` 不宣战.

打弹子's later deals open with 进贡/还贡 and 挑选 (N47-N57): 进贡 under 骚贡 and 还贡 are
card-choice sequences over the hand judged by a :class:`TributeOracle` (``legal_actions``
is None there); 挑选 is a card-choice sequence over the shown pool (two of the four shown
cards, the pairs ``legal_other`` lists). Its episode is a whole match by default
(``default_hands = None``): it settles only when the match ends.

Observation fields after the generic ``phase``, ``hand``, ``chosen``, ``hand_sizes``:
``table`` (54) the combination to beat and ``table_seat`` (seats) who played it;
``passed`` (seats) who passed on it; ``trick`` (seats, 54) this trick's plays by seat;
``played_by`` (seats, 54) every seat's played cards; ``places`` (seats) finishing place /
seats (0 while holding cards); ``seen`` (seats, 54) the hands the observer sees (its own; a
partner's under 打弹子's 明牌; all at the end); ``scores`` (seats) the settlement.

打弹子 adds ``pool`` (54) the shown cards to pick from, ``received`` (54) the observer's
received cards, ``shown`` (seats, 54) the cards known in each hand, ``owed`` (seats) the
cards still to give or return / 4, ``declarer`` (seats), ``totals`` (2) the match points of
the observer's side and the other / target.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from paiju.cards import Card
from paiju.engine import Action, Game, State
from paiju.games.climbing.core import ClimbingState, Pass, Play
from paiju.rl.cardseq import CARD_SLOTS, CardChoice, EnumeratedPlays, PredicateOracle
from paiju.rl.encoding import GrowingCounts, Obs
from paiju.rl.plays import FieldSpec, PlayEncoder, PlaySight

if TYPE_CHECKING:
    from paiju.games.danzi.game import DanziState

__all__ = [
    "ClimbingEncoder",
    "ClimbingSight",
    "DanziEncoder",
    "DanziSight",
    "FangyangEncoder",
    "JiayibingEncoder",
    "TributeOracle",
]


class ClimbingEncoder(PlayEncoder):
    """The climbing core's plays and public state."""

    phases: tuple[str, ...] = ("playing", "over")
    unchecked = True
    """The masks are exact: the engine's check of a play (the cards held, the table beaten)
    need not run."""

    def play_cards(self, action: Action) -> tuple[int, ...] | None:
        if isinstance(action, Play):
            return action.cards  # a tuple of cards, which are card indexes (ints)
        if isinstance(action, Pass):
            return ()
        return None

    def make_play(self, state: State, seat: int, cards: tuple[int, ...]) -> Action:
        return Play(tuple(map(Card, cards))) if cards else Pass()

    def _plays(self, state: State, seat: int) -> tuple[list[tuple[int, ...]], list[int]]:
        # The plays and the pass by their exact types first (a lead lists dozens of plays,
        # every decision): what play_cards gives them; anything else as the generic part.
        acts = state.legal_actions(seat) or ()
        plays: list[tuple[int, ...]] = []
        for i, action in enumerate(acts):
            kind = type(action)
            if kind is Play:
                plays.append(action.cards)  # type: ignore[attr-defined]
            elif kind is Pass:
                plays.append(())
            else:
                return self._plays_of(acts, plays, i)
        return plays, []

    def hand(self, state: State, seat: int) -> Sequence[int]:
        assert isinstance(state, ClimbingState)
        return state.hands[seat]

    def hand_sizes(self, state: State) -> list[int]:
        assert isinstance(state, ClimbingState)
        return list(map(len, state.hands))

    def extra_fields(self) -> list[FieldSpec]:
        n = self.seats
        return [
            ("table", (CARD_SLOTS,), "the combination to beat"),
            ("table_seat", (n,), "who played it"),
            ("passed", (n,), "who passed on it"),
            ("trick", (n, CARD_SLOTS), "this trick's plays by seat"),
            ("played_by", (n, CARD_SLOTS), "every seat's played cards"),
            ("places", (n,), "finishing place / seats (0 while holding cards)"),
            ("seen", (n, CARD_SLOTS), "the hands the observer sees"),
            ("scores", (n,), "the settlement"),
        ]

    def __init__(self, game: Game, seats: int) -> None:
        self._played = GrowingCounts(seats, CARD_SLOTS)
        """Every seat's played cards as counts (one row per seat, absolute)."""
        super().__init__(game, seats)

    def _observe(self, state: State, seat: int) -> Obs:
        # The generic fields and the climbing ones in one pass (this runs every decision):
        # the cells set to 1 and the card counts all land in ``out`` at :meth:`finish`.
        assert isinstance(state, ClimbingState)
        out = self.vector()
        at, n = self.at, self.seats
        cards = self._cards  # the indexes counted in at finish (put_cards, inlined)
        phase, phases = state.phase, self.phases
        if phase in phases:
            cards.append(at["phase"] + phases.index(phase))
        hands = state.hands
        cards.extend(map(at["hand"].__add__, hands[seat]))
        sizes = at["hand_sizes"]
        for s, h in enumerate(hands):
            out[sizes + (s - seat) % n] = len(h) / 54
        if state.table is not None and state.table_seat is not None:
            cards.extend(map(at["table"].__add__, state.table.cards))
            cards.append(at["table_seat"] + (state.table_seat - seat) % n)
        passed = at["passed"]
        cards.extend([passed + (s - seat) % n for s in state.passed])
        trick = at["trick"]
        for s, played in state.trick:
            if played:
                cards.extend(map((trick + (s - seat) % n * CARD_SLOTS).__add__, played))
        over = phase == "over"
        played_by, seen = at["played_by"], at["seen"]
        self._played.update(state, state.played_by)
        self._played.put_seen_by(out, played_by, seat)
        sees = state.sees_hand
        for s in range(n):
            if over or sees(seat, s):
                cards.extend(map((seen + (s - seat) % n * CARD_SLOTS).__add__, hands[s]))
        places = at["places"]
        for place, s in enumerate(state.finished, 1):
            out[places + (s - seat) % n] = place / n
        if over:
            scores = at["scores"]
            for s, x in enumerate(state.settlement()):
                out[scores + (s - seat) % n] = x
        self.observe_extra(state, seat, out)
        return self.finish(out)

    def extra_start(self) -> int:
        return self.layout["scores"].stop

    def make_sight(self, seat: int) -> ClimbingSight:
        return ClimbingSight(self, seat)


class ClimbingSight(PlaySight):
    """A seat's climbing observation kept up to date: besides the generic fields, the table
    and the passes rewritten when they changed, this trick's plays and every seat's played
    cards counted in as they come (afresh when a trick starts), the places as seats finish,
    a seen hand's row when that hand changed, and the scores once the deal is over.

    The climbing core never changes a seat's hand, played cards or shown cards in place
    (a clone shares them: a change replaces the seat's list or counter), so they are kept
    here as the engine's own objects and compared by identity first. Through the playing
    phase a hand changes only by the seat's plays: a hand row (``hand``, or a ``seen`` row)
    then loses just the cards its seat played since the last look."""

    __slots__ = ("passed", "places", "played", "scores", "seen", "table", "trick")

    def forget(self) -> None:
        super().forget()
        n = self.encoder.seats
        self.table: tuple[object, int | None] = (None, None)
        self.passed: frozenset[int] = frozenset()
        self.trick: list[tuple[int, tuple[int, ...] | None]] = []
        self.played: list[list[int]] = [[] for _ in range(n)]
        """Each seat's played cards (``played_by``) as counted in (the engine's lists)."""
        self.places = 0
        self.seen: list[Sequence[int] | None] = [None] * n
        """Each seat's hand as its ``seen`` row shows it, the engine's list (None: not
        shown)."""
        self.scores: tuple[int, ...] = ()

    def refresh(self, state: State, acting: frozenset[int]) -> None:
        assert isinstance(state, ClimbingState)
        at, seat = self.encoder.at, self.seat
        phase = state.phase
        steady = phase == self.phase == "playing"  # hands change only by plays since
        self.put_phase(phase)
        gained = self.refresh_played(state)
        hands = state.hands
        hand = hands[seat]
        self.new_hand = hand is not self.hand and hand != self.hand
        if self.new_hand:
            self.put_hand(at["hand"], hand, self.hand, gained[seat] if steady else ())
        self.hand = hand
        self.put_sizes(list(map(len, hands)))
        self.refresh_climbing(state, gained if steady else None)
        self.refresh_extra(state)

    def put_hand(
        self, start: int, hand: Sequence[int], old: Sequence[int], lost: Sequence[int]
    ) -> None:
        """A hand row from ``start``: ``old`` less the cards ``lost`` where that leaves
        ``hand`` (as many cards: the seat's plays since), else counted afresh."""
        if lost and len(old) - len(hand) == len(lost):
            cells = self.cells
            for c in lost:
                cells[start + c] -= 1
        else:
            self.count(start, CARD_SLOTS, hand)

    def refresh_played(self, state: ClimbingState) -> list[Sequence[int]]:
        """The ``played_by`` rows; the cards each seat played since the last look (its
        list grown at the end), empty where its list stayed or did not just grow."""
        n, seat = self.encoder.seats, self.seat
        gained: list[Sequence[int]] = [()] * n
        played_by, known_played = state.played_by, self.played
        if played_by != known_played:  # the engines replace a seat's list as it grows
            cells = self.cells
            start = self.encoder.at["played_by"]
            for s in range(n):
                now, was = played_by[s], known_played[s]
                if now is was:
                    continue
                size, k = len(now), len(was)
                row = start + (s - seat) % n * CARD_SLOTS
                if size > k and now[:k] == was:  # grown at the end: the new cards counted in
                    new = gained[s] = now[k:]
                    for c in new:
                        cells[row + c] += 1
                elif now != was:  # anything else: counted afresh
                    self.count(row, CARD_SLOTS, now)
            self.played = list(played_by)
        return gained

    def refresh_climbing(self, state: ClimbingState, gained: list[Sequence[int]] | None) -> None:
        """The climbing core's fields but ``played_by`` (``table`` … ``scores``);
        ``gained``: the cards each seat played since the last look, through the playing
        phase (None otherwise)."""
        enc, cells, seat = self.encoder, self.cells, self.seat
        at, n = enc.at, enc.seats
        combo, table_seat = state.table, state.table_seat
        old, old_seat = self.table
        if combo is not old or table_seat != old_seat:  # the very combination: unchanged
            start, who = at["table"], at["table_seat"]
            if old is not None and old_seat is not None:
                self.clear(start, start + CARD_SLOTS)
                cells[who + (old_seat - seat) % n] = 0
            if combo is not None and table_seat is not None:
                for c in combo.cards:
                    cells[start + c] += 1
                cells[who + (table_seat - seat) % n] = 1
            self.table = (combo, table_seat)
        passed = state.passed
        if passed != self.passed:
            start = at["passed"]
            self.clear(start, start + n)
            for s in passed:
                cells[start + (s - seat) % n] = 1
            self.passed = frozenset(passed)
        trick, known = state.trick, self.trick
        if trick != known:
            start = at["trick"]
            k = len(known)
            if len(trick) > k and trick[:k] == known:
                new = trick[k:]  # grown: the new plays counted in
            else:
                self.clear(start, start + n * CARD_SLOTS)
                new = trick
            for s, cards in new:
                if cards:
                    row = start + (s - seat) % n * CARD_SLOTS
                    for c in cards:
                        cells[row + c] += 1
            self.trick = list(trick)
        finished = state.finished
        if len(finished) != self.places:
            start = at["places"]
            for place in range(self.places, len(finished)):  # the order only grows
                cells[start + (finished[place] - seat) % n] = (place + 1) / n
            self.places = len(finished)
        over = self.phase == "over"
        hands, seen = state.hands, self.seen
        start = at["seen"]
        # where the game shows no other hand (the core's sees_hand), only its own row shows
        own = not over and type(state).sees_hand is ClimbingState.sees_hand
        for s in (seat,) if own else range(n):
            shown = hands[s] if over or state.sees_hand(seat, s) else None
            was = seen[s]
            if shown is was:
                continue
            if s == seat and shown is not None and was is not None and not self.new_hand:
                seen[s] = shown
                continue  # its own hand, shown and as the ``hand`` field last wrote it
            row = start + (s - seat) % n * CARD_SLOTS
            if shown is None:
                self.clear(row, row + CARD_SLOTS)
            elif s == seat:  # its own hand: the ``hand`` field, just brought up to date
                hand = at["hand"]
                span = self.span
                span[row : row + CARD_SLOTS] = span[hand : hand + CARD_SLOTS]
            elif was is None or shown != was:
                self.put_hand(row, shown, was or (), () if gained is None else gained[s])
            seen[s] = shown
        if over:
            scores = tuple(state.settlement())
            if scores != self.scores:
                self.put_seats(at["scores"], scores)
                self.scores = scores


class JiayibingEncoder(ClimbingEncoder):
    """鞍山甲乙丙: plays and passes only."""


class FangyangEncoder(ClimbingEncoder):
    """鞍山放羊: the banker's call (叫牌, 亮 or 不亮) of one card, then plays."""

    phases = ("calling", "playing", "over")

    def __init__(self, game: Game, seats: int) -> None:
        from paiju.games.climbing.fangyang import Call

        self.small = tuple(Call.of(c, shown) for c in range(52) for shown in (False, True))
        super().__init__(game, seats)


class TributeOracle(PredicateOracle):
    """进贡 and 还贡 as predicates (``legal_actions`` is None there: several cards of 27).

    A legal choice is ``count`` cards of the hand, each an ``allowed`` card index (no 4 in
    either, N52/N55; 还贡: no card of a value received, N54) and, for an automatic tribute
    (no 骚贡), of the ``ranks`` owed (the N biggest, N50). ``card`` may be added exactly when
    ``chosen + card`` is still within those limits and the hand holds enough allowed cards to
    finish, so every prefix extends to a legal choice and every legal choice is reachable.
    """

    def __init__(
        self,
        hand: Sequence[int],
        count: int,
        allowed: Callable[[int], bool],
        ranks: Counter[int] | None = None,
    ) -> None:
        from paiju.games.danzi.combos import card_rank_index

        self.count = count
        self.allowed = [allowed(c) for c in range(CARD_SLOTS)]
        self.ranks = ranks
        self._rank = [card_rank_index(c) for c in range(CARD_SLOTS)]
        self.supply = sum(1 for c in hand if self.allowed[c])

    def can_add(self, chosen: Sequence[int], size: int, card: int) -> bool:
        if size >= self.count or not self.allowed[card] or self.supply < self.count:
            return False
        if self.ranks is not None:
            rank = self._rank[card]
            held = sum(n for c, n in enumerate(chosen) if n and self._rank[c] == rank)
            return held < self.ranks[rank]
        return True

    def can_finish(self, chosen: Sequence[int], size: int) -> bool:
        return size == self.count  # every chosen card passed can_add


class DanziEncoder(ClimbingEncoder):
    """宁城打弹子: 进贡 (骚贡), 挑选, 还贡, 宣战 or not, then plays; a whole match per episode.

    * 进贡 under 骚贡 and 还贡 are card-choice sequences over the hand judged by a
      :class:`TributeOracle` (``count`` cards, no 4; 还贡 no value received);
    * 挑选 (two of the four shown cards, 2/2 form) is a card-choice sequence over the shown
      pool as the "hand", with the pairs ``legal_other`` lists as an ``EnumeratedPlays``;
    * ``55`` 宣战, ``56`` 不宣战.
    """

    default_hands = None
    phases = (
        "tribute",
        "picking",
        "returning",
        "picking_returns",
        "declaring",
        "playing",
        "over",
    )

    def __init__(self, game: Game, seats: int) -> None:
        from paiju.games.danzi.game import DanziState, Declare, Decline, Pick, Return, Tribute

        self.small = (Declare(), Decline())
        self._chosen_cards = (Tribute, Pick, Return)
        self._state_type = DanziState
        super().__init__(game, seats)

    def _plays(self, state: State, seat: int) -> tuple[list[tuple[int, ...]], list[int]]:
        # in the playing phase (the most asked) the plays' cards at once, no action made
        assert isinstance(state, self._state_type)
        plays = state.legal_play_cards(seat)
        if plays is None:
            return super()._plays(state, seat)
        return plays, []  # type: ignore[return-value]  # cards are card indexes (ints)

    def play_cards(self, action: Action) -> tuple[int, ...] | None:
        if isinstance(action, Play):  # the most asked, first
            return action.cards
        if isinstance(action, self._chosen_cards):
            return tuple(action.cards)
        return super().play_cards(action)

    def make_play(self, state: State, seat: int, cards: tuple[int, ...]) -> Action:
        phase = state.phase
        if phase == "playing":  # the most asked, first
            return super().make_play(state, seat, cards)
        from paiju.games.danzi.game import Pick, Return, Tribute

        chosen = tuple(Card(c) for c in cards)
        if phase == "tribute":
            return Tribute(chosen)
        if phase == "returning":
            return Return(chosen)
        if phase in ("picking", "picking_returns"):
            return Pick(chosen)
        return super().make_play(state, seat, cards)

    def card_choice(
        self, state: State, seat: int, plays: list[tuple[int, ...]]
    ) -> CardChoice | None:
        if state.phase == "playing":  # the most asked, first
            return super().card_choice(state, seat, plays)
        from paiju.games.danzi.combos import FOUR, card_rank_index
        from paiju.games.danzi.game import DanziState
        from paiju.games.danzi.tribute import auto_tribute, is_free, return_value

        assert isinstance(state, DanziState)
        phase = state.phase
        if phase in ("picking", "picking_returns"):
            pool = state.pool if phase == "picking" else state.return_pool
            return CardChoice([c for _, c in pool], EnumeratedPlays(plays)) if plays else None
        hand = state.hands[seat]
        if phase == "tribute" and seat in state.givers:
            count = state.givers[seat][0]
            ranks = None
            if not is_free(hand):
                ranks = Counter(card_rank_index(c) for c in auto_tribute(hand, count))
            return CardChoice(
                hand, TributeOracle(hand, count, lambda c: card_rank_index(c) != FOUR, ranks)
            )
        if phase == "returning" and seat in state.returners:
            received = state.received[seat]
            forbidden = {return_value(c) for c in received}
            return CardChoice(
                hand,
                TributeOracle(
                    hand,
                    len(received),
                    lambda c: card_rank_index(c) != FOUR and return_value(c) not in forbidden,
                ),
            )
        return super().card_choice(state, seat, plays)

    def extra_fields(self) -> list[FieldSpec]:
        n = self.seats
        return [
            *super().extra_fields(),
            ("pool", (CARD_SLOTS,), "the shown cards to pick from (挑选, 2/2 form)"),
            ("received", (CARD_SLOTS,), "the cards the observer received this deal (进贡/挑选)"),
            ("shown", (n, CARD_SLOTS), "cards known to be in each seat's hand (shown, N56)"),
            ("owed", (n,), "cards each seat still gives (进贡) or returns (还贡) / 4"),
            ("declarer", (n,), "who declared 宣战"),
            ("totals", (2,), "match points of the observer's side, then the other's / target"),
        ]

    def make_sight(self, seat: int) -> DanziSight:
        return DanziSight(self, seat)

    def owed(self, state: DanziState) -> list[float]:
        """The cards each seat still gives (进贡) or returns (还贡) / 4, by seat."""
        owed = [0.0] * self.seats
        if state.phase == "tribute":
            for s, (count, _, _) in state.givers.items():
                owed[s] = count / 4
        elif state.phase == "returning":
            for s in state.returners:
                owed[s] = len(state.received[s]) / 4
        return owed

    def observe_extra(self, state: State, seat: int, out: Obs) -> None:
        assert isinstance(state, self._state_type)
        at = self.at
        phase = state.phase
        if phase == "picking":
            self.put_cards(out, "pool", [c for _, c in state.pool])
        elif phase == "picking_returns":
            self.put_cards(out, "pool", [c for _, c in state.return_pool])
        self.put_cards(out, "received", state.received.get(seat, ()))
        for s in range(self.seats):
            exposed = state.exposed[s]
            if exposed:
                self.put_cards(out, "shown", list(exposed.elements()), self.relative(seat, s))
        for s, x in enumerate(self.owed(state)):
            out[at["owed"] + self.relative(seat, s)] = x
        if state.declarer is not None:
            out[at["declarer"] + self.relative(seat, state.declarer)] = 1
        target = state.options["target"]
        side = state.team_of(seat)
        out[at["totals"]] = state.totals[side] / target
        out[at["totals"] + 1] = state.totals[1 - side] / target


class DanziSight(ClimbingSight):
    """A seat's 打弹子 observation kept up to date: the climbing fields, then its own -
    the pool, the cards received, each seat's shown cards, what each still owes, the
    declarer and the match points - each rewritten when what it shows changed."""

    __slots__ = ("declarer", "exposed", "owed", "playing", "pool", "received", "shown", "totals")

    encoder: DanziEncoder

    def forget(self) -> None:
        super().forget()
        n = self.encoder.seats
        self.playing = False
        """Whether the fields were last brought up to date in the playing phase, which
        changes none of them but the shown cards (a shown card played)."""
        self.pool: list[int] = []
        self.received: list[int] = []
        self.exposed: list[dict[int, int]] = [{} for _ in range(n)]
        """Each seat's shown cards as written (plain dicts: compared in one call)."""
        self.shown: list[object] = []
        """The engine's counters of shown cards last written, held (the core replaces a
        seat's counter when it changes: :meth:`put_held_shown`)."""
        self.owed = [0.0] * n
        self.declarer: int | None = None
        self.totals = (0.0, 0.0)

    def refresh_extra(self, state: State) -> None:
        enc = self.encoder
        assert isinstance(state, enc._state_type)
        cells, seat, at = self.cells, self.seat, enc.at
        phase = state.phase
        playing = phase == "playing"
        self.shown = self.put_held_shown(
            at["shown"], CARD_SLOTS, self.exposed, self.shown, state.exposed
        )
        if playing and self.playing:  # no pool, nothing received or owed, no new declarer
            return
        self.playing = playing
        pool = []
        if phase == "picking":
            pool = [c for _, c in state.pool]
        elif phase == "picking_returns":
            pool = [c for _, c in state.return_pool]
        if pool != self.pool:
            self.count(at["pool"], CARD_SLOTS, pool)
            self.pool = pool
        received = list(state.received.get(seat, ()))
        if received != self.received:
            self.count(at["received"], CARD_SLOTS, received)
            self.received = received
        owed = enc.owed(state)
        if owed != self.owed:
            self.put_seats(at["owed"], owed)
            self.owed = owed
        if state.declarer != self.declarer:
            self.mark_seat(at["declarer"], self.declarer, state.declarer)
            self.declarer = state.declarer
        target = state.options["target"]
        side = state.team_of(seat)
        totals = (state.totals[side] / target, state.totals[1 - side] / target)
        if totals != self.totals:
            cells[at["totals"]], cells[at["totals"] + 1] = totals
            self.totals = totals
