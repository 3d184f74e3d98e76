"""宁城打弹子 (Ningcheng Danzi): two decks, 2 against 2 with open partner hands (明牌).

The pure rules:

* :mod:`~paiju.games.danzi.combos` - the orders and the combinations (牌型), 取牌 with 4s;
* :mod:`~paiju.games.danzi.moves` - every legal play of a hand against the table;
* :mod:`~paiju.games.danzi.tribute` - 进贡, 还贡 and 骚贡;
* :mod:`~paiju.games.danzi.scoring` - round points and the match to 30 or 60;
* :mod:`~paiju.games.danzi.contract` - the command-line answers (combo, beats, tribute, settle).

The game on the climbing core (:mod:`paiju.games.climbing.core`):
:mod:`~paiju.games.danzi.game` (rules hooks, phases, the match), :mod:`~paiju.games.danzi.spec`
(room options), :mod:`~paiju.games.danzi.bot`, :mod:`~paiju.games.danzi.terminal` and
:mod:`~paiju.games.danzi.messages` (refusals in Chinese and English).
"""
