"""The question every terminal table of ``paiju play`` asks goes through :func:`ask`.

Besides the family's own answers it knows two words at every prompt:

* 帮助 / ``help`` / ``?``: what one can type (the family's prompt says how to answer; Enter
  takes the suggestion where one is offered), then the same question again;
* 退出 / ``quit`` / ``q``: the game ends at once (:class:`QuitGame`).

Ctrl-C at a prompt raises ``KeyboardInterrupt``, the end of the input :class:`QuitGame`
(``paiju play`` ends either politely: one line, exit status 0 for 退出 and the end of the
input, 130 for Ctrl-C).
"""

from __future__ import annotations

from typing import Any

import click

from paiju.reasons import say, terminal_lang

__all__ = ["HELP_WORDS", "QUIT_WORDS", "QuitGame", "ask", "help_text"]

HELP_WORDS = frozenset({"帮助", "help", "?", "？", "h"})
QUIT_WORDS = frozenset({"退出", "quit", "exit", "q"})


class QuitGame(Exception):
    """The player typed 退出 (or the input ended): ``paiju play`` stops."""


def help_text() -> str:
    """The words every prompt knows, in the terminal's language."""
    lang = terminal_lang()
    return say(
        lang,
        "按提示作答：序号，或照例子写的牌、动作；有推荐时直接回车采用。\n"
        "帮助（help、?）：看这段说明；退出（quit、q）：结束游戏；Ctrl-C 也可结束。",
        "Answer as the question says: a number, or cards/tiles or an action as in its example;"
        " Enter takes the suggestion where one is offered.\n"
        "help (帮助, ?): this text; quit (退出, q): end the game; Ctrl-C ends it too.",
    )


def ask(text: str, **kwargs: Any) -> Any:
    """``click.prompt(text, **kwargs)`` that answers 帮助 and 退出 (see the module)."""
    while True:
        try:
            answer = click.prompt(text, **{**kwargs, "type": str})
        except click.Abort as exc:
            if isinstance(exc.__context__, EOFError):
                raise QuitGame from None
            raise KeyboardInterrupt from None
        word = str(answer).strip().lower()
        if word in QUIT_WORDS:
            raise QuitGame
        if word in HELP_WORDS:
            click.echo(help_text())
            continue
        kind = kwargs.get("type")
        if kind is None or kind is str:
            return answer
        try:
            return kind(answer)
        except ValueError:
            click.echo(
                say(terminal_lang(), f"不是有效的答案：{answer}", f"not a valid answer: {answer}")
            )
