"""The catalogue as data: every code of rules/CATALOG.md, validation errors, user files."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from paiju.catalog import ENV_VAR, add_variant_file, catalog, find_variant, load_file
from paiju.errors import CatalogError, UnknownVariant
from paiju.games import FAMILIES, SAMPLE_CODES, Family, check_catalog

catalog_module = importlib.import_module("paiju.catalog")

CATALOG_MD = Path(__file__).resolve().parents[2] / "shared" / "rules" / "CATALOG.md"

SHISANZHANG = ["1301", "1302", "1303", "1304", "1305", "1306"]
SHISANZHANG_001 = ["1301-points", "1301-payout", "1303-2", "1301-2"]
BAOZI = [str(c) for c in range(2001, 2022)]
JIAJIABAO = ["2101", "2103", "2104", "2105", "2106", "2107", "2108"]
GAMES = ["ningcheng-danzi", "sandaha", "anshan-jiayibing", "anshan-fangyang", "anshan-majiang"]

BAOZI_DECKS = "52 52 52 52 52 54 52 54 40 40 54 54 54 52 52 54 54 40 54 54 54".split()  # noqa: SIM905

# (code, family, players, deck) as CATALOG.md gives them.
EXPECTED = (
    [(c, "shisanzhang", (2, 4), "52") for c in SHISANZHANG + SHISANZHANG_001]
    + [(c, "baozi", (2, 9), d) for c, d in zip(BAOZI, BAOZI_DECKS, strict=True)]
    + [
        (c, "jiajiabao", (2, 9), d)
        for c, d in zip(JIAJIABAO, ["40", "52", "52", "54", "54", "52", "54"], strict=True)
    ]
    + [
        ("ningcheng-danzi", "danzi", (4, 4), "108"),
        ("sandaha", "sandaha", (4, 4), "92"),
        ("anshan-jiayibing", "jiayibing", (6, 6), "108"),
        ("anshan-fangyang", "fangyang", (4, 4), "54"),
        ("anshan-majiang", "majiang", (4, 4), "136"),
    ]
)


@pytest.mark.parametrize(("code", "family", "players", "deck"), EXPECTED)
def test_every_code_of_the_catalogue_is_an_entry(
    code: str, family: str, players: tuple[int, int], deck: str
) -> None:
    v = find_variant(code)
    assert (v.family, v.players, v.deck) == (family, players, deck)
    assert v.name_zh and v.name_en and v.rules_en
    assert v.family in FAMILIES


def test_the_catalogue_holds_exactly_the_expected_codes() -> None:
    assert [v.code for v in catalog()] == [e[0] for e in EXPECTED]


@pytest.mark.skipif(
    not CATALOG_MD.exists(), reason="shared/rules/CATALOG.md is not beside the repo"
)
def test_every_code_named_in_catalog_md_is_present() -> None:
    text = CATALOG_MD.read_text(encoding="utf-8")
    named = set(re.findall(r"^\| (\d{4}) \|", text, re.M))
    named |= set(re.findall(r"`(1[0-9]{3}-[a-z0-9]+)`", text))
    named |= {"ningcheng-danzi", "sandaha", "anshan-jiayibing", "anshan-fangyang", "anshan-majiang"}
    assert named <= {v.code for v in catalog()}
    assert "2102" not in {v.code for v in catalog()}, "2102 is missing from the text"


def test_rules_zh_quotes_the_rule_text() -> None:
    assert find_variant("2003").rules_zh.startswith("52张牌,每家2张牌J=1点,Q=2点,K=3点")
    assert "红心 K+黑桃 K 不算对子" in find_variant("2003").rules_zh
    assert "12,211,799,223" not in find_variant("1301-payout").rules_zh


def test_aliases_and_unknown_codes() -> None:
    assert find_variant("百变13张").code == "1304"
    with pytest.raises(UnknownVariant, match="unknown game code '9999'"):
        find_variant("9999")


def _entry(**fields: str) -> str:
    base = {
        "code": '"x1"',
        "name_zh": '"试"',
        "name_en": '"Try"',
        "family": '"plain"',
        "players": "[2, 9]",
        "deck": '"52"',
    }
    base.update(fields)
    return "[[variant]]\n" + "\n".join(f"{k} = {v}" for k, v in base.items() if v) + "\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_entry(deck='"53"'), "my.toml: entry 'x1': field deck: Input should be '52'"),
        (_entry(name_en=""), "my.toml: entry 'x1': field name_en: Field required"),
        (_entry(family='"poker"'), "field family: unknown family 'poker'; families are"),
        (
            _entry(family='"specced"', params='{ leak = "maybe" }'),
            "my.toml: entry 'x1': field params.leak: Input should be a valid boolean",
        ),
        (_entry(players="[5, 2]"), "field players: expected [min, max], got [5, 2]"),
        (_entry(code='"bad code"'), "entry 'bad code': field code: String should match"),
        (_entry(colour='"red"'), "field colour: Extra inputs are not permitted"),
        ("variant = 3", "'variant' must be an array of tables"),
        ("[[varient]]\ncode = 1", "unknown top-level key varient"),
        ("[[variant]\n", "my.toml: not valid TOML"),
    ],
)
def test_a_bad_entry_names_the_file_entry_and_field(text: str, message: str) -> None:
    """The catalogue checks the common fields; the registry the family and its params."""
    with pytest.raises(CatalogError) as info:
        check_catalog(load_file("my.toml", text))
    assert message in str(info.value)


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="cannot read the variant file"):
        add_variant_file(tmp_path / "nope.toml")


@pytest.fixture(autouse=True)
def plain_family(monkeypatch: pytest.MonkeyPatch) -> None:
    """A family without a params spec, so these entries test only the common fields."""
    monkeypatch.setitem(FAMILIES, "plain", Family("试", "Plain"))
    monkeypatch.setitem(FAMILIES, "specced", Family("规", "Specced", spec="toy:ToyParams"))


@pytest.fixture
def clean_catalog(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(catalog_module, "_extra_files", [])
    catalog_module._load.cache_clear()
    yield
    catalog_module._load.cache_clear()


def test_a_user_file_adds_variants(tmp_path: Path, clean_catalog: None) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(_entry(code='"9001"', name_zh='"我的宝子"', deck='"54"'), encoding="utf-8")
    add_variant_file(path)
    mine = find_variant("9001")
    assert (mine.name_zh, mine.deck, mine.file) == ("我的宝子", "54", str(path))


def test_the_environment_variable_adds_variants(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_catalog: None
) -> None:
    path = tmp_path / "env.toml"
    path.write_text(_entry(code='"9002"'), encoding="utf-8")
    monkeypatch.setenv(ENV_VAR, str(path))
    assert find_variant("9002").name_en == "Try"


def test_a_user_alias_may_not_steal_another_code(tmp_path: Path, clean_catalog: None) -> None:
    path = tmp_path / "alias.toml"
    path.write_text(_entry(code='"9003"', aliases='["2001"]'), encoding="utf-8")
    with pytest.raises(CatalogError, match="field aliases: '2001' is already '2001'"):
        add_variant_file(path)
        catalog()


# ---------------------------------------------------------------- 规则说明: the reading in Chinese

CJK = re.compile(r"[\u4e00-\u9fff]")
# Words that speak of our own files and process, not of the game.
OUR_WORDS = re.compile(r"(?-i:CATALOG)|file \d|files? 0|\.md\b|\bissue|readings?/|文件|编号", re.I)
READ = [v.code for v in catalog() if v.rules_en]


def _numbers(text: str) -> set[str]:
    """The figures of a reading that a translation must keep: not a game code (2001), not a
    pair written as its digits twice (99, 1010, 444), not a room option's name in brackets."""
    text = re.sub(r"\[[^\]]*\]|\([a-z_]+ = [^)]*\)", "", text)
    found = set(re.findall(r"\d+", text))
    return {n for n in found if len(n) != 4 and not re.fullmatch(r"(\d{1,2})\1+", n)}


