"""Every sentence of the 宁城打弹子 text (file 002, the catalogue's ``rules_zh``) is mapped
to the rule tests that check it.

The test fails when a line of the text is neither a heading nor mapped, or when a mapped
test does not exist: the text and the tests cannot drift apart silently.
"""

from __future__ import annotations

import ast
from pathlib import Path

from paiju.catalog import find_variant

HEADINGS = {
    "宁城打弹子规则",
    "名词解释",
    "名词",
    "解释说明",
    "头游",
    "宣战",
    "宣战成功：",
    "宣战失败：",
    "宣战奖励：",
    "进贡",
    "当有玩家宣战时：",
    "还贡",
    "骚贡",
    "明牌",
    "取牌",
    "30分",
    "60分",
    "接风（朋友接风）",
    "牌型",
    "范例及规则",
    "大小",
    "单牌",
    "如：",
    "单龙",
    "对牌",
    "双龙",
    "砟子",
    "真7",
    "真8",
    "假8",
    "连蛋",
    "双王：",
    "三王：",
    "四王：",
    "其他牌型：",
    "牌点：",
    "4",
    "4牌可做取牌用：",
    "在张数相同的前提下：",
    "张数相同的情况下：",
    "大牌型（张数大于等于12张）的情况下：",
}

COMBOS = "test_rules_combos"
BEATING = "test_rules_beating"
TRIBUTE = "test_rules_tribute"
POINTS = "test_rules_points"
GAME = "test_game"

