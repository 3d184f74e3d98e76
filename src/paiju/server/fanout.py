"""What each socket of a table is sent (the ``state`` and ``update`` texts), from the
state and what the room knows of its seats: each listener's seat (``None``: a
spectator) gets its own view, the events whose audience holds it, the clocks it may see
and its legal actions. Pure functions, no socket: the room hands the texts to its
sockets.

Each distinct seat's text is computed and serialised once (spectators share one)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic_core import to_json

from paiju.engine import JSON, Action, Event, State

__all__ = ["dumps", "legal_json", "state_texts", "update_texts", "visible_timers"]

Actor = Literal["player", "bot", "timeout"]


def dumps(obj: Any) -> str:
    """A server message's JSON text, written as the message models write it (compact,
    UTF-8 as is) by pydantic's serialiser, about five times faster than ``json.dumps``."""
    return to_json(obj).decode()


def visible_timers(
    timers: list[dict[str, Any]], view: dict[str, Any], seat: int | None
) -> list[dict[str, Any]]:
    """The clocks a seat may see: those of the seats its view shows acting. A view whose
    ``to_act`` is only whether the seat itself acts (``true``/``false``, as in the
    mahjong claim windows: who else may claim is hidden) shows that seat's clock alone."""
    acting = view.get("to_act", [])
    if isinstance(acting, bool):
        return [t for t in timers if acting and t["seat"] == seat]
    return [t for t in timers if t["seat"] in acting]


def legal_json(
    state: State, seat: int | None, acting: frozenset[int]
) -> list[dict[str, Any]] | None:
    """The seat's legal actions (JSON) when it is to act and the game lists them: a list
    shared by equal lists of a few actions (every seat to bet is offered the same bets at
    every table), for serialising only."""
    if seat is None or seat not in acting:
        return None
    actions = state.legal_actions(seat)
    if actions is None:
        return None
    if len(actions) <= _SHARED_LEGAL:
        try:
            return _legal_json_of(tuple(actions))
        except TypeError:  # an action with an unhashable field: written below
            pass
    return [_action_json(a) for a in actions]


_SHARED_LEGAL = 32
"""The longest list of legal actions whose JSON form is kept and shared."""


@functools.lru_cache(maxsize=1024)
def _legal_json_of(actions: tuple[Action, ...]) -> list[JSON]:
    return [_action_json(a) for a in actions]


@functools.lru_cache(maxsize=4096)
def _action_json_of(action: Action) -> JSON:
    return action.to_json()


def _action_json(action: Action) -> JSON:
    """An action's JSON form, for serialising only (a dict shared by equal actions: the
    same few choices - a bet, a pass, a claim - are listed at every turn of every table)."""
    try:
        return _action_json_of(action)
    except TypeError:  # an action with an unhashable field is written each time
        return action.to_json()


def _views(state: State, seats: Sequence[int | None]) -> dict[int | None, JSON]:
    """Each distinct seat's view, computed once (:meth:`State.views`)."""
    distinct = list(dict.fromkeys(seats))
    return dict(zip(distinct, state.views(distinct), strict=True))


def state_texts(
    state: State,
    head: dict[str, Any],
    seats: Sequence[int | None],
    timers: list[dict[str, Any]],
    control: Sequence[str],
    acting: frozenset[int],
    ref: str | int | None = None,
    kept: Mapping[int, Action] | None = None,
) -> list[str]:
    """The ``state`` texts of listeners at ``seats``: each its seat's whole view now.
    ``head`` holds the message's ``type``, ``room``, ``game`` and ``version``; ``kept``
    the decisions seats sent in an open hidden window, each said to its own seat only
    (``kept``, null for the others), so a screen opened again mid-window shows the choice made.

    Every distinct seat's view is computed once, by :meth:`State.views` (which computes
    what all seats see alike once)."""
    texts: dict[int | None, str] = {}
    for seat, view in _views(state, seats).items():
        msg = {
            **head,
            "view": view,
            "timers": visible_timers(timers, view, seat) if timers else [],
            "control": control,
            "legal": legal_json(state, seat, acting) if seat in acting else None,
            "ref": ref,
            "kept": _action_json(kept[seat])
            if kept and seat is not None and seat in kept
            else None,
        }
        texts[seat] = dumps(msg)
    return [texts[seat] for seat in seats]


def update_texts(
    state: State,
    head: dict[str, Any],
    seats: Sequence[int | None],
    events: list[Event],
    actor_seat: int,
    actor: Actor,
    ref: str | int | None,
    timers: list[dict[str, Any]],
    control: Sequence[str],
    acting: frozenset[int],
    within: bool = False,
) -> list[str | None]:
    """The ``update`` texts of an accepted (and stored) action for listeners at ``seats``
    (``None`` where a listener is sent nothing). ``head`` holds the message's ``type``,
    ``room``, ``game``, ``version``, ``seat`` and ``actor``.

    A decision of a hidden window (``within``) names its seat to that seat only, and
    while the window stays open only that seat is sent its update. A view that hides who
    acts (its ``to_act`` not a list): an action it shows nothing of (a claim decision in
    a mahjong window) does not name its seat either.

    Every distinct seat's view is computed once, by :meth:`State.views` (which computes
    what all seats see alike once), and each distinct seat's text serialised once."""
    kept_open = within and state.hidden_window()
    shown = [(e.audience(), e.to_json()) for e in events]
    public = [body for aud, body in shown if aud is None]
    hidden = len(public) < len(shown)  # some event is for some seats only
    wanted = seats if not kept_open else [s for s in seats if s == actor_seat]
    texts: dict[int | None, str] = {}
    for seat, view in _views(state, wanted).items():
        seen = public
        if hidden:
            seen = [b for aud, b in shown if aud is None or (seat is not None and seat in aud)]
        unseen = seat != actor_seat and (
            within or (not seen and not isinstance(view.get("to_act"), list))
        )
        texts[seat] = to_json(
            {
                **head,
                **({"seat": None, "actor": None} if unseen else {}),
                "events": seen,
                "view": view,
                "timers": visible_timers(timers, view, seat) if timers else [],
                "control": control,
                "legal": legal_json(state, seat, acting) if seat in acting else None,
                "ref": ref if seat == actor_seat and actor == "player" else None,
            }
        ).decode()
    return [texts.get(seat) for seat in seats]