def test_every_reading_has_a_chinese_twin() -> None:
    assert len(READ) >= 43


@pytest.mark.parametrize("code", READ)
def test_the_chinese_reading_speaks_to_players(code: str) -> None:
    """Rule pages speak to players in their language: the English reading has a Chinese
    twin (规则说明), mostly Chinese, that keeps the reading's figures and never talks about our
    files; neither reading mentions them."""
    v = find_variant(code)
    zh = v.reading_zh
    assert zh, f"{code} has no Chinese reading"
    letters = [c for c in zh if c.isalpha()]
    assert len(CJK.findall(zh)) > 0.6 * len(letters), f"{code}: the reading is not Chinese"
    assert not OUR_WORDS.search(zh), OUR_WORDS.search(zh)
    assert not OUR_WORDS.search(v.rules_en), OUR_WORDS.search(v.rules_en)
    missing = _numbers(v.rules_en) - set(re.findall(r"\d+", zh))
    assert not missing, f"{code}: figures of the English reading missing in Chinese: {missing}"


def test_the_chinese_reading_keeps_the_decisions() -> None:
    """Spot checks of decisions the English reading takes where the text is open."""
    foul = find_variant("1301").reading_zh
    assert "倒水" in foul and "三道全输" in foul
    assert "全大、全小也算报到" in find_variant("1303").reading_zh
    assert "三种不同的花色" in find_variant("1304").reading_zh
    assert "一条青龙和一条龙一样赔13注" in find_variant("1301-payout").reading_zh
    assert "“54张牌”是笔误" in find_variant("2018").reading_zh
    assert "最大配最小，第二配第三" in find_variant("2104").reading_zh
    sandaha = find_variant("sandaha").reading_zh
    assert "主2副2也算" in sandaha and "单张×1、对子×2、n对的拖拉机×2n、甩牌×张数" in sandaha
    danzi = find_variant("ningcheng-danzi").reading_zh
    assert "假16 > 四减" in danzi and "宣战失败的玩家马上成为末游" in danzi
    assert "甲乙丙坐1、3、5号位" in find_variant("anshan-jiayibing").reading_zh


def test_a_user_entry_may_carry_a_chinese_reading(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(_entry(rules_en='"Plain."', reading_zh='"  普通玩法。 "'), encoding="utf-8")
    (v,) = load_file(path)
    assert (v.rules_en, v.reading_zh) == ("Plain.", "普通玩法。")


def test_the_sample_codes_are_one_code_of_each_playable_family() -> None:
    """SAMPLE_CODES (the benches' and the family-wide tests' codes) names every playable
    family once."""
    families = [find_variant(code).family for code in SAMPLE_CODES]
    assert sorted(families) == sorted(name for name, f in FAMILIES.items() if f.game)
