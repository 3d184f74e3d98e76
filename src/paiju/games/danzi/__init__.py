"""宁城打弹子 (Ningcheng Danzi): two decks, 2 against 2 with open partner hands (明牌).

* :mod:`~paiju.games.danzi.combos` - the orders and the combinations (牌型), 取牌 with 4s;
* :mod:`~paiju.games.danzi.moves` - every legal play of a hand against the table;
* :mod:`~paiju.games.danzi.tribute` - 进贡, 还贡 and 骚贡;
* :mod:`~paiju.games.danzi.scoring` - round points and the match to 30 or 60.
"""
