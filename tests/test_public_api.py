"""The public names of the package are pinned (httpx's test_exported_members)."""

from __future__ import annotations

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
        "catalog",
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


def test_catalog_and_game_are_importable_functions() -> None:
    assert callable(paiju.catalog) and callable(paiju.game)
    assert paiju.catalog()[0].code == "1301"
