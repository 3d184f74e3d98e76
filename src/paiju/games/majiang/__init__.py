"""鞍山麻将 (anshan-majiang): the mahjong family, with the 混 (wild), 枪 and claim windows.

Modules: :mod:`~paiju.games.majiang.rules` (room switches, the 混 / 枪 cycles),
:mod:`~paiju.games.majiang.messages` (the refusal reasons in Chinese and English),
:mod:`~paiju.games.majiang.win` (the win check: tables built at import, the best reading),
:mod:`~paiju.games.majiang.score` (fans 番 and payment 2^fan), :mod:`~paiju.games.majiang.ting`
(the waits, 听牌), :mod:`~paiju.games.majiang.game` (the state machine).

Tiles are written in the compact notation of :mod:`paiju.tiles` (``123m456p789s1234567z``;
1z-7z = 东 南 西 北 白 发 中). A tile *kind* that is named without being a tile on the table
(the 混 kinds, the 枪 kinds) is given as its int 0-33 (0-8 万, 9-17 筒, 18-26 条,
27-33 东南西北白发中).

Actions (JSON)
--------------
On one's turn (phase ``play``; the state has already drawn for the seat):

* ``{"type": "discard", "tile": "5m"}`` - 打牌;
* ``{"type": "kong", "tile": "5m"}`` - 暗杠 (four natural in hand) or 补杠 (adds to one's 碰);
  a replacement tile is drawn from the tail of the wall. A 补杠 first opens a ``rob`` window;
* ``{"type": "win"}`` - 自摸.

After a 吃 or 碰 the seat must discard (no win, no kong). In a claim window (phase ``claim``,
after every discard; phase ``rob``, after every 补杠) each other seat answers once, all at the
same time:

* ``{"type": "chi", "chow": "345m"}`` - 吃 (the 下家 of the discarder only; the chow holds the
  discard; a 混 never takes part);
* ``{"type": "peng"}`` - 碰; ``{"type": "gang"}`` - 明杠 (three in hand, wall not empty);
* ``{"type": "win"}`` - 胡 (点炮, or 抢杠 in a ``rob`` window);
* ``{"type": "pass"}`` - 过.

Priority 胡 > 杠 = 碰 > 吃; among several 胡 the first seat after the discarder (option
``multiple_winners`` lets all win). ``to_act()`` holds every seat but the discarder; a seat
with no claim has ``pass`` alone, so a window tells nobody who could claim. The window closes
when every seat in it has decided. A discarded 混 cannot be claimed at all (``pass`` alone).

View (JSON) of seat ``s`` (``None`` = spectator)
------------------------------------------------
::

    {"code": "anshan-majiang", "phase": "play" | "claim" | "rob" | "over",
     "seat": s, "to_act": true,                  # whether this seat acts now (a seat is not
                                                 # told which others a claim window asks);
                                                 # spectator: [seat to move], [] in windows
     "dealer": 1, "turn": 1,                     # turn: the seat that discarded / moves
     "flip": "5z",                               # the flipped tile (揭), out of play
     "hun": [33],                                # 混 kinds (ints, see above)
     "qiang": [32], "qiang_room": "ming" | "an", # 枪 kinds ([] in 暗枪 rooms until the win)
     "wall": 82,                                 # tiles left to draw
     "players": [{"seat": 0, "concealed": 13,     # how many concealed tiles
                  "melds": [{"kind": "chi" | "peng" | "minggang" | "angang",
                             "tiles": "345m" | null,   # null: another seat's 暗杠
                             "from": 2 | null, "claimed": "4m" | null}],
                  "discards": "19m5p",           # the river in order (compact text)
                  "claimed": [1],                # indices of river tiles a claim took
                  "open": false,                 # 开门 (闭门 at payment when false)
                  "hand": "..."}, ...],          # only once the hand is over
     "last_discard": {"seat": 1, "tile": "2p", "kong": false} | null,  # the tile a window is on
     # for a seat (not the spectator):
     "hand": "245m348p4799s137z",                # own concealed tiles, sorted, drawn tile apart
     "drawn": "6p" | null,                       # the tile just drawn (own turn)
     "actions": [ ...legal actions as above... ],
     "decided": "pass",                          # own decision while the window is open
     "ting": {"waits": [{"kind": 2, "discard": true, "self_drawn": true,
                         "unseen": 2}, ...]}      # 听牌 help, from this view alone: the waits
             | {"discards": [{"tile": "9m", "waits": [...]}, ...]},  # or, on one's turn,
                                                 # the discards that leave the hand ready
     # once over:
     "result": {"kind": "win" | "drawn", "reveal": "3s" | null, "scores": [d0, d1, d2, d3],
                "wins": [{"seat": 2, "how": "zimo" | "dianpao" | "qianggang", "tile": "5p",
                          "from": 1 | null, "form": "standard" | "七对" | "十三幺",
                          "fans": ["穷胡", "站立"], "fan": 2,
                          "groups": [{"type": "shunzi" | "kezi" | "jiang" | "pair" | "single",
                                      "tiles": "35m", "hun": 1,       # natural tiles,
                                      "hun_as": [3]}],                # 混 playing 4m
                          "pay": [{"seat": 0, "extra": ["庄", "闭门"], "fan": 4, "pay": 16}],
                          "deltas": [d0, d1, d2, d3]}]}}

Events: ``drew`` (seat, replacement, wall), private ``tile_drawn``, ``discarded``, private
``claim_made`` (only the deciding seat sees that it decided, and what), ``melded`` (kind
``chi`` ``peng`` ``minggang`` ``angang`` (no tiles) ``bugang_pending`` ``bugang``), private
``concealed_kong``, ``won``, ``hands_shown``, ``drawn_hand`` (流局), ``hand_ended``.

Room options: see :data:`paiju.games.majiang.rules.OPTION_CHOICES` (``qiang = "ming" | "an"``,
``hun``, ``dealer_rotation``, ``multiple_winners``, ``zhuang``, ``qionghu``, ``shisanyao``,
``hun_may_make_dragon_pair``, ``no_258_pair``).
"""
