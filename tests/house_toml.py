"""A house variant (自定义玩法) as an operator would add it in the console: a 宝子 entry of
the catalogue's TOML form under a new code (the console's tests, server and browser)."""

from __future__ import annotations

__all__ = ["house_toml"]


def house_toml(code: str, name_zh: str, name_en: str) -> str:
    """One ``[[variant]]`` entry of 宝子, two to six players, with the given code and names."""
    return f"""
[[variant]]
code = "{code}"
name_zh = "{name_zh}"
name_en = "{name_en}"
family = "baozi"
players = [2, 6]
deck = "52"

[variant.params]
points = {{ J = 1, Q = 2, K = 3 }}
ladder = "AA>KK>QQ>JJ>TT>99>88>77>66>55>44>33>22"
point_ties = ["top_card"]
ladder_ties = ["top_card"]
"""