MAP: dict[str, list[str]] = {
    "第一个走完牌的玩家叫头游，第二个走完的叫二游，第三个走完的叫三游，第四个走完的叫末游": [
        f"{GAME}.test_n39_finishing_order_and_the_end"
    ],
    "每局开始的时候，首先抓到大王的玩家自动宣战。": [f"{GAME}.test_n41_first_red_joker_declares"],
    "接下来每盘的三游首先拥有宣战权，按照逆时针旋转，"
    "当有一个玩家宣战的时候，则其他玩家无法宣战。": [
        f"{GAME}.test_n42_declaration_right_from_the_third",
        f"{GAME}.test_n3_counterclockwise_is_the_next_seat",
    ],
    "宣战的玩家必须走第一成为头游": [f"{GAME}.test_n44_success_first_out"],
    "其他三家任意成为头游则宣战失败，宣战方自动成为末游。": [
        f"{GAME}.test_n45_failure_last_and_silent",
        f"{GAME}.test_n45_a_partner_first_still_fails",
    ],
    "禁止出任何牌": [f"{GAME}.test_n45_failure_last_and_silent"],
    "宣战胜败与否，末游都必须向头游进贡4张最大的牌，还贡同样还4张": [
        f"{GAME}.test_n46_n47_tribute_form_follows_the_previous_declaration",
        f"{GAME}.test_n49_four_two_form",
    ],
    "在不宣战的情况下，每盘游戏开始时，三游和末游自动各拿出两张最大的牌给头游和二游挑选，"
    "头游有优先选择权": [
        f"{GAME}.test_n48_two_two_form",
        f"{TRIBUTE}.test_n50_automatic_biggest_cards",
    ],
    "末游给头游自动进贡4张最大的牌，三游给二游进贡的牌还是两张不变": [
        f"{GAME}.test_n49_four_two_form"
    ],
    "4不能成为进贡的牌": [f"{TRIBUTE}.test_n52_fours_never_tribute"],
    "进贡牌为明牌": [f"{GAME}.test_n56_tribute_shown_to_all"],
    "进贡方得到贡牌之后，须拿出同样张数的牌作为还贡": [f"{TRIBUTE}.test_n53_return_card_for_card"],
    "作为还贡的牌不能与进贡的牌数值相同，4同样不能作为还贡的牌"
    "（进贡了大王的话，小王就不能作为还贡牌）": [
        f"{TRIBUTE}.test_n54_no_return_of_the_same_value",
        f"{TRIBUTE}.test_n55_no_fours_back",
    ],
    "在不宣战的情况下，三游优先选择还贡牌": [f"{GAME}.test_n48_two_two_form"],
    "进贡牌当有人宣战时（贡牌为4、2）为明牌；没人宣战时（贡牌为2、2），第一个还贡的牌先暗着，"
    "第二个还贡的牌打出后，贡牌全部明牌给人选。": [
        f"{GAME}.test_n48_two_two_form",
        f"{GAME}.test_n56_tribute_shown_to_all",
    ],
    "在手中没有王，3，2的时候，进贡方可以自主选择需要进贡的牌。": [
        f"{TRIBUTE}.test_n51_free_tribute_sao_gong"
    ],
    "互为一伙的玩家可以互相看到对方的牌": [
        f"{GAME}.test_n58_partners_see_each_other",
        f"{GAME}.test_n2_partners_opposite",
    ],
    "玩家可以用一定张数的4牌取别的玩家打出的相应张数的砟子": [
        f"{BEATING}.test_n32_take_sizes",
        f"{GAME}.test_n35_take_in_turn_even_a_partners_zhazi",
    ],
    "每盘胜负玩家会获得相应的分数，一方总分达到30分及以上就可结束一局游戏，并且获得积分": [
        f"{POINTS}.test_n59_round_points",
        f"{POINTS}.test_n61_match_to_30_or_60",
        f"{GAME}.test_n61_match_end_settles_the_stake",
    ],
    "每盘胜负玩家会获得相应的分数，一方总分达到60分及以上就可结束一局游戏，并且获得积分": [
        f"{POINTS}.test_n61_match_to_30_or_60"
    ],
    "当互为一伙的一家走完，并且获得出牌权的时候。": [f"{GAME}.test_n38_jie_feng_to_the_partner"],
    "该出牌权直接下放给另一家": [f"{GAME}.test_n38_jie_feng_to_the_partner"],
    "单张牌。": [f"{COMBOS}.test_n9_single"],
    "红桃 5 。": [f"{COMBOS}.test_n9_single"],
    "大王>小王>3>2>A>K>Q>J>10>9>8>7>6>5>4": [f"{COMBOS}.test_n5_single_order"],
    "数值相连续的三张及以上单牌": [f"{COMBOS}.test_n10_single_dragon"],
    "345A234": [f"{COMBOS}.test_n6_sequence_order"],
    "**KA2**不能相连（*表示省略了单龙的长度）": [f"{COMBOS}.test_n6_sequence_order"],
    "AKQ（冒到顶）>A23": [f"{COMBOS}.test_n6_sequence_order"],
    "KQJ109>A2345": [f"{COMBOS}.test_n6_sequence_order"],
    "数值相同的两张牌。": [f"{COMBOS}.test_n11_pair"],
    "梅花 4+ 方块 4 。": [f"{COMBOS}.test_n11_pair"],
    "33>22>AA>KK>QQ>JJ>1010>99>88>77>66>55>44": [f"{COMBOS}.test_n5_single_order"],
    "数值相连续的三对及以上对牌，即成对的龙": [f"{COMBOS}.test_n12_double_dragon"],
    "3344557788991010": [f"{COMBOS}.test_n12_double_dragon"],
    "**KKAA22**不能相连": [f"{COMBOS}.test_n12_double_dragon"],
    "双龙大小同单龙大小比较。": [f"{COMBOS}.test_n12_double_dragon"],
    "如556677>445566": [f"{COMBOS}.test_n12_double_dragon"],
    "3-6张牌点相同的牌。": [f"{COMBOS}.test_n13_zhazi"],
    "大小同单牌（除去大小王）": [f"{COMBOS}.test_n7_same_rank_kinds_order_without_jokers"],
    "3336666": [f"{COMBOS}.test_n13_zhazi"],
    "张数多的大于张数小的": [f"{COMBOS}.test_n13_zhazi"],
    "3>2>A>K>Q>J>10>9>8>7>6>5>4": [f"{COMBOS}.test_n7_same_rank_kinds_order_without_jokers"],
    "7张牌点相同的牌。": [f"{COMBOS}.test_n14_true_seven_and_eight"],
    "5555555": [f"{COMBOS}.test_n14_true_seven_and_eight"],
    "8张牌点相同的牌。": [f"{COMBOS}.test_n14_true_seven_and_eight"],
    "55555555": [f"{COMBOS}.test_n14_true_seven_and_eight"],
    "两个连续的4张牌的砟子": [f"{COMBOS}.test_n15_fake_eight_family"],
    "KKKKAAAA": [f"{COMBOS}.test_n15_fake_eight_family"],
    "A>K>Q>J>10>9>8>7>6>5>4>3>2": [f"{COMBOS}.test_n8_sequence_lists_name_the_top"],
    "其中AAAA2222为假8中最小": [f"{COMBOS}.test_n8_sequence_lists_name_the_top"],
    "3个及以上连续的3张牌的砟子": [f"{COMBOS}.test_n16_lian_dan"],
    "3连蛋开始总共可达到9连蛋": [f"{COMBOS}.test_n16_lian_dan"],
    "666777888": [f"{COMBOS}.test_n16_lian_dan"],
    "**KKKAAA222**不能相连": [f"{COMBOS}.test_n16_lian_dan"],
    "张数不同的情况下，张数多的连蛋为大": [f"{COMBOS}.test_n16_lian_dan"],
    "张数相同的情况下，连蛋大小比较同单龙和双龙": [f"{COMBOS}.test_n16_lian_dan"],
    "3个及以上连续的4张牌的砟子": [f"{COMBOS}.test_n17_jian"],
    "666677778888": [f"{COMBOS}.test_n17_jian"],
    "其中AAAA22223333为最小的三减": [f"{COMBOS}.test_n17_jian"],
    "（X减张数多的为大）": [f"{COMBOS}.test_n17_jian"],
    "一对王": [f"{COMBOS}.test_n19_jokers"],
    "三个王": [f"{COMBOS}.test_n19_jokers"],
    "四个王": [f"{COMBOS}.test_n19_jokers"],
    "四王>三王>双王": [f"{COMBOS}.test_n19_jokers"],
    "其中双大王>双小王": [f"{COMBOS}.test_n19_jokers"],
    "由假8可衍生出假10假12假14假16": [f"{COMBOS}.test_n15_fake_eight_family"],
    "3个相连的5张牌的砟子": [f"{COMBOS}.test_n18_fake_fifteen"],
    "如555556666677777": [f"{COMBOS}.test_n18_fake_fifteen"],
    "（再往上穷举的牌型考虑到概率性问题，以及本身单独就是大牌型，游戏中暂时没有可连出牌型）": [
        f"{COMBOS}.test_n18_fake_fifteen",
        f"{COMBOS}.test_n21_no_play_over_27_cards",
    ],
    "参考假8及连蛋": [f"{COMBOS}.test_n18_fake_fifteen"],
    "1.以张数大小比较。": [f"{BEATING}.test_n28_twelve_cards_and_more"],
    "如果张数相同，则以单副牌型的大小比较如444455556666（三减）>333444555666（4连蛋）": [
        f"{BEATING}.test_n28_twelve_cards_and_more"
    ],
    "2.四王介于16张和14张的大牌型中间，与15张的大牌型比较如下": [f"{BEATING}.test_n29_four_jokers"],
    "555556666677777>四王>555666777888999（5连蛋）": [f"{BEATING}.test_n29_four_jokers"],
    "1.单牌，对牌，单龙，双龙不可互相比较": [f"{BEATING}.test_n23_plain_kinds_do_not_cross"],
    "2.3个砟子可管单牌，对牌，单龙，不可管单王": [
        f"{BEATING}.test_n24_three_card_zhazi_over_plain"
    ],
    "3.4个及以上砟子可管单牌，对牌，单龙，双龙。": [
        f"{BEATING}.test_n25_four_card_zhazi_over_plain",
        f"{BEATING}.test_n26_higher_bombs_over_plain",
    ],
    "4.假12>三减>4连蛋>三王>假十>三连蛋>真8>假8>真7>双王>砟子": [
        f"{BEATING}.test_n27_ladder_below_twelve",
        f"{BEATING}.test_n30_whole_ladder",
    ],
    "1.单张4不可取牌,对4可取3个的砟子,三个4可取4个或者5个的砟子，4个4可取6个的砟子": [
        f"{BEATING}.test_n32_take_sizes"
    ],
    "2.当3个4或者4个4用来取牌时，本身就位3个或者4个的砟子，因此也可以被相应个数的4取走": [
        f"{BEATING}.test_n33_fours_that_took_can_be_taken"
    ],
    "4取牌之后即算打出的牌。": [
        f"{BEATING}.test_n34_after_a_take_the_fours_are_the_table",
        f"{GAME}.test_n35_take_in_turn_even_a_partners_zhazi",
    ],
}


def _rule_lines() -> list[str]:
    """The text's lines from the glossary on, bullets stripped, each once."""
    text = find_variant("ningcheng-danzi").rules_zh.replace("\xa0", " ")
    lines = [line.strip().removeprefix("∙") for line in text.splitlines()]
    lines = [line for line in lines if line]
    start = lines.index("名词解释")
    seen: list[str] = []
    for line in lines[start:]:
        if line not in seen:
            seen.append(line)
    return seen


def test_every_line_of_the_text_is_mapped() -> None:
    unmapped = [line for line in _rule_lines() if line not in HEADINGS and line not in MAP]
    assert unmapped == []
    stale = [line for line in MAP if line not in _rule_lines()]
    assert stale == []


def _defined_tests(module: str) -> set[str]:
    """The top-level functions of ``tests/danzi/<module>.py``, read from its source.

    By path, not ``importlib.import_module(module)``: in a whole-suite run another
    directory's ``test_game`` may be the one that name finds first.
    """
    tree = ast.parse((Path(__file__).parent / f"{module}.py").read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_every_mapped_test_exists() -> None:
    for tests in MAP.values():
        for name in tests:
            module, func = name.split(".")
            assert func in _defined_tests(module), name
