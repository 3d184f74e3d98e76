"""三打哈 through the Game protocol (playout invariants, views, JSON) and the bot's habits."""

from __future__ import annotations

import json

import pytest
from sandaha_helpers import P, bidding_state, deal_of, play, playing_state, sandaha

from paiju.errors import IllegalAction
from paiju.games import game, make_bot, read_record, replay
from paiju.games.sandaha.bot import SandahaBot, hand_strength
from paiju.games.sandaha.game import Bid, Bury, Play, SandahaState
from paiju.games.sandaha.rules import TRUMP, order
from paiju.harness import check_game, playout


def test_deep_playouts_keep_every_invariant() -> None:
    assert check_game(game("sandaha"), range(4)) == []


def test_quick_playouts_of_many_deals() -> None:
    assert check_game(game("sandaha"), range(100, 130), deep=False) == []


def test_room_options() -> None:
    g = sandaha(stake=20, rule="rule2")
    assert g.options == {"stake": 20, "rule": "rule2"}
    result = playout(g, 4, "rule2", deep=False)
    assert result.failures == [] and sum(result.totals) == 0
    for bad in ({"stake": 0}, {"rule": "rule3"}, {"ante": 5}):
        with pytest.raises(IllegalAction, match=r"stake|rule"):
            sandaha(**bad)


def test_views_hide_the_kitty_until_the_end() -> None:
    state = bidding_state(["", "", "", ""])
    assert all(state.view(s)["kitty"] is None for s in (0, 1, 2, 3, None))
    state.apply(0, Bid(5))
    assert state.view(0)["kitty"] is not None
    assert state.view(1)["hand"] != state.view(0)["hand"]
    assert state.view(None)["hand"] is None


def test_a_record_replays_and_round_trips() -> None:
    g = game("sandaha")
    result = playout(g, 4, "record", deep=False)
    record = result.hands[0].record
    again = read_record(json.loads(json.dumps(record.to_json())))
    states = list(replay(again))
    assert states[-1].is_over
    assert states[-1].settlement() == result.hands[0].settlement


def test_bot_bids_only_strong_hands_and_honours_the_duty() -> None:
    g = sandaha()
    bot = SandahaBot(g, 0)
    strong = bidding_state(["RJ RJ BJ BJ 7s 7s 7h 2s 2s 2h As As Ks Ks Qs Qs Js", "", "", ""])
    assert hand_strength(strong.hands[0], 0) > 20
    assert isinstance(bot.act(strong, 0), Bid)
    duty = bidding_state(["RJ BJ 2s 2h 7c 7d 2c", "", "", ""])
    assert isinstance(bot.act(duty, 0), Bid), "7 常主 oblige a bid"


def test_bot_buries_side_cards_and_names_its_best_trump() -> None:
    g = sandaha()
    bot = SandahaBot(g, 0)
    hand = "RJ RJ BJ 7s 7s 2s 2s As As Ks Qs Qs Js Ts 9s 6h 8h 9c 5d 6d 8c"
    d = deal_of([hand, "", "", ""], kitty="9h Th 6c 9d Jh Jc Qd 5c")
    state = sandaha().new_state(4, deal=d)
    assert isinstance(state, SandahaState)
    state.apply(0, Bid(5))
    action = bot.act(state, 0)
    assert isinstance(action, Bury)
    o = order(0)
    assert not any(o.suit[c] == TRUMP for c in action.cards), "trumps are kept"
    state.apply(0, action)
    assert bot.act(state, 0).to_json() == {"type": "name_trump", "trump": "s"}


def test_bot_leads_a_safe_trump_throw_and_boss_cards() -> None:
    g = sandaha()
    bot = SandahaBot(g, 0)
    state = playing_state(["RJ RJ BJ", "", "", ""], "s")
    action = bot.act(state, 0)
    assert isinstance(action, Play)
    assert set(P("RJ BJ")) <= set(action.cards), "RJ RJ BJ cannot be beaten: throw it"
    state.apply(0, action)
    assert state.throw_failed is None


def test_bot_feeds_points_to_a_partner_winning_trick() -> None:
    g = sandaha()
    hands = ["6h", "Ah", "Kh 5h 8h", ""]
    state = playing_state(hands, "s", keep_out={1: "h", 2: "h"})
    play(state, 0, "6h")
    play(state, 1, "Ah")
    action = SandahaBot(g, 2).act(state, 2)
    assert isinstance(action, Play) and str(action.cards[0]) == "Kh", "the K (10 points) goes"


def test_bot_ruffs_a_trick_with_points() -> None:
    g = sandaha()
    hands = ["Kh", "5s 6s", "", ""]
    state = playing_state(hands, "s", keep_out={1: "h"})
    play(state, 0, "Kh")
    action = SandahaBot(g, 1).act(state, 1)
    assert isinstance(action, Play)
    assert order(0).suit[action.cards[0]] == TRUMP, "a 10-point trick is worth a ruff"


def test_the_family_bot_is_registered() -> None:
    assert isinstance(make_bot(game("sandaha"), 1), SandahaBot)
    state = sandaha().new_state(4, seed="bot")
    assert isinstance(state, SandahaState)
