"""Player-facing refusals (拒绝的理由) in Chinese and English.

An :class:`~paiju.errors.IllegalAction` carries a stable ``reason`` and JSON ``params``;
this module renders them for a player in the player's language, from one table, so the
terminal and the server say the same thing (the server sends both texts beside the
reason; the browser shows the one of its language). Parameters are rendered by name:

* ``cards``, ``extra``, ``missing``, ``hand`` … (canonical card text such as ``"Qh Qh"``)
  as the terminal draws cards, ``Q♥ Q♥``;
* ``suit`` (``s h c d`` or ``trumps``) as ``♠ ♥ ♣ ♦`` or 主牌 / trumps;
* ``seat`` and ``seats`` (0-based) as seat numbers from 1, the way the table shows them;
* lists joined with 、 or a comma.

>>> render("must_follow", {"suit": "h", "held": 3, "count": 2}, "zh")
'有♥必须跟♥：你有 3 张♥，要出其中 2 张'
>>> render("bet_limits", {"amount": 50, "low": 1, "high": 10}, "en")
'A bet is 1-10, not 50'
>>> render(None, {}, "zh", fallback="seat 1 is a bot seat")
'seat 1 is a bot seat'
"""

from __future__ import annotations

import functools
import importlib
import os
from typing import Any, Final, Literal

from paiju.cards import parse_cards
from paiju.errors import IllegalAction, NotationError, PaijuError, ProtocolError

__all__ = [
    "CODES",
    "EVENTS",
    "PHASES",
    "REASONS",
    "Lang",
    "describe_event",
    "error_fields",
    "explain",
    "known",
    "phase_name",
    "render",
    "say",
    "seat_label",
    "terminal_lang",
    "texts",
    "texts_of_code",
]

Lang = Literal["zh", "en"]

