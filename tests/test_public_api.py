"""The public names of the package are pinned (httpx's test_exported_members)."""

from __future__ import annotations

import importlib

import paiju


def test_public_names_are_pinned() -> None:
    exported = set(paiju.__all__)
    assert {
        "Action",
        "Card",
        "Deal",
        "Event",
        "Game",
        "Match",
        "Record",
        "State",
        "Tile",
        "Variant",
        "variants",
        "read_record",
        "deck",
        "find_variant",
        "format_cards",
        "format_tiles",
        "game",
        "odds",
        "parse_cards",
        "parse_tiles",
        "replay",
        "PaijuError",
        "NotationError",
        "CatalogError",
        "UnknownVariant",
        "NotImplementedFamily",
        "IllegalAction",
        "NotYourTurn",
        "ProtocolError",
        "FairnessError",
        "__version__",
        "arrange",
        "showdown",
        "compare",
    } <= exported
    for name in exported:
        assert hasattr(paiju, name), name


def test_every_error_is_a_paiju_error_with_a_reason_code() -> None:
    errors = [getattr(paiju, n) for n in paiju.__all__ if n.endswith(("Error", "Variant"))]
    errors += [paiju.IllegalAction, paiju.NotYourTurn, paiju.NotImplementedFamily]
    codes = set()
    for error in errors:
        if isinstance(error, type) and issubclass(error, Exception):
            assert issubclass(error, paiju.PaijuError), error
            codes.add(error.code)
    assert len(codes) == 9


def test_variants_and_game_are_importable_functions() -> None:
    assert callable(paiju.variants) and callable(paiju.game)
    assert paiju.variants()[0].code == "1301"


def test_the_catalog_name_is_the_package_not_a_function() -> None:
    """``paiju.catalog`` is the catalogue package; the function is ``paiju.variants``."""
    import paiju.catalog

    assert paiju.catalog.find_variant is paiju.find_variant
    assert paiju.catalog.variants is paiju.variants


def test_the_core_never_imports_the_family_registry() -> None:
    """The registry (paiju.games) sits on top: engine and catalog do not import it."""
    import ast
    from pathlib import Path

    root = Path(paiju.__file__).parent
    for path in [root / "engine.py", *sorted((root / "catalog").glob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            assert not any(n == "paiju.games" or n.startswith("paiju.games.") for n in names), (
                path,
                names,
            )


def test_the_family_entry_points_answer() -> None:
    hand = "2s 3s 4s 5s 6s 7h 8h 9h Th Jh Qc Kc Ac"
    arranged = paiju.arrange("1301", hand)
    rows = " ".join(arranged[k] for k in ("front", "middle", "back"))
    assert sorted(paiju.parse_cards(rows)) == sorted(paiju.parse_cards(hand))
    assert arranged["special"] == "一条龙"  # 2 to A, one of each rank
    result = paiju.showdown("1301", ["2c 3d 4c / 5d 5c 7c 8d 9s / Ts Td Tc Ad Kd", hand])
    assert result["scores"] == [-36, 36]  # 一条龙 takes 36 from each other player
    # a family submodule named like an entry point must not replace it once imported
    importlib.import_module("paiju.games.baozi.compare")
    importlib.import_module("paiju.games.baozi.odds")
    assert paiju.compare("2001", "As 8d", "Kc 6h")["winner"] == "banker"  # A+8 > K+6
    assert set(paiju.odds("2001")) >= {"player_win", "push", "player_loss", "banker_edge"}
