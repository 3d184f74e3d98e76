"""Player-facing refusals: every reason the engines raise has a Chinese and an English
text, and real refusals of real hands are rendered in the player's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paiju.cards import parse_cards
from paiju.engine import State
from paiju.errors import IllegalAction
from paiju.games import game, make_bot
from paiju.games.sandaha.game import Play
from paiju.reasons import REASONS, explain, known, render, texts

SRC = Path(__file__).resolve().parents[1] / "src" / "paiju"


MINE = (
    "engine.py",
    "cards.py",
    "tiles.py",
    "games/shisanzhang",
    "games/baozi",
    "games/sandaha",
    "server",
    "cli/core.py",
)
"""The sources whose refusals this table renders (other families keep their own tables,
which :func:`paiju.reasons.known` reads too)."""


def test_every_reason_raised_has_both_languages() -> None:
    raised = set()
    paths = [p for p in SRC.rglob("*.py") if any(m in p.as_posix() for m in MINE)]
    for path in paths:
        raised |= set(re.findall(r'reason="([a-z_]+)"', path.read_text(encoding="utf-8")))
        for a, b in re.findall(r'reason="([a-z_]+)" if .* else "([a-z_]+)"', path.read_text()):
            raised |= {a, b}
    assert raised, "no reasons found"
    missing = sorted(r for r in raised if not known(r))
    assert not missing, missing
    for reason, (zh, en) in REASONS.items():
        assert re.search(r"[\u4e00-\u9fff]", zh), reason  # the Chinese text is Chinese
        assert not re.search(r"[\u4e00-\u9fff]", en.replace("常主", "")), reason
        assert set(re.findall(r"\{(\w+)\}", zh)) == set(re.findall(r"\{(\w+)\}", en)), reason


def _to_phase(state: State, phase: str) -> None:
    while state.phase != phase and not state.is_over:
        seat = min(state.to_act())
        state.apply(seat, make_bot(state.game, seat).act(state, seat))


def _refusal(state: State, seat: int, action: object) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)  # type: ignore[arg-type]
    assert info.value.reason in REASONS, (info.value.reason, str(info.value))
    return info.value


def test_refusals_of_real_hands_in_chinese_and_english() -> None:
    # 宝子: "bet 50 is outside the table limits 1-10"
    bz = game("2001").new_state(3, seed=4)
    seat = min(bz.to_act())
    exc = _refusal(bz, seat, bz.game.parse_action({"type": "bet", "amount": 50}))
    assert explain(exc, "zh") == "下注要在 1-10 之间，不能是 50"
    assert explain(exc, "en") == "A bet is 1-10, not 50"
    # 十三张: a row of the wrong size, and another seat's turn
    ssz = game("1301").new_state(4, seed=2)
    cards = ssz.view(0)["hand"].split()
    bad = {"type": "arrange", "front": " ".join(cards[:4]), "middle": " ".join(cards[4:8])}
    bad["back"] = " ".join(cards[8:])
    exc = _refusal(ssz, 0, ssz.game.parse_action(bad))
    assert explain(exc, "zh") == "头墩 3 张、中墩 5 张、尾墩 5 张，现在是 4、4、5 张"
    assert texts(exc) == {"zh": explain(exc, "zh"), "en": explain(exc, "en")}


def test_sandaha_follow_refusal_names_the_suit_and_cards() -> None:
    """三打哈: "有首家花色必须先出该花色" — a follow that leaves the led suit is refused
    in the player's words, the suit as ♠♥♣♦ and the cards as the table draws them."""
    for seed in range(40):
        st = game("sandaha").new_state(4, seed=seed)
        _to_phase(st, "playing")
        leader = min(st.to_act())
        st.apply(leader, make_bot(st.game, leader).act(st, leader))
        follower = min(st.to_act())
        legal = {a for a in st.legal_actions(follower) or ()}
        hand = st.hands[follower]  # type: ignore[attr-defined]
        n = len(st.lead[0].cards) if st.lead else 1  # type: ignore[attr-defined]
        for i in range(len(hand) - n + 1):
            play = Play(tuple(sorted(hand[i : i + n])))
            if play in legal or not st.lead:  # type: ignore[attr-defined]
                continue
            try:
                st.check(follower, play)
            except IllegalAction as exc:
                if exc.reason and exc.reason.startswith("must_follow"):
                    zh, en = explain(exc, "zh"), explain(exc, "en")
                    assert zh.startswith("有") or zh.startswith("要用"), zh
                    assert "must" not in zh and "Follow" in en
                    assert re.search("[♠♥♣♦]|主牌", zh), zh
                    assert not re.search(r"\b[2-9TJQKA][shcd]\b", zh), zh
                    return
    pytest.fail("no refused follow found in 40 deals")


def test_render_falls_back_to_the_message() -> None:
    assert render("no_such_reason", {}, "zh", fallback="x") == "x"
    assert render("not_held", {"cards": "Qh Qh Ts"}, "zh") == "你没有 Q♥ Q♥ 10♠"
    assert render("not_your_turn", {"seats": [0, 2]}, "zh") == "还没轮到你（等待 1号位、3号位）"
    assert explain(IllegalAction("plain")) == "plain"
    assert parse_cards("Qh")  # the notation the params use


def test_card_and_tile_text_that_does_not_parse_is_told_in_both_languages() -> None:
    """A bad card or tile string is a NotationError with a reason: the terminal and the
    server tell it in the player's language, quoting what was typed."""
    from paiju.errors import NotationError
    from paiju.reasons import error_fields
    from paiju.tiles import parse_tiles

    with pytest.raises(NotationError) as bad:
        parse_cards("As Ax")
    assert bad.value.reason == "bad_card_text" and bad.value.params == {"token": "Ax"}
    assert explain(bad.value, "zh").startswith("「Ax」不是牌")
    assert explain(bad.value, "en").startswith("'Ax' is not a card")
    fields = error_fields(bad.value)
    assert fields["reason"] == "bad_card_text" and fields["text"]["zh"].startswith("「Ax」")
    with pytest.raises(NotationError) as tile:
        parse_tiles("123m4x")
    assert explain(tile.value, "zh").startswith("「4x」不是麻将牌")
    assert explain(tile.value, "en").startswith("'4x' is not a tile")
