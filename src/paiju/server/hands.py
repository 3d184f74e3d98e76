"""A table's hands as data (no socket, no database, no clock): the deal of the next hand
and the record the journal stores of it, a stored hand rebuilt from its seed and log,
the ending an action causes (the settlement, the match's next context, whether the room
is finished) and the messages that publish a hand's start and result with its fairness
proof (docs/fairness.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from paiju.engine import Game, State, apply_log
from paiju.fairness import commitment, deal_seed
from paiju.server.messages import HandOver, HandStarted
from paiju.server.rows import HandEnding, HandRow, HandWrite

__all__ = ["Dealt", "deal", "ending", "rebuild", "result", "started"]


@dataclass(frozen=True, slots=True)
class Dealt:
    """A new hand: its state, the record to store before it is shown, and the client
    seeds it was dealt with (None: no seat sent one)."""

    state: State
    write: HandWrite
    client_seeds: tuple[str, ...] | None


def deal(
    game: Game,
    *,
    room_id: int,
    code: str,
    hand_id: int,
    hand_no: int,
    game_options: Mapping[str, Any],
    context: Mapping[str, Any],
    players: tuple[int | None, ...],
    server_seed: str,
    sent: Sequence[str],
) -> Dealt:
    """Deal hand ``hand_no`` of a room from the server seed committed to before and the
    seeds the seats sent (``""``: none), with the match's ``context``."""
    client_seeds = tuple(sent) if any(sent) else None
    state = game.new_state(
        len(players), seed=deal_seed(server_seed, client_seeds), context=dict(context)
    )
    write = HandWrite(
        id=hand_id,
        room_id=room_id,
        hand_no=hand_no,
        code=code,
        game_options=game_options,
        players=players,
        commitment=commitment(server_seed),
        seed=server_seed,
        deal=state.deal.to_json(game.items),
        context=dict(context),
        client_seeds=client_seeds,
        record_format=game.record_format,
    )
    return Dealt(state, write, client_seeds)


def rebuild(game: Game, hand: HandRow) -> tuple[State, bool]:
    """A stored hand played again from its seed and log (a log of an older record format
    replays as :func:`~paiju.engine.apply_log` plays it), and whether the seed deals the
    deal that was stored."""
    seed = deal_seed(hand.seed, hand.client_seeds)
    state = game.new_state(hand.seats, seed=seed, context=hand.context)
    same = state.deal.to_json(game.items) == hand.deal
    logged = [(seat, game.parse_action(action)) for seat, action, _actor in hand.actions]
    for _ in apply_log(state, logged, hand.record_format):
        pass
    return state, same


def ending(
    game: Game,
    state: State,
    *,
    room_id: int,
    players: tuple[int | None, ...],
    hands_played: int,
    stake: int,
    hands: int | None,
) -> HandEnding:
    """What the hand's last action writes: the settlement, the ledger's deltas (times the
    ``stake``), the match's next context, and whether the room is finished (after
    ``hands`` hands where the room says so, else when the game's match is over)."""
    scores = tuple(state.settlement())
    played = hands_played + 1
    context = state.next_context()
    finished = played >= hands if hands is not None else game.match_over(context, played)
    return HandEnding(
        room_id=room_id,
        scores=scores,
        deltas=tuple(x * stake for x in scores),
        players=players,
        hands_played=played,
        context=context,
        room_finished=finished,
    )


def started(
    *,
    room_id: int,
    hand_id: int,
    hand_no: int,
    server_seed: str,
    client_seeds: tuple[str, ...] | None,
    next_seed: str,
) -> HandStarted:
    """The ``hand_started`` message: the commitments of this deal and of the next."""
    return HandStarted(
        room=room_id,
        game=hand_id,
        hand_no=hand_no,
        commitment=commitment(server_seed),
        client_seeds=None if client_seeds is None else list(client_seeds),
        next_commitment=commitment(next_seed),
    )


def result(
    *,
    room_id: int,
    hand_id: int,
    scores: list[int],
    deltas: list[int],
    server_seed: str,
    client_seeds: tuple[str, ...] | None,
    next_seed: str,
    finished: bool,
    pause: float,
    waiting: set[int],
) -> HandOver:
    """The ``hand_over`` message: the result, the seed revealed with what checks it, and
    when the next hand comes (none once the room is finished)."""
    return HandOver(
        room=room_id,
        game=hand_id,
        scores=scores,
        deltas=deltas,
        seed=server_seed,
        commitment=commitment(server_seed),
        client_seeds=None if client_seeds is None else list(client_seeds),
        deal_seed=deal_seed(server_seed, client_seeds),
        next_commitment=None if finished else commitment(next_seed),
        room_finished=finished,
        next_hand_in=None if finished else pause,
        waiting=sorted(waiting),
    )