REASONS: Final[dict[str, tuple[str, str]]] = {
    # card and tile text that does not parse (NotationError)
    "bad_card_text": (
        "「{token}」不是牌：牌写作点数 2-9、T(10)、J、Q、K、A 加花色 s h c d"
        "（或 ♠♥♣♦、黑桃/红桃/梅花/方块），大王 RJ、小王 BJ，例如 As Td 9c RJ",
        "'{token}' is not a card: a card is a rank 2-9, T (or 10), J, Q, K, A with a suit"
        " s h c d (or ♠♥♣♦), or a joker RJ / BJ, e.g. As Td 9c RJ",
    ),
    "one_card_expected": ("请只写一张牌，不是「{token}」", "Give one card, not '{token}'"),
    "bad_tile_text": (
        "「{token}」不是麻将牌：数字加 m(万) p(筒) s(条)，"
        "字牌 1-7z 或 东南西北白发中，例如 123m45p 中",
        "'{token}' is not a tile: digits and a suit m (characters), p (dots) or s (bamboo),"
        " honours 1-7z, e.g. 123m45p 7z",
    ),
    "one_tile_expected": ("请只写一张牌，不是「{token}」", "Give one tile, not '{token}'"),
    # any game
    "not_your_turn": ("还没轮到你（等待 {seats}）", "Not your turn (waiting for {seats})"),
    "hand_over": ("这一{hand_word}已经结束", "The {hand_word} is over"),
    "no_such_seat": ("没有这个座位", "There is no such seat"),
    "not_an_action": ("这个游戏没有这个动作", "This game has no such action"),
    "no_action_left": ("现在没有可以做的动作", "There is nothing to do now"),
    "bad_seat_count": (
        "{code} 要 {low}-{high} 人，不是 {n} 人",
        "{code} is played by {low}-{high}, not {n}",
    ),
    "unknown_option": ("没有这个房间选项：{options}", "No such room option: {options}"),
    "unknown_field": (
        "“{kind}”没有“{field}”这一项，只能写：{allowed}",
        "A {kind} has no field {field}; its fields: {allowed}",
    ),
    "bad_option": ("房间选项 {option} 的值不对：{value}", "Room option {option} cannot be {value}"),
    "option_out_of_range": (
        "房间选项 {option} 要在 {min}-{max} 之间",
        "Room option {option} is {min}-{max}",
    ),
    "not_banker_game": (
        "{code} 没有庄家，不能选庄家优先",
        "{code} has no banker: no banker-favoured option",
    ),
    "bot_seat": ("{seat}是机器人的座位，选一个空位", "{seat} is a bot seat: pick an open seat"),
    "bad_bots": ("机器人比座位（{n} 个）还多", "More bots than the {n} seats"),
    "bad_level": (
        "没有这个电脑难度：{level}（简单、普通、困难）",
        "No bot level {level}: easy, normal or hard",
    ),
    "cannot_arrange": ("这个牌桌不能摆 {code}", "This table cannot show {code}"),
    # 十三张
    "bet_first": ("先下注：{choices} 选一个", "Bet first: one of {choices}"),
    "bet_choice": (
        "下注只能是 {choices}，不能是 {amount}",
        "A bet is one of {choices}, not {amount}",
    ),
    "bets_placed": ("已经下过注了，请摆牌", "The bets are placed: arrange your cards"),
    "already_shown": ("你已经摆好（亮牌）了", "You have already shown your hand"),
    "no_special": (
        "你没有可以报到的特殊牌：把 13 张牌摆成头墩 3 张、中墩 5 张、尾墩 5 张",
        "You hold no special hand to declare: arrange front (3) / middle (5) / back (5)",
    ),
    "declare_only": (
        "你的 {special} 不用摆牌，只能报到（亮牌）",
        "Your {special} is not arranged: declare it",
    ),
    "show_only": ("这个玩法不摆牌，只能亮牌", "Nobody arranges in this game: show your hand"),
    "row_sizes": (
        "头墩 3 张、中墩 5 张、尾墩 5 张，现在是 {front}、{middle}、{back} 张",
        "Front 3, middle 5 and back 5 cards, not {front}, {middle} and {back}",
    ),
    "not_your_cards": (
        "13 张牌每张用一次：多出 {extra}，少了 {missing}",
        "Use your 13 cards once each: extra {extra}, missing {missing}",
    ),
    "type_three_rows": (
        "输入三墩，用 / 隔开：头墩 3 张 / 中墩 5 张 / 尾墩 5 张",
        "Type three rows separated by '/': front (3) / middle (5) / back (5)",
    ),
    # 宝子 / 佳佳宝
    "bet_now": ("现在要下注", "Bet now"),
    "group_now": ("现在要把四张牌分成两组", "Split your four cards into two groups now"),
    "bet_limits": (
        "下注要在 {low}-{high} 之间，不能是 {amount}",
        "A bet is {low}-{high}, not {amount}",
    ),
    "group_sizes": (
        "每组两张牌：你的牌是 {hand}",
        "Two cards in each group: your cards are {hand}",
    ),
    "not_your_groups": ("分组要用你的四张牌 {hand}", "The groups must be your four cards {hand}"),
    "fixed_grouping": (
        "按规则要这样分组（有对则组队，大牌领头）：{groups}",
        "The rule groups these cards (a pair stays together, the big cards lead): {groups}",
    ),
    # 三打哈
    "not_now": ("现在不能{what}", "You cannot {what} now"),
    "must_bid": (
        "你有 {count} 张常主（王、2、7）：不能不叫，要叫 {max} 分或以下",
        "You hold {count} fixed trumps (jokers, 2s, 7s): you may not pass; bid {max} or lower",
    ),
    "no_lower_bid": ("没有更低的分可叫了：请不叫", "No lower bid is possible: pass"),
    "bid_not_allowed": (
        "不能叫 {points} 分：叫 {max} 分或以下，每次少 {step} 分，最低 {min} 分",
        "You cannot bid {points}: bid {max} or lower in steps of {step}, down to {min}",
    ),
    "bury_count": ("要扣 {size} 张底牌，不是 {n} 张", "Bury exactly {size} cards, not {n}"),
    "not_held": ("你没有 {cards}", "You do not hold {cards}"),
    "bad_trump": ("主牌只能是 ♠ ♥ ♣ ♦ 或无主", "Trumps are ♠, ♥, ♣, ♦ or no trumps"),
    "play_something": ("至少出一张牌", "Play at least one card"),
    "lead_one_suit": (
        "首家出牌要同一门花色（主牌算一门）：{cards}",
        "A lead is of one suit (trumps count as one): {cards}",
    ),
    "only_trumps_throw": (
        "只能甩主牌：副牌只能出单张、对子或拖拉机",
        "Only trumps may be thrown: lead one single, pair or tractor of a side suit",
    ),
    "follow_count": ("跟牌要出 {count} 张，不是 {n} 张", "Follow with {count} cards, not {n}"),
    "must_follow_all": (
        "有{suit}必须先出{suit}：先把你的 {cards} 都出了",
        "Follow {suit}: play all your {suit} ({cards}) before other cards",
    ),
    "must_follow": (
        "有{suit}必须跟{suit}：你有 {held} 张{suit}，要出其中 {count} 张",
        "Follow {suit}: you hold {held} {suit}, play {count} of them",
    ),
    "must_follow_tractor": (
        "要用拖拉机跟{suit}：你有 {cards}",
        "Follow {suit} with a tractor: you hold {cards}",
    ),
    "must_follow_pairs": (
        "要用 {pairs} 对跟{suit}：你有 {cards}",
        "Follow {suit} with {pairs} pair(s): you hold {cards}",
    ),
}

