"""Who plays a turn (``paiju.server.turns.plan``), checked with plain values: no room, no
clock, no socket."""

from __future__ import annotations

from paiju.server.turns import AUTO_PASS_BEAT, FIRST_LOOK, SeatTurn, Step, plan

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


def test_a_turn_with_only_a_pass_and_auto_pass_on_passes_after_a_beat_without_a_clock() -> None:
    cannot_beat = SeatTurn(acting=True, by_bot=False, only_pass=True, clock=True)
    assert plan([cannot_beat], 0.5, 30) == [
        Step(0, "stop_clock"),
        Step(0, "auto_pass", AUTO_PASS_BEAT),
    ]
    waiting = SeatTurn(acting=True, by_bot=False, only_pass=True, moving=True)
    assert plan([waiting], 0.5, 30) == [Step(0, "stop_clock")]
