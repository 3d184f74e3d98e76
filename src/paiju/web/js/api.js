// REST calls to the paiju server, with the player's bearer token kept in localStorage.

import { lang } from "./i18n.js";

const TOKEN_KEY = "paiju.token";
const NAME_KEY = "paiju.name";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export function token() {
  return localStorage.getItem(TOKEN_KEY);
}

export function playerName() {
  return localStorage.getItem(NAME_KEY) || "";
}

export function forget() {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(NAME_KEY);
}

export async function call(method, path, body) {
  const headers = { Accept: "application/json" };
  const tok = token();
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
    throw new ApiError(answer.status, err.code || String(answer.status), message || answer.statusText);
  }
  return data;
}

export const get = (path) => call("GET", path);
export const post = (path, body = {}) => call("POST", path, body);

/** Register a display name; keeps the token (shown once by the server). */
export async function register(name) {
  const answer = await post("/api/players", { name });
  localStorage.setItem(TOKEN_KEY, answer.token);
  localStorage.setItem(NAME_KEY, answer.name);
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
      forget();
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