CODES: Final[dict[str, tuple[str, str]]] = {
    # the server's refusals and the error tree's codes, where no reason says more
    "already_seated": ("你已经在这个房间有座位了", "You already hold a seat in this room"),
    "room_full": ("这个房间没有空位了", "This room has no open seat"),
    "room_started": ("这个房间已经开始了，可以观战", "This room has started: you may watch"),
    "seat_taken": ("这个座位已经有人了", "That seat is taken"),
    "too_near_address": (
        "这个房间不允许同IP入座：你和{seat}的网络地址相同",
        "This room refuses players on one network: you share an address with {seat}",
    ),
    "too_near": (
        "这个房间不允许距离过近的玩家入座：你离{seat}约 {metres} 米（不足 {limit} 米）",
        "This room refuses players sitting close: you are about {metres} m from {seat}"
        " (under {limit} m)",
    ),
    "location_late": (
        "第一局开始后不再使用位置",
        "A location counts before the first deal only",
    ),
    "not_seated": ("你在这个房间没有座位", "You hold no seat in this room"),
    "not_owner": ("只有开房间的人可以这样做", "Only the room's owner may do that"),
    "spectator": ("观战时不能出牌：先入座", "Spectators cannot play: take a seat first"),
    "spectators_off": ("这个房间不允许观战", "This room does not allow spectators"),
    "chat_too_fast": ("说得太快了，歇一会儿再发", "Too fast: wait a moment before the next one"),
    "chat_off": ("本服务器只能发快捷语和表情", "This server allows phrases and emotes only"),
    "chat_too_long": ("这句话太长了", "That text is too long"),
    "chat_muted": (
        "你被举报了，只能发快捷语和表情",
        "After reports you may send phrases and emotes only",
    ),
    "wrong_seat": ("这不是你的座位", "That is not your seat"),
    "stale": ("这一{hand_word}已经过去了", "That {hand_word} is over"),
    "no_hand": (
        "现在没有进行中的牌局，等下一{hand_word}",
        "No {hand_word} is in play: wait for the next one",
    ),
    "no_room": ("没有这个房间", "No such room"),
    "wrong_node": (
        "这个房间在另一台服务器上，正在连过去",
        "This room is played on another server: connecting there",
    ),
    "room_moving": (
        "房间正在换服务器，几秒后再试",
        "The room is moving to another server: try again in a few seconds",
    ),
    "too_many_connections": (
        "你这里打开的连接太多了，请关掉一些再试",
        "Too many connections from your address: close some and try again",
    ),
    "unavailable": (
        "服务器暂时连不上数据库，稍后自动重连",
        "The server cannot reach its database just now: reconnecting shortly",
    ),
    "no_invite": (
        "没有这个邀请码的房间，请核对后再输入",
        "No room has this invite code: check it and type it again",
    ),
    "invite_closed": ("这个邀请码的房间已经结束了", "The room of this invite code is over"),
    "no_game": ("没有这局牌", "No such game"),
    "in_play": ("这局牌还在进行中", "This hand is still in play"),
    "too_many_rooms": ("你开的房间太多了", "You have too many rooms open"),
    "bad_token": ("请重新登录", "Please sign in again"),
    "bot_seat": ("这个座位给机器人了，选一个空位", "That seat is a bot's: pick an open seat"),
    "bad_bots": ("机器人比座位还多", "More bots than seats"),
    "not_your_turn": ("还没轮到你", "Not your turn"),
    "illegal_action": ("规则不允许这样做", "The rules do not allow that"),
    "bad_notation": ("牌写得不对", "That card text does not parse"),
    "unknown_variant": ("没有这个玩法", "No such game"),
    "not_implemented": ("这个玩法还不能玩", "This game is not playable yet"),
    "bad_message": ("消息格式不对", "Malformed message"),
    "rate_limited": ("操作太快了，请稍等", "Too fast: please wait a moment"),
    "too_many_requests": (
        "请求太频繁了，请稍后再试",
        "Too many requests: try again in a moment",
    ),
    "server_busy": ("服务器正忙，请稍后再试", "The server is busy: try again shortly"),
    "too_few_entrants": (
        "复式赛需要 {needed} 个参赛方才能开始（现在 {entrants} 个），可以加机器人补足",
        "The event needs {needed} entrants to start ({entrants} now): bots can fill it",
    ),
    "too_few_deals": (
        "这么多参赛方要分 {needed} 桌轮换，至少要 {needed} 副牌",
        "So many entrants sit at {needed} tables in turn: the event needs {needed} deals at least",
    ),
    "event_over": ("这场复式赛已经结束或取消了", "This event is over or cancelled"),
    "event_stopped": (
        "这场复式赛已被取消或提前结束，本桌关闭，未打完的这局作废",
        "This event was cancelled or ended early: the table is closed, the hand in play is void",
    ),
    "not_yours": ("只能查看自己的复盘汇总", "You can read only your own review summary"),
    "worker_lost": ("计算中断了，请稍后再试", "The work stopped midway: try again shortly"),
    "busy": (
        "你的上一个请求还在处理，请稍后再试",
        "Your previous request is still being handled: try again",
    ),
    "bad_seat": ("没有这个座位", "There is no such seat"),
    "bad_name": ("这个名字不能用", "That name cannot be used"),
    "too_fast": ("机器人和限时不能这么快", "Bots and timers cannot be that fast"),
    "too_many_bot_rooms": (
        "你开的机器人房间太多了，先关掉一个",
        "Too many rooms of bots: close one first",
    ),
    "too_many_registrations": ("注册太频繁了，请稍后再试", "Too many sign-ups: try again later"),
    "too_many_rooms_address": ("从你这里开的房间太多了", "Too many rooms from your address"),
    "too_many_sockets": ("连接太多了", "Too many connections"),
    "void_game": ("这局牌作废了", "This hand was void"),
    "too_many_lookups": (
        "查邀请码太频繁了，请稍后再试",
        "Too many invite codes looked up: try again in a moment",
    ),
    "too_many_invites": (
        "一分钟内邀请太多了，请稍后再试",
        "Too many invitations this minute: try again in a moment",
    ),
    "no_result": ("现在没有要继续的结果", "There is no result to continue from"),
    "dissolve_not_now": ("牌局没有在进行，不能申请解散", "The room is not playing: nothing to end"),
    "dissolve_pending": (
        "已经有人申请解散了，请等投票结果",
        "A vote to end the room is already under way or agreed",
    ),
    "dissolve_too_soon": (
        "申请解散太频繁了，{seconds} 秒后再试",
        "You asked to end the room a moment ago: try again in {seconds} s",
    ),
    "no_dissolve_vote": ("现在没有解散投票", "No vote to end the room is open"),
    "dissolve_answered": ("你已经表过态了", "You have already answered"),
    "room_playing": ("牌局已经开始了，不用再准备", "The game has started: no need to get ready"),
    "no_next_hand": ("这个房间不再发新牌了", "This room deals no further hand"),
    "deal_delayed": (
        "服务器暂时存不了新的一局，恢复后马上发牌",
        "The server cannot store the next hand just now: it is dealt as soon as it can",
    ),
    "storage_failure": ("没能保存这一步，请再试一次", "The move could not be stored: try again"),
    "internal": ("服务器出错了，这一步没有生效", "Server error: the move was not applied"),
    "bad_login": (
        "登录名只能用字母、数字、_ - .，3 到 32 个字",
        "A login name is 3 to 32 letters, digits, '_', '-' or '.'",
    ),
    "weak_password": (
        "密码太弱了：至少 8 位，且不能是常见密码或登录名",
        "Password too weak: at least 8 characters, not a common one, not the login",
    ),
    "login_taken": ("这个登录名已经有人用了，换一个", "That login name is taken: choose another"),
    "already_claimed": ("这个账号已经注册过了", "This account already has a login"),
    "bad_credentials": ("登录名或密码不对", "Wrong login name or password"),
    "bad_recovery": ("登录名或恢复码不对", "Wrong login name or recovery code"),
    "banned": ("这个账号被封禁了", "This account is banned"),
    "guest": ("游客账号还没有密码，先注册", "A guest account has no password: sign up first"),
    "too_many_attempts": (
        "尝试次数太多了，请稍后再试",
        "Too many attempts: wait a moment and try again",
    ),
    "no_session": ("没有这个登录设备", "No such session"),
    "bad_staff_credentials": (
        "用户名、密码或验证码不对",
        "Wrong name, password or authenticator code",
    ),
    "staff_only": ("请先以员工身份登录管理后台", "Sign in to the console as staff first"),
    "staff_role": ("你的员工角色不能做这个操作", "Your staff role may not do this"),
    "staff_taken": ("这个员工名已经有人用了", "There is already a staff member of that name"),
    "no_announcement": ("没有这条公告", "No such announcement"),
    "no_staff": ("没有这个员工", "No such staff member"),
    "busy_report": (
        "正在生成另一份报表，请稍后再试",
        "Another report is being made: try again soon",
    ),
    "operator_notice": ("管理员通知", "A notice from the operator"),
    "game_off": (
        "{name_zh}暂时不开放新房间",
        "{name_en} is not offered for new rooms just now",
    ),
    "option_not_offered": (
        "本服务器不提供这个选项值（{key}）",
        "This server does not offer that value of {key}",
    ),
    "no_chat_report": ("没有这条举报", "No such report"),
    "erased": ("这个玩家已被注销", "This player was erased"),
    "no_player": ("没有这个玩家", "No such player"),
    "busy_server": ("服务器正忙，请稍后再试", "The server is busy: try again shortly"),
    "session_ended": (
        "这个设备已退出登录，请重新登录",
        "This device was signed out: please sign in again",
    ),
    "no_passkey": ("这个通行密钥不认识", "This passkey is not known here"),
    "bad_passkey": ("通行密钥验证没有通过", "The passkey check failed"),
    "not_member": ("你不是这个亲友圈的成员", "You are not a member of this club"),
    "club_role": ("这需要圈主或管理员来做", "This needs the club's owner or an admin"),
    "no_club": ("没有这个亲友圈", "No such club"),
    "club_banned": ("你已被这个亲友圈移出", "This club removed you"),
    "club_full": ("这个亲友圈人满了", "This club is full"),
    "too_many_clubs": ("你加入或创建的亲友圈太多了", "You are in too many clubs"),
    "too_many_presets": ("玩法太多了，先删掉一个", "Too many presets: remove one first"),
    "no_request": ("没有这个入圈申请", "No such request to join"),
    "no_preset": ("没有这个玩法", "No such preset"),
    "no_replay": ("没有这个回放码", "No replay has this code"),
}

