"""十三张 (shisanzhang, thirteen cards): arrange 13 cards into three rows and compare.

The family's pieces, each imported only when needed:

* :mod:`.spec` - :class:`~.spec.ShisanzhangParams`, the ``[variant.params]`` of each code;
* :mod:`.rows` - row evaluation (头墩/中墩/尾墩) and 倒水 detection;
* :mod:`.specials` - special 13-card hands (一条龙, 六对半 …), the 绍兴 ladder, 免摆 hands;
* :mod:`.showdown` - comparison and settlement of every variant (:func:`~.showdown.showdown`);
* :mod:`.game` - the Game protocol (deal, arrange or declare, showdown);
* :mod:`.solver` - the arrangement solver (自动摆牌); :mod:`.bot`, :mod:`.terminal`.

This module stays empty so that loading the catalogue (which imports :mod:`.spec`) is cheap.
"""
