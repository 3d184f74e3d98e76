"""Accounts as people use them in the browser (docs/protocol.md, "Accounts and sessions").

A guest plays a hand, signs up keeping that guest (its 积分 and 战绩 stay), signs in on a
second device and sees the same player; the first device's list of signed-in devices
shows both, and "sign out everywhere" on the second closes the first one's room socket:
its page says it was signed out. A player who lost the password sets a new one with a
recovery code, and the old password stops working. Every account screen fits a phone
(390x844) and a desktop (1280x800), in Chinese and in English (no Chinese on an English
screen but the names)."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from web_helpers import DESKTOP, PHONE, WebServer, enter, token

PASSWORD = "river-tile-4827"
ADMIN = (sys.executable, "-m", "paiju", "admin")

# a 宝子 hand against a bot, the player's turns timing out to 托管: it settles by itself
PLAY_ONE = """async () => {
  const auth = 'Bearer ' + localStorage.getItem('paiju.token');
  const answer = await fetch('/api/rooms', {method: 'POST', headers: {
    'Content-Type': 'application/json', Authorization: auth},
    body: JSON.stringify({code: '2001', seat: 0, options: {seats: 2, bots: 1, hands: 1,
      time_limit: 0.5, tuoguan: 'timeout', tuoguan_after: 1, pause: 0, bot_delay: 0.02,
      seed_wait: 0, ready_check: false}})});
  return (await answer.json()).room.id;
}"""
# a room that waits for a second player (its socket stays open)
WAITING = """async () => {
  const auth = 'Bearer ' + localStorage.getItem('paiju.token');
  const answer = await fetch('/api/rooms', {method: 'POST', headers: {
    'Content-Type': 'application/json', Authorization: auth},
    body: JSON.stringify({code: '2001', seat: 0, options: {seats: 2, bots: 0,
      fill_after: null}})});
  return (await answer.json()).room.id;
}"""
FITS = """() => {
  const root = document.documentElement, width = root.clientWidth, wide = [];
  if (root.scrollWidth > width) wide.push('page ' + root.scrollWidth);
  for (const el of document.querySelectorAll('#topbar *, #app *')) {
    const box = el.getBoundingClientRect();
    const out = box.right > width + 0.5 || box.left < -0.5;
    if (box.width && out) wide.push(el.id || el.className || el.tagName);
  }
  return wide;
}"""
CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]")


@pytest.fixture(scope="module")
def accounts_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A server of this file's own: sign-ins are limited per address (all of ours come
    from 127.0.0.1), so these tests do not share the budget of the others."""
    srv = WebServer(tmp_path_factory.mktemp("accounts-server")).start()
    try:
        yield srv
    finally:
        srv.stop()


class People:
    """Browser contexts (each its own localStorage: a device) whose script errors fail the test."""

    def __init__(self, browser: Any, server: WebServer) -> None:
        self.browser, self.server = browser, server
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def device(self, viewport: dict[str, int] = PHONE) -> Any:
        context = self.browser.new_context(viewport=viewport)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.set_default_timeout(20_000)
        page.base = self.server.base
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def people(browser: Any, accounts_server: WebServer) -> Iterator[People]:
    crowd = People(browser, accounts_server)
    try:
        yield crowd
    finally:
        crowd.close()
    assert not crowd.errors, f"JavaScript errors on the page: {crowd.errors}"


def switch_to(page: Any, language: str) -> None:
    """Press the language switch, as a person does, until the page is in ``language``."""
    if not page.evaluate("document.documentElement.lang || 'zh'").startswith(language):
        page.click("#lang-switch")
        page.wait_for_function(f"document.documentElement.lang.startsWith('{language}')")


def check_screen(page: Any, language: str, names: tuple[str, ...] = ()) -> None:
    """Nothing sticks out of the viewport; an English screen has no Chinese but ``names``."""
    assert page.evaluate(FITS) == [], page.viewport_size
    if language == "en":
        text = page.inner_text("#app") + page.inner_text("#account-entry")
        for name in names:
            text = text.replace(name, "")
        assert not CJK.findall(text), text