_WHAT: Final[dict[str, tuple[str, str]]] = {
    "bid": ("叫分", "bid"),
    "bury": ("埋底", "bury the kitty"),
    "name": ("叫主", "name trumps"),
    "play": ("出牌", "play cards"),
}

_SUITS: Final[dict[str, tuple[str, str]]] = {
    "s": ("♠", "♠"),
    "h": ("♥", "♥"),
    "c": ("♣", "♣"),
    "d": ("♦", "♦"),
    "trumps": ("主牌", "trumps"),
}

_CARD_KEYS: Final = frozenset({"card", "cards", "extra", "missing", "hand", "groups"})


def _cards(text: str, lang: Lang) -> str:
    """Card text as the tables draw it: ``Qh Ts`` as ``Q♥ 10♠``, jokers as 小王/大王."""
    if not text.strip():
        return "无" if lang == "zh" else "none"
    out = []
    for token in text.split():
        if token == "/":
            out.append("/")
            continue
        try:
            (card,) = parse_cards(token)
        except (NotationError, ValueError):
            out.append(token)
            continue
        if card.is_joker and lang == "zh":
            out.append("大王" if str(card) == "RJ" else "小王")
        else:
            out.append(card.symbol())
    return " ".join(out)


HAND_WORD: Final = ("局", "hand")
"""What ``{hand_word}`` says where a refusal does not name the game's word for a hand
(``params`` ``hand_word``: the game's ``[zh, en]``, 打弹子 ``["盘", "deal"]``)."""


