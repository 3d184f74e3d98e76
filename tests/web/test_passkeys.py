"""Passkeys as people use them in the browser (docs/protocol.md, "Passkeys"), with
Chromium's virtual authenticator standing in for the phone's fingerprint reader.

The issue: "Passkeys (WebAuthn, with the ``webauthn`` package) as a second way in, where
the browser offers it ... Optional; password sign-in must work without."

A guest signs up, adds a passkey under a name on the account page, signs out, and signs
in again with the passkey alone (no login typed): the same player, the same login. The
passkey is removed, and then it no longer signs anyone in. A browser without WebAuthn
shows no passkey button and signs in with the password as before. Every screen fits a
phone (390x844) and a desktop (1280x800), in Chinese and in English.

WebAuthn's relying party is the page's host, and an IP address is not a valid one: the
pages are opened at ``http://localhost:PORT`` (a secure context, as https is).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from web_helpers import DESKTOP, PHONE, WebServer, enter, token

PASSWORD = "bamboo-wind-7391"
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
WORDS = {
    "zh": {
        "signin": "用通行密钥登录",
        "none": "还没有通行密钥",
        "exists": "这台设备上已经有这个账号的通行密钥了",
        "unknown": "这个通行密钥不认识",
        "unused": "还没用过",
        "cancelled": "通行密钥操作已取消或超时",
    },
    "en": {
        "signin": "Sign in with a passkey",
        "none": "No passkeys yet",
        "exists": "This device holds a passkey of this account already",
        "unknown": "This passkey is not known here",
        "unused": "not used yet",
        "cancelled": "The passkey request was cancelled or timed out",
    },
}


@pytest.fixture(scope="module")
def passkey_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A server of this file's own (sign-ins are limited per address, and ours all come
    from 127.0.0.1)."""
    srv = WebServer(tmp_path_factory.mktemp("passkey-server")).start()
    try:
        yield srv
    finally:
        srv.stop()


class Devices:
    """Browser contexts (each its own localStorage) at ``localhost``, whose script errors
    fail the test."""

    def __init__(self, browser: Any, server: WebServer) -> None:
        self.browser, self.server = browser, server
        self.base = server.base.replace("127.0.0.1", "localhost")
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def device(self, viewport: dict[str, int]) -> Any:
        context = self.browser.new_context(viewport=viewport)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.set_default_timeout(20_000)
        page.base = self.base
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def devices(browser: Any, passkey_server: WebServer) -> Iterator[Devices]:
    crowd = Devices(browser, passkey_server)
    try:
        yield crowd
    finally:
        crowd.close()
    assert not crowd.errors, f"JavaScript errors on the page: {crowd.errors}"


class Authenticator:
    """Chromium's virtual authenticator in ``page``'s tab: a platform authenticator
    (internal, resident keys, user verification) that answers at once, as a phone's
    fingerprint reader does when the finger is on it."""

    def __init__(self, page: Any) -> None:
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("WebAuthn.enable")
        options = {
            "protocol": "ctap2",
            "transport": "internal",
            "hasResidentKey": True,
            "hasUserVerification": True,
            "isUserVerified": True,
            "automaticPresenceSimulation": True,
        }
        answer = self.cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})
        self.id = answer["authenticatorId"]

    def credentials(self) -> list[dict[str, Any]]:
        answer = self.cdp.send("WebAuthn.getCredentials", {"authenticatorId": self.id})
        found: list[dict[str, Any]] = answer["credentials"]
        return found


def switch_to(page: Any, language: str) -> None:
    """Press the language switch, as a person does, until the page is in ``language``."""
    if not page.evaluate("document.documentElement.lang || 'zh'").startswith(language):
        page.click("#lang-switch")
        page.wait_for_function(f"document.documentElement.lang.startsWith('{language}')")


def check_screen(page: Any, language: str, names: tuple[str, ...] = ()) -> None:
    """At phone and desktop width, nothing sticks out of the viewport; an English screen
    has no Chinese but ``names``. The page is left at the width it had."""
    was = page.viewport_size
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        page.wait_for_function(f"document.documentElement.clientWidth === {viewport['width']}")
        assert page.evaluate(FITS) == [], viewport
    page.set_viewport_size(was)
    if language == "en":
        text = page.inner_text("#app") + page.inner_text("#account-entry")
        for name in names:
            text = text.replace(name, "")
        assert not CJK.findall(text), text


def player_of(server: WebServer, page: Any) -> dict[str, Any]:
    """The player the page's token signs in as, asked of the server."""
    me: dict[str, Any] = server.get("/api/players/me", token(page))
    return me


def sign_up(page: Any, login: str) -> None:
    """From the lobby: the account entry, the sign-up form claiming the guest, the codes."""
    page.click("#account-entry")
    page.wait_for_selector("#signup-form")
    assert page.is_checked("#signup-claim")
    page.fill("#signup-form [name=login]", login)
    page.fill("#signup-form [name=password]", PASSWORD)
    page.fill("#signup-form [name=password2]", PASSWORD)
    page.click("#signup-go")
    page.wait_for_selector("#recovery-codes")
    page.click("#codes-saved")
    page.wait_for_function("location.hash === '#/'")


def open_account(page: Any) -> None:
    page.goto(page.base + "/#/account")
    page.wait_for_selector("#passkey-list[data-count]")


def passkeys_shown(page: Any) -> int:
    return int(page.get_attribute("#passkey-list", "data-count"))