def sign_up(page: Any, login: str, password: str = PASSWORD) -> list[str]:
    """From the lobby: the account entry, the sign-up form (claiming the guest), the ten
    codes shown once; answers the codes."""
    page.click("#account-entry")
    page.wait_for_selector("#signup-form")
    assert page.is_checked("#signup-claim")
    page.fill("#signup-form [name=login]", login)
    page.fill("#signup-form [name=password]", password)
    page.fill("#signup-form [name=password2]", password)
    page.click("#signup-go")
    page.wait_for_selector("#recovery-codes")
    codes = page.eval_on_selector_all(
        "#recovery-codes li", "els => els.map(e => e.innerText.trim())"
    )
    assert len(codes) == 10 and len(set(codes)) == 10
    return codes


def sign_in(page: Any, login: str, password: str = PASSWORD) -> None:
    page.wait_for_selector("#signin-form")
    page.fill("#signin-form [name=login]", login)
    page.fill("#signin-form [name=password]", password)
    page.click("#signin-go")


def ledger(page: Any) -> tuple[str, list[str]]:
    """The 积分 page as shown: the balance, and the 战绩's scores and dates in the order
    shown (the same in either language)."""
    page.goto(page.base + "/#/ledger")
    page.wait_for_selector("#balance")
    record = page.wait_for_selector("#record").inner_text()
    return page.get_attribute("#balance", "data-balance"), re.findall(r"[+-]\d+|\d+:\d+", record)


def test_claim_sign_in_elsewhere_and_sign_out_everywhere(
    people: People, accounts_server: WebServer
) -> None:
    first = people.device(PHONE)
    enter(first, "阿明")
    room = first.evaluate(PLAY_ONE)
    for _ in range(200):
        if accounts_server.get(f"/api/games?room={room}"):
            break
        time.sleep(0.3)
    else:
        raise AssertionError("the guest's hand did not end")
    before = ledger(first)
    assert before[1], before  # the hand is in the 战绩
    assert "阿明" in first.inner_text("#me-name")
    assert first.inner_text("#account-entry") == "注册/登录"

    # the guest signs up, keeping its history; the codes are shown once
    codes = sign_up(first, "aming_01")
    check_screen(first, "zh")
    first.click("#codes-saved")
    first.wait_for_function("location.hash === '#/'")
    first.wait_for_selector("[data-create='1301']", state="attached")
    assert first.inner_text("#account-entry") == "aming_01"
    assert ledger(first) == before
    first.goto(first.base + "/#/account")
    first.wait_for_selector("#account-overview")
    assert first.get_attribute("#codes-left", "data-n") == "10"
    assert not set(codes) & set(first.inner_text("#app").split())  # shown that once only

    # a second device, in English on a desktop, signs in: the same player
    second = people.device(DESKTOP)
    second.goto(second.base + "/")
    switch_to(second, "en")
    enter(second, "Visitor")  # a guest there first: signing in leaves that guest
    visitor = token(second)
    second.click("#account-entry")
    second.click("#signup-to-signin")
    check_screen(second, "en", ("Visitor",))
    assert "the guest Visitor on this device is not merged" in second.inner_text("#signin-form")
    sign_in(second, "AMING_01")  # a login's case does not matter
    second.wait_for_selector("[data-create='1301']", state="attached")
    assert token(second) != visitor
    gone = httpx.get(
        f"{second.base}/api/players/me", headers={"Authorization": f"Bearer {visitor}"}
    )
    assert gone.status_code == 401  # the guest's session ended, not left open
    assert second.inner_text("#account-entry") == "aming_01"
    assert ledger(second) == before
    assert second.inner_text("#me-name") == "阿明"

    # the first device lists both devices, then sits at a table (its socket open)
    first.reload()
    first.wait_for_selector("#sessions li[data-session]")
    first.wait_for_function("document.querySelector('#sessions').dataset.count === '2'")
    assert len(first.query_selector_all("#sessions li.current")) == 1
    check_screen(first, "zh")
    waiting = first.evaluate(WAITING)
    first.goto(f"{first.base}/#/room/{waiting}")
    first.wait_for_selector("#conn.on")

    # the second signs out everywhere else: the first's socket closes, its page says why
    second.goto(second.base + "/#/account")
    second.wait_for_function("document.querySelector('#sessions')?.dataset.count === '2'")
    check_screen(second, "en", ("阿明",))
    second.click("#sign-out-everywhere")
    second.wait_for_function("document.querySelector('#sessions').dataset.count === '1'")
    first.wait_for_selector("#account-ended[data-why='ended']")
    assert first.url.endswith("#/account/ended")
    assert "这个设备已退出登录" in first.inner_text("#account-ended")
    assert first.evaluate("localStorage.getItem('paiju.token')") is None
    assert first.evaluate("localStorage.getItem('paiju.mark')")  # the browser's mark stays
    assert first.inner_text("#account-entry") == "注册/登录"
    check_screen(first, "zh")
    first.click("#ended-signin")
    sign_in(first, "aming_01")
    first.wait_for_selector("[data-create='1301']", state="attached")
    assert ledger(first) == before

    # the second ends just the first device's session from its list: the first device's
    # next step (a REST call answered bad_token) lands on the same page
    second.click("#account-entry")  # on its account page already: drawn anew
    second.wait_for_function("document.querySelector('#sessions')?.dataset.count === '2'")
    second.click("#sessions li:not(.current) [data-end-session]")
    second.wait_for_function("document.querySelector('#sessions').dataset.count === '1'")
    first.click("#home")  # from its 积分 page to the lobby
    first.wait_for_selector("#account-ended[data-why='ended']")
    assert first.evaluate("localStorage.getItem('paiju.token')") is None