def _value(key: str, value: Any, lang: Lang) -> str:
    k = 0 if lang == "zh" else 1
    if key == "hand_word" and isinstance(value, list | tuple) and len(value) == 2:
        return str(value[k])
    if key in _CARD_KEYS and isinstance(value, str):
        return _cards(value, lang)
    if key == "suit" and isinstance(value, str):
        return _SUITS.get(value, (value, value))[k]
    if key == "what" and isinstance(value, str):
        return _WHAT.get(value, (value, value))[k]
    if key in ("seat", "seats"):
        seats = value if isinstance(value, list) else [value]
        label = "{n}号位" if lang == "zh" else "seat {n}"
        return ("、" if lang == "zh" else ", ").join(label.format(n=int(s) + 1) for s in seats)
    if isinstance(value, list):
        return ("、" if lang == "zh" else ", ").join(str(v) for v in value)
    if isinstance(value, bool):
        return ("是" if value else "否") if lang == "zh" else str(value).lower()
    return str(value)


FAMILY_TABLES: Final = ("danzi", "climbing", "majiang")
"""Families that keep their refusals' texts in their own ``messages.REASONS``."""


@functools.cache
def _all_reasons() -> dict[str, tuple[str, str]]:
    """The core table, with the families' own tables (``paiju.games.F.messages``) under it:
    a reason of the core wins; a family's text fills a reason the core does not have."""
    out: dict[str, tuple[str, str]] = {}
    for family in FAMILY_TABLES:
        try:
            module = importlib.import_module(f"paiju.games.{family}.messages")
        except ImportError:
            continue
        table = getattr(module, "REASONS", {})
        for key, pair in table.items():
            if isinstance(pair, tuple) and len(pair) == 2:
                out.setdefault(key, (str(pair[0]), str(pair[1])))
    out.update(REASONS)
    return out


