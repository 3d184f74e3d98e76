// REST calls to the paiju server, with the player's bearer token kept in localStorage.

import { lang } from "./i18n.js";

const TOKEN_KEY = "paiju.token";
const NAME_KEY = "paiju.name";
const LOGIN_KEY = "paiju.login"; // the account's login name (none: a guest)
const MARK_KEY = "paiju.mark"; // this browser's own random mark: made once, never forgotten

export class ApiError extends Error {
  constructor(status, code, message, params = {}, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params; // what the refusal names (a ban's until and reason)
    this.retryAfter = retryAfter; // seconds to wait (429, 503), when the server says
  }
}

const endedListeners = new Set();

/** Be told when this device's session ends under it (signed out elsewhere, a ban):
 * fn(why) with why "session_ended", "token_expired" or "banned". */
export function onEnded(fn) {
  endedListeners.add(fn);
  return () => endedListeners.delete(fn);
}

/** This device's session has ended (a 401 for its token, a socket closed 4401/4403):
 * forget the token and tell the listeners (the account page says why). */
export function ended(why) {
  forget();
  for (const fn of endedListeners) fn(why);
}

export function token() {
  return localStorage.getItem(TOKEN_KEY);
}

export function playerName() {
  return localStorage.getItem(NAME_KEY) || "";
}

export function login() {
  return localStorage.getItem(LOGIN_KEY) || "";
}

export function forget() {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(NAME_KEY);
  localStorage.removeItem(LOGIN_KEY);
}

/** Keep a sign-in's answer: its token (a claim answers none: the device keeps its own),
 * the player's name and the login. */
export function keep({ token: tok, player, login: name }) {
  if (tok) localStorage.setItem(TOKEN_KEY, tok);
  if (player && player.name) localStorage.setItem(NAME_KEY, player.name);
  if (name) localStorage.setItem(LOGIN_KEY, name);
  else localStorage.removeItem(LOGIN_KEY);
}

/** This browser's mark (16 random hex digits, made on first use and kept through sign-outs). */
export function browserMark() {
  let mark = localStorage.getItem(MARK_KEY);
  if (!mark) {
    const bytes = crypto.getRandomValues(new Uint8Array(8));
    mark = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(MARK_KEY, mark);
  }
  return mark;
}

/** A REST call; `anonymous`: without this device's token (a new account, a sign-in);
 * `bearer`: with that token instead (the session a sign-in replaces). */
export async function call(method, path, body, { anonymous = false, bearer = null } = {}) {
  const headers = { Accept: "application/json" };
  const tok = bearer || (anonymous ? null : token());
  if (tok) headers.Authorization = `Bearer ${tok}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let answer;
  try {
    answer = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (exc) {
    throw new ApiError(0, "network", String(exc));
  }
  let data = null;
  try {
    data = await answer.json();
  } catch {
    data = null;
  }
  if (!answer.ok) {
    const err = (data && data.error) || {};
    // the server's refusal in the player's language (reason + params rendered), else its message
    let message = (err.text && err.text[lang()]) || err.message;
    if (!message && data && Array.isArray(data.detail)) {
      message = data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
    }
    const wait = Number(answer.headers.get("Retry-After")) || null;
    const code = err.code || String(answer.status);
    // the token this device was signed in with no longer works: signed out elsewhere
    const mine = tok && !bearer;
    if (mine && answer.status === 401 && (code === "bad_token" || code === "token_expired")) ended(code);
    throw new ApiError(answer.status, code, message || answer.statusText, err.params || {}, wait);
  }
  return data;
}

export const get = (path) => call("GET", path);
export const post = (path, body = {}) => call("POST", path, body);
export const del = (path) => call("DELETE", path);

/** Register a display name (a guest); keeps the token (shown once by the server). */
export async function register(name) {
  const answer = await post("/api/players", { name, mark: browserMark() });
  localStorage.setItem(TOKEN_KEY, answer.token);
  localStorage.setItem(NAME_KEY, answer.name);
  localStorage.removeItem(LOGIN_KEY);
  return answer;
}

/** The signed-in player, or null (a stale token is forgotten). */
export async function me() {
  if (!token()) return null;
  try {
    const who = await get("/api/players/me");
    localStorage.setItem(NAME_KEY, who.name);
    return who;
  } catch (exc) {
    if (exc.status === 401) {
      forget(); // (call has told the account page why)
      return null;
    }
    throw exc;
  }
}

export function socketUrl(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // a path on this server, or a room's own socket URL on a cluster node (RoomInfo.ws)
  const base = /^wss?:\/\//.test(path) ? path : `${proto}//${location.host}${path}`;
  return base; // the token goes in the socket's first message (hello), never in a URL
}

/** The socket's first message: who is connecting. */
export function hello() {
  return JSON.stringify({ type: "hello", token: token() || "" });
}