def test_recovery_code_sets_a_new_password(people: People) -> None:
    page = people.device(DESKTOP)
    enter(page, "Lost")
    codes = sign_up(page, "lost_one")
    page.click("#codes-saved")
    page.wait_for_function("location.hash === '#/'")
    page.goto(page.base + "/#/account")
    page.click("#sign-out")
    page.wait_for_selector("#welcome-recover")
    page.click("#welcome-recover")
    page.wait_for_selector("#recover-form")
    page.fill("#recover-form [name=login]", "lost_one")
    page.fill("#recover-form [name=code]", codes[3])
    page.fill("#recover-form [name=password]", "new-moon-5521")
    page.fill("#recover-form [name=password2]", "new-moon-5521")
    page.click("#recover-go")
    page.wait_for_selector("[data-create='1301']", state="attached")
    assert page.inner_text("#account-entry") == "lost_one"

    # signed out, the old password no longer works, the new one does
    page.goto(page.base + "/#/account")
    page.click("#sign-out")
    page.wait_for_selector("#welcome-signin")
    page.click("#welcome-signin")
    sign_in(page, "lost_one", PASSWORD)
    page.wait_for_selector("#signin-form .form-error[data-code='bad_credentials']")
    assert "登录名或密码不对" in page.inner_text("#signin-form .form-error")
    sign_in(page, "lost_one", "new-moon-5521")
    page.wait_for_selector("[data-create='1301']", state="attached")
    page.goto(page.base + "/#/account")
    page.wait_for_selector("#codes-left")
    assert page.get_attribute("#codes-left", "data-n") == "9"  # the code used once is spent

    # the password changed while signed in: only the newest one signs in
    page.fill("#password-form [name=old]", "new-moon-5521")
    page.fill("#password-form [name=password]", "third-kite-7730")
    page.fill("#password-form [name=password2]", "third-kite-7730")
    page.click("#password-go")
    page.wait_for_function("document.querySelector('#toast').textContent.includes('密码已修改')")
    page.click("#sign-out")
    page.wait_for_selector("#welcome-signin")
    page.click("#welcome-signin")
    sign_in(page, "lost_one", "new-moon-5521")
    page.wait_for_selector("#signin-form .form-error[data-code='bad_credentials']")
    sign_in(page, "lost_one", "third-kite-7730")
    page.wait_for_selector("[data-create='1301']", state="attached")