def known(reason: str | None) -> bool:
    """Whether ``reason`` has a Chinese and an English text (core or a family's)."""
    return reason is not None and reason in _all_reasons()


def render(reason: str | None, params: dict[str, Any], lang: Lang, fallback: str = "") -> str:
    """The refusal ``reason`` with its ``params`` in ``lang``; ``fallback`` (the
    developers' message) where the reason has no rendering."""
    table = _all_reasons()
    if reason is None or reason not in table:
        return fallback
    return _fill(table[reason][0 if lang == "zh" else 1], params, lang)


def _fill(text: str, params: dict[str, Any], lang: Lang) -> str:
    """``text`` with its ``{name}`` params, ``{hand_word}`` 局 / hand unless named."""
    for key, value in {"hand_word": HAND_WORD, **params}.items():
        text = text.replace("{" + key + "}", _value(key, value, lang))
    return text


def _reason_of(exc: PaijuError) -> tuple[str | None, dict[str, Any]]:
    """The player-facing reason and params of an error (refusals and notation errors)."""
    if isinstance(exc, IllegalAction | NotationError | ProtocolError):
        return exc.reason, dict(exc.params)
    return None, dict(getattr(exc, "params", {}))


def texts(exc: PaijuError) -> dict[str, str] | None:
    """``{"zh": …, "en": …}`` for a refusal: its reason rendered, else its code's text
    (None for a code without one)."""
    reason, params = _reason_of(exc)
    if known(reason):
        return {lang: render(reason, params, lang) for lang in ("zh", "en")}
    pair = CODES.get(exc.code)
    if pair is None:
        return None
    return {"zh": _fill(pair[0], params, "zh"), "en": _fill(pair[1], params, "en")}


