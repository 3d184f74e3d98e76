// Accounts in the browser (docs/protocol.md, "Accounts and sessions"): the account entry
// of the top bar, and the views under #/account:
//   #/account          a guest: sign up (claiming the guest); an account: its login, recovery
//                      codes, password, signed-in devices, sign out; nobody: sign in
//   #/account/signup   sign up        #/account/signin   sign in (on another device)
//   #/account/recover  a new password with a recovery code
//   #/account/ended    why this device was signed out (elsewhere, a ban)
// The ten recovery codes are shown once, right after they are made. A session that ends
// under the page (a 401 for its token, a room socket closed 4401/4403) lands on "ended".

import { call, del, forget, get, keep, login, onEnded, playerName, post, token } from "./api.js";
import { clear, h, toast } from "./dom.js";
import { lang, onLang, t } from "./i18n.js";

const ENDED_KEY = "paiju.ended"; // sessionStorage: why the last session ended

/** Where another way in (passkeys, /api/passkeys) plugs into these screens without editing
 * them: each fn(mine) of `account` draws a part of the signed-in page (mine: GET
 * /api/accounts/me), each fn() of `signIn` a part under the sign-in form; null draws nothing. */
export const parts = { account: [], signIn: [] };

// ---------------------------------------------------------------- the top bar and links

/** The top bar's account entry: "注册/登录" for a guest (or nobody), else the login. */
export function showEntry() {
  const el = document.getElementById("account-entry");
  if (!el) return;
  const name = token() ? login() : "";
  el.textContent = name || t("acct.entry");
  el.title = name ? t("acct.title") : t("acct.entry");
  el.classList.toggle("signed-in", !!name);
  el.href = token() ? "#/account" : "#/account/signin";
}

/** The welcome form's ways in for someone with an account. */
export function accountLinks() {
  return h(
    "p",
    { class: "account-links" },
    h("a", { href: "#/account/signin", id: "welcome-signin" }, t("acct.have")),
    h("a", { href: "#/account/recover", id: "welcome-recover" }, t("acct.lost")),
  );
}

onLang(showEntry);
// the entry tapped on its own page draws it anew (the devices list as it is now)
document.getElementById("account-entry")?.addEventListener("click", (ev) => {
  if (location.hash === ev.currentTarget.getAttribute("href")) window.dispatchEvent(new HashChangeEvent("hashchange"));
});
onEnded((why) => {
  sessionStorage.setItem(ENDED_KEY, why);
  showEntry();
  if (location.hash !== "#/account/ended") location.hash = "#/account/ended";
});

// ---------------------------------------------------------------- pieces

export function when(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const locale = lang() === "en" ? "en-GB" : "zh-CN";
  return new Date(seconds * 1000).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
}

function field(label, attrs, hint) {
  const input = h("input", { required: true, ...attrs });
  return h("label", { class: "field" }, h("span", {}, label), input, hint ? h("small", { class: "muted" }, hint) : null);
}

export function errorBox() {
  return h("div", { class: "form-error", role: "alert", hidden: true });
}

/** The refusal in the player's language, with what it names (the wait, a ban's end). */
export function showError(box, exc) {
  clear(box);
  box.hidden = false;
  box.appendChild(h("p", {}, exc.message || String(exc)));
  if (exc.code === "too_many_attempts" && exc.retryAfter) box.appendChild(h("p", {}, t("acct.wait", { n: exc.retryAfter })));
  if (exc.code === "banned") box.appendChild(banDetails(exc.params || {}));
  box.dataset.code = exc.code || "";
}

function banDetails({ until, reason }) {
  return h(
    "div",
    { class: "ban", id: "ban-details" },
    until ? h("p", { id: "ban-until" }, t("acct.banned_until", { d: when(until) })) : null,
    reason ? h("p", { id: "ban-reason" }, t("acct.banned_reason", { r: reason })) : null,
  );
}

/** Run `work` for a form: its button held while the request is out, a refusal shown. */
function submitting(form, errors, work) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = form.querySelector("button[type=submit]");
    errors.hidden = true;
    if (button) button.disabled = true;
    try {
      await work();
    } catch (exc) {
      showError(errors, exc);
    } finally {
      if (button) button.disabled = false;
    }
  });
  return form;
}

function value(form, name) {
  return form.querySelector(`[name=${name}]`).value;
}

