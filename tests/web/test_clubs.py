"""亲友圈 as people use it: the owner founds a club in the browser, a friend joins by its
code (another by its link), the owner saves a 玩法 and both tap 快速开始 into the same
table, which a stranger's lobby does not list; the hand played there shows in the club's
战绩 (ranking, CSV), its room gets a result card (a PNG drawn on a canvas) with a 回放码
that the lobby's search box opens; a club that lets people in by approval, and what its
owner and admins do to members; every page at phone and desktop size, in Chinese and
English, without overflow."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from web_helpers import DESKTOP, PHONE, WebServer, enter, more_players, set_lang, shoot, token

# A table that plays itself at once: two humans whose every decision times out to the bot.
QUICK = {
    "time_limit": 0.5,
    "tuoguan": "timeout",
    "tuoguan_after": 1,
    "pause": 0,
    "fill_after": None,
    "ready_check": False,
    "bot_delay": 0,
    "seed_wait": 0,
}

FOUND = """async ([name, approval]) => {
  const answer = await fetch('/api/clubs', {method: 'POST', headers: {
    'Content-Type': 'application/json',
    Authorization: 'Bearer ' + localStorage.getItem('paiju.token')},
    body: JSON.stringify({name, notice: '每晚八点', approval})});
  return await answer.json();
}"""

GLOSS = re.compile(r" \([\u3400-\u9fff]+\)")
CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]")


def quick_presets(page: Any) -> None:
    """The preset form has no fields for the tests' flat-out timing: the request gets them."""

    def handle(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        body["options"] = {**body.get("options", {}), **QUICK}
        route.continue_(post_data=json.dumps(body))

    page.route(re.compile(r"/api/clubs/\d+/presets$"), handle)


def to_lobby(page: Any) -> None:
    page.goto(page.base + "/#/")
    page.wait_for_selector("#clubs-entry")


def no_overflow(page: Any) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the screen at {page.url}"


def club_id(page: Any) -> int:
    page.wait_for_url(re.compile(r"#/club/\d+"))
    match = re.search(r"#/club/(\d+)", page.url)
    assert match, page.url
    page.wait_for_selector("#club")
    return int(match.group(1))


def test_found_join_quick_start_record_card_and_replay_code(
    browser: Any, page: Any, server: WebServer, tmp_path: Path
) -> None:
    page.set_viewport_size(DESKTOP)
    enter(page, "圈主老王")
    quick_presets(page)
    with more_players(browser, page, 2) as (friend, stranger):
        enter(friend, "牌友小李")
        enter(stranger, "路人甲")
        # the owner founds the club from the lobby's 亲友圈 entry
        to_lobby(page)
        page.click("#clubs-entry")
        assert "还没有加入亲友圈" in page.wait_for_selector("#club-list p.muted").inner_text()
        page.fill("#club-name", "周三牌局")
        page.fill("#club-notice", "每晚八点，老地方")
        page.click("#club-found-go")
        club = club_id(page)
        assert page.inner_text("#club-title .role-badge") == "圈主"
        assert "每晚八点，老地方" in page.inner_text("#club-notice-shown")
        code = page.inner_text("#club-code-shown")
        assert re.fullmatch(r"[A-Z2-9]{6}", code)
        # the friend joins by the code
        to_lobby(friend)
        friend.click("#clubs-entry")
        friend.fill("#club-code", code.lower())
        friend.click("#club-join-go")
        assert club_id(friend) == club
        assert friend.inner_text("#club-title .role-badge") == "成员"
        assert friend.query_selector("#preset-new") is None  # presets are the admins'
        # the owner saves a 玩法: 宝子 for two, one hand
        page.click("#preset-new")
        page.wait_for_selector("#preset-save")
        shoot(page, "club-preset-form")
        page.select_option("#preset-game", "2001")
        page.fill("#preset-name", "宝子 两人一局")
        page.fill("#preset-form input[name=seats]", "2")
        page.fill("#preset-form input[name=bots]", "0")
        page.fill("#preset-form input[name=hands]", "1")
        page.click("#preset-save")
        preset = page.wait_for_selector(".preset[data-code='2001']")
        assert "宝子 两人一局" in preset.inner_text()
        # both tap 快速开始 and sit at the same table
        page.click(".preset[data-code='2001'] .quick-start")
        page.wait_for_url(re.compile(r"#/room/\d+$"))
        room = int(page.url.rsplit("/", 1)[1])
        # the friend's club lobby, open all along, shows the new table by itself
        friend.wait_for_selector(f".club-table[data-room='{room}'] .table-seats")
        assert "圈主老王" in friend.inner_text(f".club-table[data-room='{room}']")
        assert friend.url.endswith(f"#/club/{club}")
        shoot(friend, "club-lobby")
        friend.click(".preset[data-code='2001'] .quick-start")
        friend.wait_for_selector("#room")
        info = server.get(f"/api/rooms/{room}", token(friend))
        assert sorted(info["players"]) == ["圈主老王", "牌友小李"]
        # a stranger's lobby does not list the club's table, nor may it open the club
        to_lobby(stranger)
        stranger.wait_for_selector("#rooms")
        assert stranger.query_selector(f"#rooms [data-room='{room}']") is None
        stranger.goto(f"{stranger.base}/#/club/{club}")
        refused = stranger.wait_for_selector("#club-refused")
        assert "宝子" not in refused.inner_text()
        for _ in range(200):  # every decision times out to the bot: the hand settles itself
            if server.get(f"/api/games?room={room}"):
                break
            time.sleep(0.3)
        else:
            raise AssertionError("the club's hand did not end")
        game = server.get(f"/api/games?room={room}")[0]["id"]
        for _ in range(100):
            if server.get(f"/api/rooms/{room}", token(page))["status"] == "finished":
                break
            time.sleep(0.2)
        ledger = {
            e["room"]: e["delta"]
            for e in server.get("/api/players/me/ledger", token(page))["entries"]
            if e["room"] == room
        }
        # the 战绩 tab: the ranking of the two, the owner's points as the ledger has them
        page.goto(f"{page.base}/#/club/{club}/record")
        page.wait_for_selector("#ranking tbody tr")
        rows = page.eval_on_selector_all(
            "#ranking tbody tr",
            "rs => rs.map(r => [r.querySelector('.rank-name').innerText,"
            " Number(r.dataset.points)])",
        )
        assert sorted(name for name, _ in rows) == ["圈主老王", "牌友小李"]
        assert dict(rows)["圈主老王"] == ledger[room]
        assert sum(points for _, points in rows) == 0  # two humans: one's win is the other's loss
        assert f"2001 52张宝子1 {ledger[room]:+d} (1 局)".replace("+0", "0") in page.inner_text(
            "#ranking tbody"
        )  # per game
        assert page.inner_text("#ranking thead").split() == [
            "名次", "玩家", "积分", "局数", "场数", "大赢家", "最佳一局"
        ]  # fmt: skip
        shoot(page, "club-record")
        page.click("[data-period='day']")
        page.wait_for_selector("[data-period='day'][aria-pressed='true']")
        page.wait_for_selector("#ranking tbody tr")
        with page.expect_download() as got:
            page.click("#record-csv")
        csv = Path(got.value.path()).read_text(encoding="utf-8")
        assert "圈主老王" in csv and "牌友小李" in csv
        assert got.value.suggested_filename == f"club-{club}-day.csv"
        # the finished table's result card: a PNG with its 回放码
        page.goto(f"{page.base}/#/club/{club}")
        page.click(f".club-table[data-room='{room}'][data-status='finished'] [data-result]")
        card = page.wait_for_selector("#result-card")
        replay_code = page.inner_text("#room-replay-code")
        assert re.fullmatch(r"[A-Z0-9]{6,8}", replay_code)
        assert card.get_attribute("data-code") == replay_code
        inked = page.evaluate(
            """() => { const c = document.querySelector('#card-canvas');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            const seen = new Set();
            for (let i = 0; i < d.length; i += 64) seen.add(`${d[i]},${d[i+1]},${d[i+2]}`);
            return seen.size; }"""
        )
        assert inked > 10  # text and colours, not a blank canvas
        shoot(page, "club-result-card")
        no_overflow(page)
        with page.expect_download() as got:
            page.click("#card-png")
        png = Path(got.value.path()).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert got.value.suggested_filename == f"club-room-{room}.png"
        assert page.query_selector(f"#room-hands a[href='#/replay/{game}']")
        # the 回放码 in a lobby: the room's 总结算; a hand's code: its replay
        to_lobby(friend)
        friend.fill("#replay-code", replay_code.lower())
        friend.click("#replay-code-go")
        friend.wait_for_url(re.compile(rf"#/summary/{room}$"))
        friend.wait_for_selector("#summary-table tbody tr")
        totals = friend.eval_on_selector_all(
            "#summary-table tbody tr", "rs => rs.map(r => Number(r.dataset.total))"
        )
        assert sorted(totals) == sorted(p for _, p in rows)
        assert friend.inner_text("#room-replay-code") == replay_code
        hand_code = friend.evaluate(
            """async (id) => (await (await fetch('/api/replays', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({kind: 'game', id})})).json()).code""",
            game,
        )
        set_lang(stranger, "en")  # a code opens a finished room to anyone who has it
        to_lobby(stranger)
        stranger.fill("#replay-code", replay_code)
        stranger.click("#replay-code-go")
        stranger.wait_for_selector(f"#result-card[data-room='{room}'] #summary-table")
        no_overflow(stranger)
        text = stranger.inner_text("#app")
        for name in ("圈主老王", "牌友小李"):
            text = text.replace(name, "")
        assert "Replay code" in text and not CJK.findall(text), text
        to_lobby(stranger)
        stranger.fill("#replay-code", hand_code)
        stranger.click("#replay-code-go")
        stranger.wait_for_url(re.compile(rf"#/replay/{game}$"))
        to_lobby(stranger)
        stranger.fill("#replay-code", "ZZZZZZZ")
        stranger.click("#replay-code-go")
        stranger.wait_for_selector("#replay-code-error:has-text('ZZZZZZZ')")


def test_approval_roles_mute_ban_hand_over_and_close(
    browser: Any, page: Any, server: WebServer
) -> None:
    enter(page, "圈主阿芳")
    with more_players(browser, page, 4) as (asker, other, banned, denied):
        for pg, name in (
            (asker, "申请人小赵"),
            (other, "成员小钱"),
            (banned, "捣乱的"),
            (denied, "陌生人"),
        ):
            enter(pg, name)
        to_lobby(page)
        page.click("#clubs-entry")
        page.fill("#club-name", "审批圈")
        page.check("#club-approval")
        page.click("#club-found-go")
        club = club_id(page)
        assert "加入需管理员同意" in page.inner_text(".club-code")
        code = page.inner_text("#club-code-shown")
        for pg in (asker, other, banned, denied):
            pg.goto(f"{pg.base}/#/clubs")
            pg.fill("#club-code", code)
            pg.click("#club-join-go")
            pg.wait_for_selector("#club-join-note:has-text('已申请加入')")
        # the owner sees four requests (the tab counts them) and answers each
        page.goto(f"{page.base}/#/club/{club}/members")
        page.wait_for_selector("#club-tab-members .count-dot:has-text('4')")
        names = page.eval_on_selector_all(
            "#club-requests [data-request] .member-name", "els => els.map(e => e.innerText)"
        )
        assert sorted(names) == sorted(["申请人小赵", "成员小钱", "捣乱的", "陌生人"])
        no = server.get("/api/players/me", token(denied))["id"]
        page.click(f"[data-deny='{no}']")
        page.wait_for_selector(f"[data-request='{no}']", state="detached")
        assert page.query_selector(f"#club-members [data-player='{no}']") is None
        assert server.get("/api/clubs", token(denied))["clubs"] == []
        for pg in (asker, other, banned):
            player = server.get("/api/players/me", token(pg))["id"]
            page.click(f"[data-approve='{player}']")
            page.wait_for_selector(f"#club-members [data-player='{player}']")
        assert page.query_selector("#club-requests") is None
        assert page.query_selector(
            f"#club-members [data-player='{page_id(asker, server)}'] .dot.on"
        )
        shoot(page, "club-members")
        ids = {
            name: server.get("/api/players/me", token(pg))["id"]
            for pg, name in ((asker, "zhao"), (other, "qian"), (banned, "ban"))
        }
        # the owner names an admin; the admin mutes and bans a member (two taps: a slip
        # of the finger does nothing)
        page.click(f"[data-admin='{ids['zhao']}']")
        page.wait_for_selector(f"#club-members [data-player='{ids['zhao']}'][data-role='admin']")
        asker.goto(f"{asker.base}/#/club/{club}/members")
        asker.wait_for_selector(f"#club-members [data-player='{ids['ban']}']")
        assert asker.query_selector(f"[data-admin='{ids['qian']}']") is None  # the owner's
        assert asker.query_selector(f"[data-ban='{page_id(page, server)}']") is None
        asker.click(f"[data-mute='{ids['qian']}']")
        asker.wait_for_selector(f"#club-members [data-player='{ids['qian']}'] .muted-chip")
        asker.click(f"[data-ban='{ids['ban']}']")
        assert asker.query_selector(f"#club-members [data-player='{ids['ban']}']")
        asker.click(f"[data-ban='{ids['ban']}']")
        asker.wait_for_selector(f"#club-members [data-player='{ids['ban']}']", state="detached")
        banned.goto(f"{banned.base}/#/clubs")
        banned.fill("#club-code", code)
        banned.click("#club-join-go")
        banned.wait_for_selector("#club-join-note:not(:empty)")
        assert "已申请" not in banned.inner_text("#club-join-note")
        # an admin words the notice anew; every member's club lobby shows it
        asker.fill("#club-notice-edit", "周五不开")
        asker.click("#club-notice-save")
        other.goto(f"{other.base}/#/club/{club}")
        other.wait_for_selector("#club-notice-shown:has-text('周五不开')")
        # the owner hands the club over and is an admin after; the new owner closes it
        page.goto(f"{page.base}/#/club/{club}/members")
        page.click(f"[data-hand-over='{ids['zhao']}']")
        page.click(f"[data-hand-over='{ids['zhao']}']")
        page.wait_for_selector("#club[data-role='admin']")
        other.goto(f"{other.base}/#/club/{club}/members")  # a member leaves
        other.click("#club-leave")
        other.click("#club-leave")
        other.wait_for_url(re.compile(r"#/clubs$"))
        assert server.get("/api/clubs", token(other))["clubs"] == []
        asker.goto(f"{asker.base}/#/club/{club}/members")
        asker.wait_for_selector("#club[data-role='owner']")
        asker.click("#club-close")
        asker.click("#club-close")
        asker.wait_for_url(re.compile(r"#/clubs$"))
        asker.wait_for_selector("#club-list p.muted")
        assert "审批圈" not in asker.inner_text("#club-list")


def page_id(page: Any, server: WebServer) -> int:
    return int(server.get("/api/players/me", token(page))["id"])


def test_club_pages_fit_phone_and_desktop_in_both_languages(
    browser: Any, page: Any, server: WebServer
) -> None:
    enter(page, "圈主大刘")
    made = page.evaluate(FOUND, ["大刘的麻将圈", False])
    club = made["id"]
    with more_players(browser, page, 1) as (friend,):
        enter(friend, "小陈")
        page.goto(f"{page.base}/#/club/{club}")
        link = page.wait_for_selector("#club-link").get_attribute("href")
        assert link == f"#/clubs/join/{made['code']}"
        friend.goto(f"{friend.base}/{link}")  # the invite link, pasted in the group chat
        assert club_id(friend) == club
        page.evaluate(
            """async (club) => fetch(`/api/clubs/${club}/presets`, {method: 'POST', headers: {
            'Content-Type': 'application/json',
            Authorization: 'Bearer ' + localStorage.getItem('paiju.token')},
            body: JSON.stringify({name: '十三张 四人', code: '1301',
              options: {seats: 4, bots: 2}, keep_waiting: true})})""",
            club,
        )
        names = ["大刘的麻将圈", "圈主大刘", "小陈", "十三张 四人", "每晚八点"]
        pages = [
            ("#/clubs", "#club-list .club-row"),
            (f"#/club/{club}", "#club-tables .club-table"),  # 开桌即有: a table waits
            (f"#/club/{club}/members", "#club-members .member-row"),
            (f"#/club/{club}/record", "#record-empty"),
        ]
        for lang in ("zh", "en"):
            set_lang(page, lang)
            for size in (PHONE, DESKTOP):
                page.set_viewport_size(size)
                for path, ready in pages:
                    page.goto(f"{page.base}/{path}")
                    page.wait_for_selector(ready)
                    no_overflow(page)
                    if lang == "en":
                        text = page.inner_text("#app")
                        for name in names:
                            text = text.replace(name, "")
                        assert not CJK.findall(text), (path, CJK.findall(text), text)
                page.goto(f"{page.base}/#/club/{club}")
                page.click("#preset-new")
                page.wait_for_selector("#preset-save")
                no_overflow(page)
                if lang == "en":
                    form = page.inner_text("#preset-form")
                    # the room form's fields gloss a term in Chinese: "Auto-play (托管)"
                    form = GLOSS.sub("", form)
                    assert "Save preset" in form and not CJK.findall(form), CJK.findall(form)
                to_lobby(page)
                no_overflow(page)
        set_lang(page, "zh")
        page.set_viewport_size(PHONE)
        page.goto(f"{page.base}/#/club/{club}")
        table = page.wait_for_selector("#club-tables .club-table[data-status='waiting']")
        assert "等人中" in table.inner_text()
        assert "机器人" in table.inner_text()


def test_club_strings_exist_in_both_languages(page: Any, server: WebServer) -> None:
    """Every string of the club pages is in Chinese and in English (a count of one may
    have English words of its own, ``KEY.one``, of a key both have)."""
    page.goto(page.base + "/")
    keys = page.evaluate(
        """() => import('/js/club-strings.js').then(m => ({
             zh: Object.keys(m.CLUB_STRINGS.zh), en: Object.keys(m.CLUB_STRINGS.en)}))"""
    )
    ones = {k for k in keys["zh"] + keys["en"] if k.endswith(".one")}
    assert set(keys["zh"]) ^ set(keys["en"]) == ones
    assert {k.removesuffix(".one") for k in ones} <= set(keys["zh"]) & set(keys["en"])
    assert len(keys["zh"]) > 80