def test_a_ban_closes_the_table_and_sign_in_says_until_when(
    people: People, accounts_server: WebServer
) -> None:
    page = people.device(PHONE)
    enter(page, "Rowdy")
    sign_up(page, "rowdy_one")
    page.click("#codes-saved")
    waiting = page.evaluate(WAITING)
    page.goto(f"{page.base}/#/room/{waiting}")
    page.wait_for_selector("#conn.on")
    ban = ["ban", "rowdy_one", "--days", "3", "--reason", "abuse in chat"]
    subprocess.run(
        [*ADMIN, *ban, "--db", str(accounts_server.db)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    page.wait_for_selector("#account-ended[data-why='banned']")
    assert "这个账号被封禁了" in page.inner_text("#account-ended")
    assert page.evaluate("localStorage.getItem('paiju.token')") is None
    switch_to(page, "en")
    page.wait_for_selector("#account-ended[data-why='banned']")
    check_screen(page, "en")
    page.click("#ended-signin")
    sign_in(page, "rowdy_one")
    page.wait_for_selector("#signin-form .form-error[data-code='banned'] #ban-until")
    shown = page.inner_text("#signin-form .form-error")
    assert "This account is banned" in shown and "Reason: abuse in chat" in shown
    assert re.search(r"Banned until \d", shown), shown
    check_screen(page, "en")


@pytest.mark.parametrize(
    ("viewport", "language"),
    [(PHONE, "zh"), (PHONE, "en"), (DESKTOP, "zh"), (DESKTOP, "en")],
    ids=["phone-zh", "phone-en", "desktop-zh", "desktop-en"],
)
def test_every_account_screen_fits_in_both_languages(
    people: People, viewport: dict[str, int], language: str
) -> None:
    page = people.device(viewport)
    page.goto(page.base + "/")
    switch_to(page, language)
    page.wait_for_selector("#welcome-signin")
    check_screen(page, language)
    for view, shown in [("signin", "#signin-form"), ("recover", "#recover-form")]:
        page.goto(f"{page.base}/#/account/{view}")
        page.wait_for_selector(shown)
        check_screen(page, language)
    name = "Guest" + language.upper() + str(viewport["width"])
    page.goto(page.base + "/")
    enter(page, name)
    assert page.evaluate(FITS) == []  # the lobby under the top bar with its account entry
    page.click("#account-entry")
    page.wait_for_selector("#signup-form")
    check_screen(page, language, (name,))
    page.fill("#signup-form [name=login]", f"fit_{language}_{viewport['width']}")
    for field in ("password", "password2"):
        page.fill(f"#signup-form [name={field}]", PASSWORD)
    page.click("#signup-go")
    page.wait_for_selector("#recovery-codes")
    check_screen(page, language)
    page.click("#codes-saved")
    page.wait_for_function("location.hash === '#/'")
    page.goto(page.base + "/#/account")
    page.wait_for_function("document.querySelector('#sessions')?.dataset.count === '1'")
    check_screen(page, language, (name,))
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#new-codes")
    page.wait_for_selector("#recovery-codes")
    check_screen(page, language)
    page.evaluate("sessionStorage.setItem('paiju.ended', 'banned')")
    page.goto(page.base + "/#/account/ended")
    page.wait_for_selector("#account-ended[data-why='banned']")
    check_screen(page, language)


def test_too_many_attempts_says_how_long_to_wait(people: People) -> None:
    """The server's 429 (its limit per login and address is tested in tests/server) is
    shown with the wait of its Retry-After; here the answer is the server's own shape."""
    page = people.device(PHONE)
    refusal = {
        "error": {
            "code": "too_many_attempts",
            "message": "too many sign-in attempts: try again in 42 s",
            "params": {"retry_after": 42},
            "text": {
                "zh": "尝试次数太多了，请稍后再试",
                "en": "Too many attempts: wait a moment and try again",
            },
        }
    }
    page.route(
        "**/api/sessions",
        lambda route: route.fulfill(status=429, json=refusal, headers={"Retry-After": "42"}),
    )
    page.goto(page.base + "/#/account/signin")
    sign_in(page, "someone")
    error = page.wait_for_selector("#signin-form .form-error[data-code='too_many_attempts']")
    assert "请 42 秒后再试" in error.inner_text()
    switch_to(page, "en")
    sign_in(page, "someone")
    error = page.wait_for_selector("#signin-form .form-error[data-code='too_many_attempts']")
    assert "Try again in 42 s" in error.inner_text()
