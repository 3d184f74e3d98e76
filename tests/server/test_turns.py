"""Who plays a turn (``paiju.server.turns.plan``), checked with plain values: no room, no
clock, no socket."""

from __future__ import annotations

import random
import statistics

from paiju.server.turns import (
    AUTO_PASS_BEAT,
    FIRST_LOOK,
    PASS_PAUSE,
    SeatTurn,
    Step,
    pass_pause,
    plan,
)

IDLE = SeatTurn(acting=False, by_bot=False)
HUMAN = SeatTurn(acting=True, by_bot=False)
BOT = SeatTurn(acting=True, by_bot=True)


def test_a_seat_not_to_act_has_nothing_running_and_a_player_to_act_gets_the_clock() -> None:
    assert plan([IDLE, HUMAN, IDLE, IDLE], bot_delay=0.5, time_limit=30) == [
        Step(0, "stop"),
        Step(1, "clock", 30),
        Step(2, "stop"),
        Step(3, "stop"),
    ]
    # a clock that runs already runs on; no time limit: no clock at all
    running = SeatTurn(acting=True, by_bot=False, clock=True)
    assert plan([running], 0.5, 30) == []
    assert plan([HUMAN], 0.5, 0) == []


def test_a_seat_with_nothing_to_stop_is_left_out_and_the_others_keep_their_numbers() -> None:
    assert plan([None, HUMAN, None, IDLE], bot_delay=0.5, time_limit=30) == [
        Step(1, "clock", 30),
        Step(3, "stop"),
    ]


def test_a_bot_seat_has_no_clock_and_moves_after_its_delay_once() -> None:
    assert plan([BOT, IDLE], 0.5, 30) == [
        Step(0, "stop_clock"),
        Step(0, "bot", 0.5),
        Step(1, "stop"),
    ]
    # a move on its way (or a 困难 bot thinking) is not started twice
    moving = SeatTurn(acting=True, by_bot=True, moving=True)
    assert plan([moving], 0.5, 30) == [Step(0, "stop_clock")]


def test_tuoguan_gives_its_connected_player_a_first_look_at_a_new_hand() -> None:
    look = SeatTurn(acting=True, by_bot=True, first_look=True)
    assert plan([look], 0.5, 30) == [Step(0, "stop_clock"), Step(0, "bot", FIRST_LOOK)]
    # never longer than the seat's own time, never shorter than the bots' delay
    assert plan([look], 0.5, 3) == [Step(0, "stop_clock"), Step(0, "bot", 3)]
    assert plan([look], 9.5, 30) == [Step(0, "stop_clock"), Step(0, "bot", 9.5)]
    # no clock in the room: the bot's own delay
    assert plan([look], 0.5, 0) == [Step(0, "stop_clock"), Step(0, "bot", 0.5)]


def test_yaobuqi_looks_like_any_turn_its_clock_running_and_its_pass_after_a_pause() -> None:
    """What other seats see of a 要不起 turn (auto-pass on) is what they see of a turn the
    seat could play: the same clock; only the pass, drawn as a person's pause, is the
    server's."""
    cannot_beat = SeatTurn(acting=True, by_bot=False, only_pass=True)
    assert plan([cannot_beat, IDLE], 0.5, 30, pause=2.7) == [
        Step(0, "clock", 30),
        Step(0, "auto_pass", 2.7),
        Step(1, "stop"),
    ]
    assert plan([HUMAN, IDLE], 0.5, 30, pause=2.7) == [Step(0, "clock", 30), Step(1, "stop")]
    # its clock runs on, and the pass on its way is not started twice
    waiting = SeatTurn(acting=True, by_bot=False, only_pass=True, clock=True, moving=True)
    assert plan([waiting], 0.5, 30, pause=2.7) == []
    # no clock in the room: the pass alone
    assert plan([cannot_beat], 0.5, 0, pause=2.7) == [Step(0, "auto_pass", 2.7)]


def test_quick_pass_passes_after_a_beat_without_a_clock() -> None:
    cannot_beat = SeatTurn(acting=True, by_bot=False, only_pass=True, clock=True)
    assert plan([cannot_beat], 0.5, 30, pause=2.7, quick_pass=True) == [
        Step(0, "stop_clock"),
        Step(0, "auto_pass", AUTO_PASS_BEAT),
    ]
    waiting = SeatTurn(acting=True, by_bot=False, only_pass=True, moving=True)
    assert plan([waiting], 0.5, 30, quick_pass=True) == [Step(0, "stop_clock")]


def test_a_pass_pause_is_a_persons_and_fits_in_the_clock() -> None:
    rng = random.Random(7)
    pauses = [pass_pause(rng, 30) for _ in range(2000)]
    low, high = PASS_PAUSE[2], PASS_PAUSE[3]
    assert all(low <= p <= high for p in pauses)
    assert 1.9 < statistics.median(pauses) < 2.5  # about the median it is drawn at
    assert len({round(p, 2) for p in pauses}) > 300  # not one fixed beat
    assert max(pass_pause(rng, 2) for _ in range(200)) <= 1.6  # within a short clock
