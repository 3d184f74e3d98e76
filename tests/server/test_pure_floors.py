"""The room's pure pieces, with no socket, store or loop: a socket's text read as a
message (frames.py) and the texts each seat is sent (fanout.py)."""

from __future__ import annotations

import json
import random

import pytest

from paiju.games import game, make_bot
from paiju.server.fanout import legal_json, state_texts, update_texts
from paiju.server.frames import BadFrame, check_size, read_frame, ref_of
from paiju.server.messages import Ping


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("{", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": "action"}', "bad_message"),
        ('{"type": "fly", "id": 7}', "unknown_type"),
    ],
)
def test_a_text_that_is_no_message_says_what_is_wrong(text: str, code: str) -> None:
    with pytest.raises(BadFrame) as refused:
        read_frame(text)
    assert refused.value.code == code
    assert str(refused.value)
    if '"id": 7' in text:
        assert refused.value.ref == 7


def test_a_message_and_its_id_are_read() -> None:
    frame = read_frame('{"type": "ping", "id": "a1"}')
    assert isinstance(frame.message, Ping)
    assert frame.ref == "a1"


def test_the_size_is_counted_in_utf8_bytes() -> None:
    check_size("牌" * 10, 30)
    with pytest.raises(BadFrame) as refused:
        check_size("牌" * 11, 30)
    assert refused.value.code == "too_large"


def test_each_seat_is_sent_its_own_view_and_spectators_share_one() -> None:
    g = game("sandaha")
    state = g.new_state(4, seed=11)
    head = {"type": "state", "room": 1, "game": 2, "version": 0}
    acting = state.to_act()
    seats = [0, 1, None, 2, 3, None]
    texts = state_texts(state, head, seats, [], ["bot"] * 4, acting)
    for seat, text in zip(seats, texts, strict=True):
        sent = json.loads(text)
        assert sent["view"] == json.loads(json.dumps(state.view(seat)))
        assert (sent["legal"] is not None) == (seat is not None and seat in acting)
    assert texts[2] is texts[5]  # one text for every spectator
    assert len({texts[0], texts[1], texts[3], texts[4]}) == 4


def test_an_update_shows_each_seat_only_the_events_of_its_audience() -> None:
    g = game("sandaha")
    state = g.new_state(4, seed=5)
    rng = random.Random(5)
    seats: list[int | None] = [0, 1, 2, 3, None]
    for _ in range(60):
        if state.is_over:
            break
        seat = min(state.to_act())
        events = state.apply(seat, state.random_action(seat, rng))
        head = {"type": "update", "room": 1, "game": 2, "version": len(state.history)}
        head |= {"seat": seat, "actor": "bot"}
        texts = update_texts(
            state, head, seats, events, seat, "bot", None, [], ["bot"] * 4, state.to_act()
        )
        for listener, text in zip(seats, texts, strict=True):
            assert text is not None
            sent = json.loads(text)
            shown = [
                json.loads(json.dumps(e.to_json()))
                for e in events
                if e.audience() is None or (listener is not None and listener in e.audience())
            ]
            assert sent["events"] == shown
            assert sent["view"] == json.loads(json.dumps(state.view(listener)))


@pytest.mark.parametrize("code", ["2001", "sandaha", "anshan-fangyang", "anshan-majiang"])
def test_the_legal_actions_are_written_as_each_action_writes_itself(code: str) -> None:
    """The JSON of the listed choices is kept per action (equal actions share it): over a
    random hand it is always what the action's own ``to_json`` writes."""
    g = game(code)
    state = g.new_state(g.default_seats, seed="legal-json")
    bot = make_bot(g, 3)
    listings = 0
    while not state.is_over:
        acting = state.to_act()
        for seat in acting:
            listed = state.legal_actions(seat)
            written = legal_json(state, seat, acting)
            if listed is None:  # a choice of cards the game does not list (a kitty)
                assert written is None
                continue
            assert written == [a.to_json() for a in listed]
            listings += 1
        seat = min(acting)
        state.apply(seat, bot.act(state, seat))
    assert listings >= 3  # at least the bidding
    assert legal_json(state, 0, frozenset()) is None


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ('{"type": "action", "id": 7}', 7),
        ('{"type": "ping", "id": "a1"}', "a1"),
        ('{"type": "ping"}', None),
        ('{"type": "ping", "id": [1]}', None),
        ("[1, 2]", None),
        ("{", None),
        ("[" * 100_000, None),
    ],
)
def test_a_dropped_text_is_named_by_its_id_where_it_has_one(text: str, ref: object) -> None:
    assert ref_of(text) == ref