function links(...items) {
  return h("p", { class: "account-links" }, items.map(([href, key, id]) => h("a", { href, id }, t(key))));
}

function passwordFields(first = "acct.password") {
  return [
    field(t(first), { type: "password", name: "password", autocomplete: "new-password", minlength: 8 }, t("acct.password_hint")),
    field(t("acct.password2"), { type: "password", name: "password2", autocomplete: "new-password" }),
  ];
}

function samePasswords(form) {
  if (value(form, "password") !== value(form, "password2")) {
    throw new Error(t("acct.mismatch"));
  }
}

// ---------------------------------------------------------------- the views

export async function showAccount(main, [sub], who) {
  const box = h("section", { class: "account", id: "account" });
  main.appendChild(box);
  const view = VIEWS[sub || "home"];
  if (!view) {
    location.hash = "#/account";
    return;
  }
  await view(box, who);
}

const VIEWS = {
  home: showHome,
  signup: (box, who) => signUpView(box, who),
  signin: signInView,
  recover: recoverView,
  ended: endedView,
};

async function showHome(box, who) {
  if (!who) {
    signInView(box, who);
    return;
  }
  const mine = await get("/api/accounts/me");
  keep({ player: mine.player, login: mine.login });
  showEntry();
  if (mine.guest) signUpView(box, who);
  else overview(box, mine);
}

function signUpView(box, who) {
  const guest = !!who && !login();
  const claim = h("input", { type: "checkbox", id: "signup-claim", checked: guest });
  const nameField = field(t("acct.display_name"), { name: "name", maxlength: 40, autocomplete: "nickname", required: false });
  const errors = errorBox();
  const form = h(
    "form",
    { class: "panel account-form", id: "signup-form" },
    h("h1", {}, t("acct.signup_title")),
    h("p", {}, t("acct.signup_text")),
    guest ? h("p", { class: "muted" }, t("acct.guest_note")) : null,
    field(t("acct.login"), { name: "login", autocomplete: "username", minlength: 3, maxlength: 32, autocapitalize: "none" }, t("acct.login_hint")),
    passwordFields(),
    guest ? h("label", { class: "pref" }, claim, h("span", {}, t("acct.claim", { name: playerName() }))) : null,
    nameField,
    errors,
    h("button", { type: "submit", class: "primary", id: "signup-go" }, t("acct.signup_go")),
    links(["#/account/signin", "acct.have", "signup-to-signin"], ["#/account/recover", "acct.lost", "signup-to-recover"]),
  );
  const claiming = () => guest && claim.checked;
  const shown = () => (nameField.hidden = claiming());
  claim.addEventListener("change", shown);
  shown();
  submitting(form, errors, async () => {
    samePasswords(form);
    const body = { login: value(form, "login").trim(), password: value(form, "password") };
    const name = value(form, "name").trim();
    if (!claiming() && name) body.name = name;
    const before = token();
    const answer = await call("POST", "/api/accounts", body, { anonymous: !claiming() });
    keep(answer);
    if (!claiming()) await leave(before, answer.token);
    showEntry();
    showCodes(box, answer.codes || [], () => {
      toast(t("acct.signed_up", { login: answer.login }));
      location.hash = "#/";
    });
  });
  clear(box).appendChild(form);
}

function signInView(box, who) {
  const errors = errorBox();
  const guest = !!who && !login();
  const form = h(
    "form",
    { class: "panel account-form", id: "signin-form" },
    h("h1", {}, t("acct.signin_title")),
    h("p", {}, t("acct.signin_text")),
    guest ? h("p", { class: "note" }, t("acct.signin_guest", { name: playerName() })) : null,
    field(t("acct.login"), { name: "login", autocomplete: "username", autocapitalize: "none" }),
    field(t("acct.password"), { type: "password", name: "password", autocomplete: "current-password" }),
    errors,
    h("button", { type: "submit", class: "primary", id: "signin-go" }, t("acct.signin_go")),
    parts.signIn.map((fn) => fn()),
    links(["#/account/signup", "acct.no_account", "signin-to-signup"], ["#/account/recover", "acct.lost", "signin-to-recover"]),
  );
  submitting(form, errors, async () => {
    const body = { login: value(form, "login").trim(), password: value(form, "password") };
    const before = token();
    const answer = await call("POST", "/api/sessions", body, { anonymous: true });
    await welcome(answer, before, body.login);
  });
  clear(box).appendChild(form);
}