def texts_of_code(code: str) -> dict[str, str] | None:
    """``{"zh": …, "en": …}`` of an error code (None for a code without one)."""
    pair = CODES.get(code)
    if pair is None:
        return None
    return {"zh": _fill(pair[0], {}, "zh"), "en": _fill(pair[1], {}, "en")}


def error_fields(exc: PaijuError) -> dict[str, Any]:
    """The player-facing fields of an error message: ``reason``, ``params`` and ``text``."""
    reason, params = _reason_of(exc)
    return {"reason": reason, "params": params, "text": texts(exc)}


def explain(exc: PaijuError, lang: Lang = "zh") -> str:
    """What a player is told about ``exc``: its reason rendered in ``lang``, else its message."""
    reason, params = _reason_of(exc)
    if reason is not None or isinstance(exc, IllegalAction):
        return render(reason, params, lang, fallback=str(exc))
    return str(exc)


def terminal_lang() -> Lang:
    """The terminal's language: ``PAIJU_LANG=en`` for English, Chinese otherwise."""
    return "en" if os.environ.get("PAIJU_LANG", "").lower().startswith("en") else "zh"


def say(lang: Lang, zh: str, en: str) -> str:
    """The terminal's text in ``lang``: the Chinese one, or with ``PAIJU_LANG=en`` the English."""
    return zh if lang == "zh" else en


def seat_label(seat: int, lang: Lang, me: int | None = None) -> str:
    """A seat as players count it, from 1: ``2号位`` / ``seat 2``; ``你`` / ``you`` for ``me``."""
    if seat == me:
        return say(lang, "你", "you")
    return say(lang, f"{seat + 1}号位", f"seat {seat + 1}")


PHASES: Final[dict[str, tuple[str, str]]] = {
    # the phases of a hand, as the tables name them (the web client's phase.* texts)
    "arranging": ("摆牌", "arranging"),
    "betting": ("下注", "betting"),
    "grouping": ("分组", "grouping"),
    "bidding": ("叫分", "bidding"),
    "burying": ("埋底", "burying the kitty"),
    "naming": ("叫主", "naming trumps"),
    "playing": ("出牌", "playing"),
    "calling": ("叫牌", "calling a partner"),
    "declaring": ("宣战", "declaring"),
    "tribute": ("进贡", "tribute"),
    "returning": ("还贡", "returning"),
    "picking": ("挑贡牌", "picking the tribute"),
    "picking_returns": ("挑还贡牌", "picking the returns"),
    "dealing": ("发牌", "dealing"),
    "over": ("结束", "over"),
}


