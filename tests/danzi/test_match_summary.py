"""The 总结算 of 打弹子: a deal (盘) settles 0 until the match (局) ends, so its hands won
count the deals each seat's side scored more points in, not the deals settled above 0."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import count
from typing import Any

import pytest

from paiju.engine import Match
from paiju.errors import NotYourTurn
from paiju.games import game
from paiju.games.danzi.game import DanziState
from paiju.reasons import texts
from paiju.server.errors import ServerError
from paiju.server.rows import Table
from paiju.server.summary import room_summary


def seeds(name: str) -> Iterator[str]:
    return (f"{name}-{k}" for k in count())


def play_deal(state: DanziState, rng: random.Random) -> None:
    while not state.is_over:
        seat = min(state.to_act())
        state.apply(seat, state.random_action(seat, rng))


def a_match(hands: int | None = None) -> Match:
    """A whole 打弹子 match to 30 (or ``hands`` deals) of random players."""
    match = Match(game("ningcheng-danzi"), 4, seeds("summary"), hands=hands)
    rng = random.Random(7)
    while not match.is_over:
        state = match.next_hand()
        assert isinstance(state, DanziState)
        play_deal(state, rng)
    return match


def deal_winners(match: Match) -> list[tuple[bool, ...]]:
    """Per deal, the seats of the side the deal's own result gives more points."""
    out = []
    for state in match.hands:
        assert isinstance(state, DanziState)
        points = state.result_json()["points"]
        side = None if points[0] == points[1] else int(points[1] > points[0])
        out.append(tuple(side is not None and s % 2 == side for s in range(4)))
    return out


def test_a_match_counts_the_deals_each_side_scored_more_in() -> None:
    match = a_match()
    assert len(match.hands) > 1
    *deals, last = match.hands
    assert all(not any(d.settlement()) for d in deals)  # 0 until the match ends
    winners = deal_winners(match)
    summary = match.summary()
    assert summary.hands == len(match.hands)
    assert list(summary.won) == [sum(w[s] for w in winners) for s in range(4)]
    assert summary.won[0] == summary.won[2] and summary.won[1] == summary.won[3]
    assert sum(summary.won) == 2 * len(match.hands)  # every deal scores for one side
    # the side that won the match (积分) is the 大赢家
    assert isinstance(last, DanziState) and last.winner is not None
    assert set(summary.winners) == {last.winner, last.winner + 2}


def test_a_room_cut_short_counts_its_deals_by_points() -> None:
    match = a_match(hands=2)
    summary = match.summary()
    assert summary.hands == 2 and summary.totals == (0, 0, 0, 0) and summary.winners == ()
    assert list(summary.won) == [sum(w[s] for w in deal_winners(match)) for s in range(4)]
    assert sum(summary.won) == 4


class Store:
    """The store's hands of one room (newest first), as the server reads them."""

    def __init__(self, hands: Sequence[DanziState]) -> None:
        self.rows = [
            {"settlement": list(h.settlement()), "context": dict(h.context)}
            for h in reversed(hands)
        ]

    def hands(self, room_id: int, limit: int = 100) -> list[dict[str, Any]]:
        return self.rows[:limit]

    def player_names(self, players: Sequence[int]) -> dict[int, str]:
        return {p: f"p{p}" for p in players}


def test_the_servers_summary_counts_deals_by_points_and_other_games_by_settlement() -> None:
    match = a_match(hands=3)
    hands = [h for h in match.hands if isinstance(h, DanziState)]
    table = Table(1, "ningcheng-danzi", 1, [7, None, None, None], True, context=match.context)
    summary = room_summary(Store(hands), table)  # type: ignore[arg-type]
    assert [line.won for line in summary.seats] == list(match.summary().won)
    assert sum(line.won for line in summary.seats) == 6
    # without the room's carried context the last deal's points are unknown: not counted
    blind = Table(1, "ningcheng-danzi", 1, [7, None, None, None], True)
    unknown = room_summary(Store(hands), blind)  # type: ignore[arg-type]
    assert sum(line.won for line in unknown.seats) == 4


def test_refusals_that_name_a_hand_say_the_games_word() -> None:
    """打弹子's 盘 / deal in the refusals of an action after its deal (the engine's
    ``hand_over``, the server's ``stale`` and ``no_hand``); other games keep 局 / hand."""
    match = a_match(hands=1)
    (deal,) = match.hands
    with pytest.raises(NotYourTurn) as over:
        deal.check_turn(0)
    assert texts(over.value) == {"zh": "这一盘已经结束", "en": "The deal is over"}
    words = {"hand_word": list(deal.game.hand_words)}
    stale = texts(ServerError("stale", "game 3 is not in play", **words))
    assert stale == {"zh": "这一盘已经过去了", "en": "That deal is over"}
    waiting = texts(ServerError("no_hand", "no hand is in play", **words))
    assert waiting is not None and waiting["zh"].endswith("等下一盘")
    assert waiting["en"] == "No deal is in play: wait for the next one"
    assert texts(ServerError("stale", "game 3 is not in play")) == {
        "zh": "这一局已经过去了",
        "en": "That hand is over",
    }
    other = game("1301").new_state(4, seed="words")
    while not other.is_over:
        seat = min(other.to_act())
        other.apply(seat, other.random_action(seat, random.Random(1)))
    with pytest.raises(NotYourTurn) as done:
        other.check_turn(0)
    assert texts(done.value) == {"zh": "这一局已经结束", "en": "The hand is over"}
