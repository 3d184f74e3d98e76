"""The vote to end a room (``paiju.server.dissolve``), checked with plain values: no room,
no clock, no socket.

The rule: "the others agree or refuse within a timer (bots agree; no answer counts as agree
after the timer ...); if all agree the room ends ... Rate-limited per player."
"""

from __future__ import annotations

import pytest

from paiju.server.dissolve import Asks, ended_by_vote, open_vote
from paiju.server.errors import ServerError

# seat 0: player 10 asks; seat 1: player 11; seat 2: a bot; seat 3: player 13
SEATS = [(10, False), (11, False), (None, True), (13, False)]


def test_bots_agree_at_once_and_the_humans_are_awaited() -> None:
    vote = open_vote(0, 10, SEATS, 60.0, at=1000.0)
    assert vote.answers == ["asked", None, "bot", None]
    assert vote.awaited == [1, 3] and vote.result is None


def test_all_agree_decides_agreed_and_one_refusal_decides_refused() -> None:
    vote = open_vote(0, 10, SEATS, 60.0, at=1000.0)
    vote.answer(3, True)
    assert vote.result is None and vote.awaited == [1]
    vote.answer(1, True)
    assert vote.result == "agreed" and vote.awaited == []
    refused = open_vote(0, 10, SEATS, 60.0, at=1000.0)
    refused.answer(1, False)
    assert refused.result == "refused" and refused.awaited == []
    assert refused.answers == ["asked", "refuse", "bot", None]  # seat 3 was not heard


def test_no_answer_counts_as_agreement_when_the_time_is_up() -> None:
    vote = open_vote(3, 13, SEATS, 60.0, at=1000.0)
    vote.answer(1, True)
    vote.expire()
    assert vote.answers == ["timeout", "agree", "bot", "asked"] and vote.result == "agreed"
    refused = open_vote(3, 13, SEATS, 60.0, at=1000.0)
    refused.answer(0, False)
    refused.expire()  # decided before the time was up: the end of the time changes nothing
    assert refused.result == "refused" and refused.answers[1] is None


def test_the_asker_and_a_seat_that_answered_cannot_answer() -> None:
    vote = open_vote(0, 10, SEATS, 60.0, at=1000.0)
    vote.answer(1, True)
    for seat in (0, 1, 2):  # the asker, an answered seat, a bot
        with pytest.raises(ServerError) as refused:
            vote.answer(seat, False)
        assert refused.value.code == "dissolve_answered"
    assert vote.result is None


def test_only_bots_to_ask_is_agreed_at_once_and_the_record_says_all() -> None:
    vote = open_vote(1, 11, [(None, True), (11, False)], 60.0, at=1234.5)
    assert vote.result == "agreed"
    record = vote.record()
    assert record == {
        "seat": 1,
        "player": 11,
        "at": 1234.5,
        "answers": ["bot", "asked"],
        "result": "agreed",
    }
    assert ended_by_vote([{"result": "refused"}, record]) and not ended_by_vote([])


def test_a_player_asks_once_per_period_and_others_are_not_held() -> None:
    asks = Asks()
    asks.check(10, now=100.0, every=120.0)
    asks.asked(10, now=100.0)
    with pytest.raises(ServerError) as early:
        asks.check(10, now=150.2, every=120.0)
    assert early.value.code == "dissolve_too_soon" and early.value.params == {"seconds": 70}
    asks.check(11, now=150.2, every=120.0)  # another player
    asks.check(10, now=220.0, every=120.0)  # the period is over