function recoverView(box) {
  const errors = errorBox();
  const form = h(
    "form",
    { class: "panel account-form", id: "recover-form" },
    h("h1", {}, t("acct.recover_title")),
    h("p", {}, t("acct.recover_text")),
    field(t("acct.login"), { name: "login", autocomplete: "username", autocapitalize: "none" }),
    field(t("acct.code"), { name: "code", autocomplete: "one-time-code", autocapitalize: "none", spellcheck: "false" }),
    passwordFields("acct.new_password"),
    errors,
    h("button", { type: "submit", class: "primary", id: "recover-go" }, t("acct.recover_go")),
    links(["#/account/signin", "acct.signin_title", "recover-to-signin"]),
  );
  submitting(form, errors, async () => {
    samePasswords(form);
    const body = { login: value(form, "login").trim(), code: value(form, "code").trim(), password: value(form, "password") };
    const before = token();
    const answer = await call("POST", "/api/accounts/recover", body, { anonymous: true });
    await signedIn(answer, body.login);
    await leave(before, answer.token);
    sessionStorage.removeItem(ENDED_KEY);
    showEntry();
    toast(t("acct.recovered"));
    location.hash = "#/";
  });
  clear(box).appendChild(form);
}

/** A sign-in's answer (a password's, a passkey's) on this device, over the session
 * `before`: keep it, end `before`, and go to the lobby. */
export async function welcome(answer, before, typed = "") {
  await signedIn(answer, typed);
  await leave(before, answer.token);
  sessionStorage.removeItem(ENDED_KEY);
  showEntry();
  toast(t("acct.signed_in", { login: login() }));
  location.hash = "#/";
}

/** Keep a sign-in's token, then the account as the server spells its login (the player
 * may have typed it in other case). */
async function signedIn(answer, typed) {
  keep({ ...answer, login: answer.login || typed });
  try {
    const mine = await get("/api/accounts/me");
    keep({ player: mine.player, login: mine.login });
  } catch {
    // the login as typed stays until the account page is opened
  }
}

/** This device signed in anew over `before` (a guest, another account): end that session,
 * so that it is not left open with nobody holding its token. Best effort. */
async function leave(before, now) {
  if (!before || before === now) return;
  const opts = { bearer: before };
  try {
    const mine = await call("GET", "/api/accounts/me", undefined, opts);
    await call("DELETE", `/api/sessions/${mine.session}`, undefined, opts);
  } catch {
    // already ended (a recovery ends them all), or the network: nothing more to do
  }
}

function endedView(box) {
  const why = sessionStorage.getItem(ENDED_KEY) || "session_ended";
  const banned = why === "banned";
  const expired = why === "token_expired";
  const key = banned ? "banned" : expired ? "expired" : "ended";
  clear(box).appendChild(
    h(
      "div",
      { class: "panel account-form ended", id: "account-ended", dataset: { why: key } },
      h("h1", {}, t(`acct.${key}_title`)),
      h("p", {}, t(`acct.${key}_text`)),
      h(
        "div",
        { class: "account-actions" },
        h("a", { class: "button primary", href: "#/account/signin", id: "ended-signin" }, t("acct.signin_title")),
        h("a", { class: "button", href: "#/", id: "ended-guest" }, t("acct.as_guest")),
      ),
    ),
  );
}

/** The ten recovery codes, shown this once: copy them, then "I have saved them". */
function showCodes(box, codes, done) {
  const list = h("ol", { class: "recovery-codes", id: "recovery-codes" }, codes.map((c) => h("li", {}, h("code", {}, c))));
  const copy = h(
    "button",
    {
      type: "button",
      id: "codes-copy",
      onclick: async () => {
        const text = codes.join("\n");
        try {
          await navigator.clipboard.writeText(text);
        } catch {
          const range = document.createRange(); // no clipboard (plain http): select them
          range.selectNodeContents(list);
          getSelection().removeAllRanges();
          getSelection().addRange(range);
          document.execCommand("copy");
        }
        copy.textContent = t("acct.copied");
      },
    },
    t("acct.copy"),
  );
  clear(box).appendChild(
    h(
      "div",
      { class: "panel account-form", id: "codes" },
      h("h1", {}, t("acct.codes_title")),
      h("p", { class: "note" }, t("acct.codes_text")),
      list,
      h(
        "div",
        { class: "account-actions" },
        copy,
        h("button", { type: "button", class: "primary", id: "codes-saved", onclick: done }, t("acct.saved")),
      ),
    ),
  );
}

