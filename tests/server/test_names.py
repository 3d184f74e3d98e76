"""Display names that read as the server's through look-alikes are refused; names people
write in one script, or in the scripts written together, are taken.

Unicode TR 39 (Security Mechanisms), section 5.2, "Highly Restrictive": "All characters in
each identifier must be from a single script, or from the combinations: Latin + Han +
Hiragana + Katakana; Latin + Han + Bopomofo; or Latin + Han + Hangul." A name wholly in
one script is read by its confusable skeleton (TR 39, section 4, with Unicode's
confusables data) before the reserved words are compared.
"""

from __future__ import annotations

import pytest

from paiju.server.errors import ServerError
from paiju.server.identity import clean_name


@pytest.mark.parametrize(
    "name",
    [
        "ｂｏｔ",  # full-width Latin: NFKC folds it to bot
        "ＡＤＭＩＮ",
        "Ｂｏｔ－１",
        "機器人",  # the traditional spelling of 机器人
        "電腦",
        "\u0430dmin",  # Cyrillic а, then Latin
        "b\u03bft",  # Greek ο between Latin letters
        "\u0301" * 40,  # combining marks only: nothing to see
        "\u0301ann",  # a mark with no base
        "a" + "\u0304" * 5 + "nn",  # five marks on one letter
        "老王 s\u0435rver",  # a Cyrillic е in one word of two
        "\u0392\u039f\u03a4",  # Greek ΒΟΤ, one script: its confusable skeleton is bot
        "\u0412\u041e\u0422",  # Cyrillic ВОТ
        "\u0405\u0423\u0405\u0422\u0415\u041c",  # Cyrillic ЅУЅТЕМ reads system
    ],
)
def test_names_that_pass_for_the_servers_or_show_nothing_are_refused(name: str) -> None:
    with pytest.raises(ServerError) as refused:
        clean_name(name)
    assert refused.value.code == "bad_name" and refused.value.status == 400


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("老王", "老王"),
        ("Ann Lee", "Ann Lee"),
        ("Вася", "Вася"),  # one script, Cyrillic
        ("Σοφία", "Σοφία"),
        ("山田さくらAB", "山田さくらAB"),  # Han, Hiragana and Latin: written together
        ("김철수 Kim", "김철수 Kim"),
        ("Nguyễn", "Nguyễn"),  # a letter with two marks
        ("ｂｏｂ", "ｂｏｂ"),  # full-width, kept as typed: not a reserved word
        ("robot wars", "robot wars"),
        ("サーバー", "サーバー"),  # the prolonged sound mark is either kana's
    ],
)
def test_names_people_write_are_taken_as_typed(name: str, kept: str) -> None:
    assert clean_name(name) == kept