def phase_name(phase: str, lang: Lang) -> str:
    """A phase of a hand in ``lang`` (its code where the table has no name for it)."""
    pair = PHASES.get(phase)
    return phase if pair is None else say(lang, *pair)


EVENTS: Final[dict[str, tuple[str, str] | None]] = {
    # None: the table draws it itself (the showdown, a seat's readiness, the settlement)
    "revealed": None,
    "ready": None,
    "bets_shown": None,
    "cards_seen": None,
    "group_chosen": None,
    "hand_ended": None,
    "hand_shown": None,
    "compared": None,
    "bet_placed": ("{seat} 下注 {amount}", "{seat} bets {amount}"),
    "bid_made": ("{seat} 叫 {points} 分", "{seat} bids {points}"),
    "bid_passed": ("{seat} 不叫", "{seat} passes"),
    "declarer_chosen": ("{seat} 做庄，庄分 {bid}", "{seat} is the declarer at {bid}"),
    "kitty_taken": ("你拿到底牌：{cards}", "You take the kitty: {cards}"),
    "kitty_buried": ("你扣下底牌：{cards}", "You bury: {cards}"),
    "trump_named": ("{seat} 叫主：{trump}", "{seat} names trumps: {trump}"),
    "throw_failed": (
        "{seat} 甩牌失败（{blocked_by} 管得住），改出 {forced}",
        "{seat}'s throw failed ({blocked_by} can beat it): {forced} is played",
    ),
    "played": ("{seat} 出 {cards}", "{seat} plays {cards}"),
    "trick_won": ("{seat} 赢得这一轮（{points} 分）", "{seat} wins the trick ({points} points)"),
    "kitty_revealed": (
        "底牌：{cards}（{points} 分，抠底 ×{multiplier}）",
        "The kitty: {cards} ({points} points, ×{multiplier})",
    ),
    "seat_grouped": ("{seat} 分好组了", "{seat}: grouped"),
    "dealt": ("发牌：每人 {cards_each} 张", "Dealt: {cards_each} cards each"),
}

EVENT_SHAPES: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    # other shapes of an event, tried in order when its text above needs a field it lacks
    "bet_placed": (("{seat} 下好注了", "{seat} has bet"),),  # 十三张: the amount hidden
}

_TRUMPS: Final = {"s": "♠", "h": "♥", "c": "♣", "d": "♦", "none": ("无主", "no trumps")}


def describe_event(event: dict[str, Any], me: int | None, lang: Lang = "zh") -> str | None:
    """One line a player reads about an event (its JSON form), or None when the table
    shows it already; an event this table does not know is named by its type."""
    kind = str(event.get("type", ""))
    if kind in EVENTS and EVENTS[kind] is None:
        return None
    k = 0 if lang == "zh" else 1
    values: dict[str, str] = {}
    for key, value in event.items():
        if key in ("seat", "blocked_by") and isinstance(value, int):
            you = "你" if lang == "zh" else "you"
            values[key] = you if value == me else _value("seat", value, lang)
        elif key == "trump" and isinstance(value, str):
            sign = _TRUMPS.get(value, value)
            values[key] = sign if isinstance(sign, str) else sign[k]
        elif key in ("cards", "forced", "tried") and isinstance(value, str):
            values[key] = _cards(value, lang)
        else:
            values[key] = _value(key, value, lang)
    main = EVENTS.get(kind)
    for template in ([] if main is None else [main]) + list(EVENT_SHAPES.get(kind, ())):
        text = template[k]
        for key, value in values.items():
            text = text.replace("{" + key + "}", value)
        if "{" not in text:
            return text
    # an event this table does not know, or not of a shape it knows
    rest = ", ".join(f"{key} {v}" for key, v in values.items() if key not in ("type", "seat"))
    return f"{values.get('seat', '')} {kind}".strip() + (f": {rest}" if rest else "")