// ---------------------------------------------------------------- a signed-in account

function overview(box, mine) {
  const sessions = h("ul", { class: "sessions", id: "sessions" });
  clear(box).append(
    h(
      "div",
      { class: "panel", id: "account-overview" },
      h("h1", {}, t("acct.title")),
      h("p", { id: "account-login" }, t("acct.login_is", { login: mine.login })),
      h("p", {}, t("acct.name_is", { name: mine.player.name })),
      h(
        "div",
        { class: "account-actions" },
        h("span", { id: "codes-left", dataset: { n: mine.codes_left } }, t("acct.codes_left", { n: mine.codes_left })),
        h("button", { type: "button", id: "new-codes", onclick: () => newCodes(box) }, t("acct.new_codes")),
      ),
    ),
    passwordForm(),
    ...parts.account.map((fn) => fn(mine)).filter(Boolean),
    h(
      "div",
      { class: "panel" },
      h("h2", {}, t("acct.sessions")),
      sessions,
      h(
        "div",
        { class: "account-actions" },
        h("button", { type: "button", id: "sign-out-everywhere", onclick: () => everywhere(sessions) }, t("acct.everywhere")),
        h("button", { type: "button", class: "primary danger", id: "sign-out", onclick: () => signOut(mine.session) }, t("acct.signout")),
      ),
    ),
  );
  listSessions(sessions);
}

async function newCodes(box) {
  if (!confirm(t("acct.new_codes_confirm"))) return;
  try {
    const { codes } = await post("/api/accounts/me/codes");
    showCodes(box, codes, () => showHome(box, true));
  } catch (exc) {
    toast(t("err.generic", { m: exc.message }), "error");
  }
}

function passwordForm() {
  const errors = errorBox();
  const form = h(
    "form",
    { class: "panel account-form", id: "password-form" },
    h("h2", {}, t("acct.change_title")),
    field(t("acct.old_password"), { type: "password", name: "old", autocomplete: "current-password" }),
    passwordFields("acct.new_password"),
    errors,
    h("button", { type: "submit", id: "password-go" }, t("acct.change_go")),
  );
  return submitting(form, errors, async () => {
    samePasswords(form);
    const answer = await post("/api/accounts/me/password", { old: value(form, "old"), new: value(form, "password") });
    form.reset();
    toast(t("acct.changed", { n: answer.ended.length }));
  });
}

async function listSessions(list) {
  let found;
  try {
    found = (await get("/api/sessions")).sessions;
  } catch (exc) {
    toast(t("err.generic", { m: exc.message }), "error");
    return;
  }
  clear(list);
  for (const s of found) {
    const end = h(
      "button",
      {
        type: "button",
        class: "small-button",
        dataset: { endSession: s.id },
        onclick: async () => {
          if (s.current) return signOut(s.id);
          try {
            await del(`/api/sessions/${s.id}`);
          } catch (exc) {
            toast(t("err.generic", { m: exc.message }), "error");
          }
          listSessions(list);
        },
      },
      s.current ? t("acct.signout") : t("acct.end"),
    );
    list.appendChild(
      h(
        "li",
        { class: s.current ? "current" : "", dataset: { session: s.id } },
        h(
          "div",
          { class: "session-what" },
          h("strong", { class: "device" }, s.device),
          s.current ? h("span", { class: "badge" }, t("acct.this_device")) : null,
          h("small", { class: "muted" }, t("acct.since", { d: when(s.created) }), " · ", t("acct.seen", { d: when(s.last_seen) })),
        ),
        end,
      ),
    );
  }
  list.dataset.count = String(found.length);
}

async function everywhere(list) {
  try {
    const answer = await del("/api/sessions");
    toast(t("acct.everywhere_done", { n: answer.ended.length }));
  } catch (exc) {
    toast(t("err.generic", { m: exc.message }), "error");
  }
  listSessions(list);
}

/** Sign this device out: its session ends on the server and the token is forgotten. */
async function signOut(session) {
  try {
    await del(`/api/sessions/${session}`);
  } catch (exc) {
    if (exc.status !== 401) {
      toast(t("err.generic", { m: exc.message }), "error");
      return;
    }
  }
  forget();
  showEntry();
  toast(t("acct.signed_out"));
  location.hash = "#/";
}
