"""The climbing family (出牌 games): one core for 鞍山甲乙丙, 鞍山放羊 and 宁城打弹子.

Modules: :mod:`.core` (the state machine and the combination hooks), :mod:`.spec` (params
and room options, cheap to import), :mod:`.jiayibing` (鞍山甲乙丙), :mod:`.fangyang`
(鞍山放羊), :mod:`.bot`, :mod:`.terminal`. Registry families: ``jiayibing`` and ``fangyang``
(the catalogue's), each one :data:`paiju.games.FAMILIES` entry pointing here.

The core API (for a new game of the family)
-------------------------------------------

* ``Rules`` (:class:`.core.Rules`): the combinations as data plus hooks. Set ``kind_zh``
  (kind id -> Chinese name) and ``order`` (card ranks 2-16 low to high; 15 小王, 16 大王);
  implement ``classify(cards) -> Combo | None`` and ``combos(hand)`` (every combination of a
  hand, each distinct multiset once); override ``beats(play, table)`` for bombs (kinds that
  beat other kinds) or takes, ``why_not`` / ``explain`` for finer refusals, and
  ``plays(hand, table)`` for a faster generator. ``Combo(kind, rank, length, cards)``:
  ``rank`` orders one kind, ``length`` must match (by default), cards sorted low to high.
  :class:`.core.SameRankRules` is the 鞍山 grammar (单张/对/三同张/四同张 of one rank).
* ``ClimbingGame[Params]``: set ``family``, ``params_model``, ``options_model`` (room
  options, defaults from the params of the same names, errors ``reason="bad_option"``),
  ``make_rules()``, ``deal()``, ``start()``; add ``actions``/``events`` of extra phases.
* ``ClimbingState`` hooks: ``team_of(seat)``, ``teams_known_to(viewer)``, ``partners(seat)``,
  ``sees_hand(viewer, seat)`` (明牌: a partner's hand), ``jiefeng(finisher) -> seat``,
  ``deal_over()``, ``settlement()``, ``next_context()``, ``may_pass(seat)``,
  ``on_play(seat, combo) -> events`` (a card revealed, cards taken), ``view_extra(viewer)``,
  ``result_json()``; phases before play through ``check_other`` / ``apply_other`` /
  ``legal_other`` (set ``self._phase`` and call ``start_play(leader)`` to begin play);
  ``stop(seat)`` takes a player out of play without a place (a failed 宣战).
  State fields: ``hands``, ``table`` (Combo | None), ``table_seat``, ``passed``, ``trick``,
  ``last_trick``, ``log``, ``played_by``, ``finished``, ``stopped``, ``exposed`` (cards shown
  from a hand), ``turn``, ``leader``, ``jiefeng_from``; ``legal_combos(seat)``,
  ``in_play(seat)``, ``next_in_play(seat)``.

Actions (JSON)
--------------

* ``{"type": "play", "cards": "7h 7s"}`` — lead or beat the table;
* ``{"type": "pass"}`` — 过 (never on a lead);
* 放羊 only: ``{"type": "call", "rank": "K", "suit": "s", "shown": false}`` — the banker's
  call (rank 4-10, J, Q, K, A; suit s h c d; ``shown`` = 亮).

Refusals are ``IllegalAction`` with ``reason``: ``not_held`` (cards), ``not_a_combination``
(cards), ``wrong_kind`` / ``not_higher`` (cards, table, kind, table_kind), ``must_lead``,
``must_beat``, ``wrong_phase`` (phase), ``not_callable`` (rank, suit, max), ``bad_option``.

Events: ``played`` {seat, cards, kind, left}, ``passed`` {seat}, ``finished`` {seat, place},
``trick_ended`` {winner}, ``lead`` {seat, jiefeng, after}; 放羊: ``called`` {seat, rank,
suit, shown}, ``sides_revealed`` {partner, mode, played}; ``hand_ended`` {scores}.

The view (``state.view(seat)``)
-------------------------------

Every game: ``code``, ``family``, ``phase`` (``calling`` | ``playing`` | ``over``), ``seat``,
``to_act``, ``turn``, ``hand`` (own cards, sorted low to high in the game's order), ``hands``
(per seat: the cards if the viewer may see them, else null; all at the end), ``hand_sizes``,
``leader`` (who led this trick), ``table`` (null or {seat, kind, kind_zh, rank, length,
cards}), ``trick`` and ``last_trick`` (lists of {seat, cards} or {seat, pass: true}),
``passed`` (seats that passed on the table), ``played_by`` (each seat's played cards),
``finished`` (seats in finishing order), ``places`` (per seat: 1 = 头游, or null),
``stopped``, ``teams`` (per seat: team id as the viewer knows it, or null), ``jiefeng_from``
(the finisher whose 接风 gave this lead), ``options``; at the end ``result`` {settlement,
result ("win" | "draw"), …}.

* 甲乙丙 adds ``special3`` {rank "3", suit, copy (1 or 2: which deck), holder} (null after
  the first deal), ``team_names`` ["甲乙丙", "ACB"]; teams: 0 = seats 0 2 4, 1 = 1 3 5;
  ``result`` adds winner, first_team, completed, caught.
* 放羊 adds ``banker``, ``called`` (null or {rank, suit}: not card notation, since where it
  lies may be secret), ``shown`` (亮), ``teams_known``, ``mode`` ("2v2" | "1v3", null if the
  viewer does not know), ``partner`` (the holder, null if unknown to the viewer),
  ``callable`` (ranks the banker may call, while calling); teams: 0 = the banker's side,
  1 = the others; ``result`` adds pattern (AABB, ABAB, ABBA, ABBB, BABB, BBAB, BBBA, B) and mode.
"""
