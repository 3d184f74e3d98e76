"""听牌 help in the seat's view: the waits after a discard that leaves the hand ready, with
how many of each the seat has not seen (混 counted), the ready discards on its turn, and
nothing read but that seat's own view."""

from __future__ import annotations

import random
from typing import Any

from mj_helpers import stacked

from paiju.games import game
from paiju.games.majiang.game import Discard, MajiangState, Pass
from paiju.games.majiang.ting import help_from_view
from paiju.tiles import Tile

T = Tile.parse

#          seat 0 (dealer, 14 tiles)  seats 1-3
HANDS = ["234m9m456p78s11122z", "1357m1357p1357s2z", "2468m2468p2468s5z", "1357m1357p1357s6z"]


def _kinds(help_: dict[str, Any]) -> dict[str, int]:
    return {str(Tile(w["kind"])): w["unseen"] for w in help_["waits"]}


def test_on_ones_turn_the_discards_that_keep_the_hand_ready() -> None:
    """The dealer's 14 tiles: only 9m leaves the hand ready (on 6s, 9s and the 混 北)."""
    state = stacked(HANDS, draws="6s")
    ting = state.view(0)["ting"]
    assert [d["tile"] for d in ting["discards"]] == ["9m"]
    assert _kinds(ting["discards"][0]) == {"6s": 4, "9s": 4, "4z": 4}


def test_after_the_discard_the_waits_and_the_tiles_still_unseen() -> None:
    """After 9m the hand waits on 6s/9s from anyone and on 北 (the 混) by drawing it; when
    seat 1 throws a 6s, one 6s fewer is unseen from seat 0 (it is in plain view)."""
    state = stacked(HANDS, draws="6s")
    state.apply(0, Discard(T("9m")))
    waits = state.view(0)["ting"]["waits"]
    assert [(str(Tile(w["kind"])), w["discard"], w["self_drawn"]) for w in waits] == [
        ("6s", True, True),
        ("9s", True, True),
        ("4z", False, True),
    ]
    for seat in state.to_act():  # every discard opens a window: seats 1-3 let 9m go
        state.apply(seat, Pass())
    state.apply(1, Discard(T("6s")))
    assert state.phase == "claim"
    assert _kinds(state.view(0)["ting"]) == {"6s": 3, "9s": 4, "4z": 4}
    assert {"type": "win"} in state.view(0)["actions"]


def test_a_hand_not_ready_has_no_waits_and_a_spectator_no_help() -> None:
    state = stacked(HANDS, draws="6s")
    state.apply(0, Discard(T("2z")))
    assert state.view(0)["ting"] == {"waits": []}
    assert "ting" not in state.view(None)


def test_the_hun_in_hand_counts_against_its_kind() -> None:
    """Flip 西 makes 北 the 混: a 北 the seat holds is one 北 fewer unseen."""
    hands = ["234m9m456p78s11124z", *HANDS[1:]]  # 111z 2z + a 混 (北): 2z + 混 the pair
    state = stacked(hands, draws="6s")
    ready = {d["tile"]: _kinds(d) for d in state.view(0)["ting"]["discards"]}
    assert ready["9m"]["4z"] == 3


def _strip(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "ting"}


def test_the_help_is_a_function_of_the_seats_view_alone() -> None:
    """Over random playouts, every seat's help equals what its view (without the help) gives,
    and two deals that differ only in tiles hidden from seat 0 give seat 0 the same help."""
    g = game("anshan-majiang")
    rng = random.Random(7)
    checked = 0
    for n in range(6):
        state = g.new_state(4, seed=f"ting-help-{n}")
        assert isinstance(state, MajiangState)
        while not state.is_over:
            for seat in range(4):
                view = state.view(seat)
                assert view["ting"] == help_from_view(_strip(view), state.rules)
                checked += 1
            seat = min(state.to_act())
            state.apply(seat, rng.choice(list(state.legal_actions(seat) or [])))
    assert checked > 500
    # the same seat 0, others' hands and the wall dealt otherwise
    other = ["234m9m456p78s11122z", "2468m2468p2468s2z", "1357m1357p1357s5z", "1357m1357p1357s6z"]
    a, b = stacked(HANDS, draws="6s"), stacked(other, draws="3m")
    assert a.hands[1] != b.hands[1] and a.wall != b.wall
    assert a.view(0) == b.view(0)
    a.apply(0, Discard(T("9m")))
    b.apply(0, Discard(T("9m")))
    assert a.view(0)["ting"] == b.view(0)["ting"] != {"waits": []}


def test_hidden_kongs_of_others_stay_unseen() -> None:
    """Another seat's 暗杠 shows no tiles, so they still count as unseen."""
    state = stacked(HANDS, draws="6s")
    view = _strip(state.view(0))
    view["players"][2]["melds"] = [{"kind": "angang", "tiles": None, "from": None, "claimed": None}]
    before = help_from_view(_strip(state.view(0)), state.rules)
    assert help_from_view(view, state.rules) == before


def test_the_help_leaves_out_a_kind_held_four_times_with_the_flip() -> None:
    """R5: the flip 「is set aside, face up, out of play」: holding 999m with 9m flipped,
    no 9m can come, so neither the ready discards nor the waits after one name 9m."""
    hands = ["111999m88p11567s2z", "2345m2345p2345s7z", HANDS[2], "3467m3467p3467s6z"]
    state = stacked(hands, draws="6s", flip="9m")
    ready = {d["tile"]: _kinds(d) for d in state.view(0)["ting"]["discards"]}
    assert "2z" in ready and "9m" not in ready["2z"] and ready["2z"]["8m"] == 4
    state.apply(0, Discard(T("2z")))
    kinds = _kinds(state.view(0)["ting"])
    assert "9m" not in kinds and "8p" in kinds