def sign_out(page: Any) -> None:
    open_account(page)
    page.click("#sign-out")
    page.wait_for_selector("#welcome-signin")
    assert page.evaluate("localStorage.getItem('paiju.token')") is None


@pytest.mark.parametrize(
    ("language", "viewport"), [("zh", PHONE), ("en", DESKTOP)], ids=["zh-phone", "en-desktop"]
)
def test_add_a_passkey_then_sign_in_with_it_alone(
    devices: Devices, passkey_server: WebServer, language: str, viewport: dict[str, int]
) -> None:
    words = WORDS[language]
    login, name = f"flora_{language}_{secrets.token_hex(3)}", f"Flora{language.upper()}"
    page = devices.device(viewport)
    key = Authenticator(page)
    page.goto(page.base + "/")
    switch_to(page, language)
    enter(page, name)
    guest = player_of(passkey_server, page)
    sign_up(page, login)

    # the account page: no passkey yet, then one added under a name
    open_account(page)
    assert passkeys_shown(page) == 0
    assert words["none"] in page.inner_text("#passkeys")
    check_screen(page, language, (name,))
    phone = "我的手机" if language == "zh" else "My phone"
    page.fill("#passkey-add-form [name=passkey-name]", phone)
    page.click("#passkey-add")
    page.wait_for_function("document.querySelector('#passkey-list').dataset.count === '1'")
    assert page.inner_text("#passkey-list .passkey-name") == phone
    assert words["unused"] in page.inner_text("#passkey-list")
    held = key.credentials()
    assert len(held) == 1 and held[0]["isResidentCredential"] and held[0]["rpId"] == "localhost"
    check_screen(page, language, (name, phone))

    # the same device cannot add a second passkey of this account: the browser says so
    page.fill("#passkey-add-form [name=passkey-name]", "again")
    page.click("#passkey-add")
    error = page.wait_for_selector("#passkey-add-form .form-error:not([hidden])")
    assert words["exists"] in error.inner_text()
    assert passkeys_shown(page) == 1 and len(key.credentials()) == 1
    check_screen(page, language, (name, phone))

    # signed out, the player signs in with the passkey: no login name typed
    sign_out(page)
    page.click("#welcome-signin")
    page.wait_for_selector("#signin-form #passkey-signin")
    assert words["signin"] in page.inner_text("#passkey-signin")
    check_screen(page, language)
    page.click("#passkey-signin")
    page.wait_for_function("location.hash === '#/'")
    page.wait_for_selector("[data-create='1301']", state="attached")
    assert page.inner_text("#account-entry") == login
    assert page.inner_text("#me-name") == name
    assert player_of(passkey_server, page)["id"] == guest["id"]

    # the account page shows the passkey used, and the player removes it
    open_account(page)
    page.wait_for_selector("#sessions li[data-session]")
    assert passkeys_shown(page) == 1
    assert words["unused"] not in page.inner_text("#passkey-list")
    check_screen(page, language, (name, phone))
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#passkey-list [data-remove-passkey]")
    page.wait_for_function("document.querySelector('#passkey-list').dataset.count === '0'")
    assert passkeys_shown(page) == 0
    mine = httpx.get(
        f"{passkey_server.base}/api/passkeys",
        headers={"Authorization": f"Bearer {token(page)}"},
        timeout=10,
    )
    assert mine.json() == {"passkeys": []}

    # the key left on the device no longer signs anyone in; the page says why
    sign_out(page)
    page.goto(page.base + "/#/account/signin")
    page.click("#passkey-signin")
    error = page.wait_for_selector("#passkey-signin-error:not([hidden])")
    assert words["unknown"] in error.inner_text()
    assert page.get_attribute("#passkey-signin-error", "data-code") == "no_passkey"
    assert page.evaluate("localStorage.getItem('paiju.token')") is None
    check_screen(page, language)

    # a device with no passkey of this site: the browser refuses, and the page says so
    key.cdp.send("WebAuthn.clearCredentials", {"authenticatorId": key.id})
    page.click("#passkey-signin")
    page.wait_for_function("document.querySelector('#passkey-signin-error').dataset.code === ''")
    assert words["cancelled"] in page.inner_text("#passkey-signin-error")
    assert page.evaluate("localStorage.getItem('paiju.token')") is None


def test_without_webauthn_no_passkey_button_and_passwords_still_work(
    devices: Devices, passkey_server: WebServer
) -> None:
    at_ip = devices.device(PHONE)  # WebAuthn is there, but an IP address is no relying party
    at_ip.goto(passkey_server.base + "/#/account/signin")
    at_ip.wait_for_selector("#signin-form")
    assert at_ip.evaluate("!!window.PublicKeyCredential")
    assert at_ip.query_selector("#passkey-signin") is None

    page = devices.device(PHONE)
    page.add_init_script("delete window.PublicKeyCredential;")
    login = f"lao_zhou_{secrets.token_hex(3)}"
    enter(page, "老周")
    sign_up(page, login)
    page.goto(page.base + "/#/account")
    page.wait_for_function("document.querySelector('#sessions')?.dataset.count === '1'")
    assert page.query_selector("#passkeys") is None
    page.click("#sign-out")
    page.click("#welcome-signin")
    page.wait_for_selector("#signin-form")
    assert page.query_selector("#passkey-signin") is None
    page.fill("#signin-form [name=login]", login)
    page.fill("#signin-form [name=password]", PASSWORD)
    page.click("#signin-go")
    page.wait_for_selector("[data-create='1301']", state="attached")
    assert page.inner_text("#account-entry") == login
