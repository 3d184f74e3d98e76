// Passkeys (WebAuthn) in the browser (docs/protocol.md, "Passkeys"), drawn into account.js's
// screens through its `parts`: "sign in with a passkey" under the sign-in form (no login
// typed: the passkeys are discoverable), and on a signed-in account's page its passkeys,
// each with its name and a remove button, and a form that adds one under a name.
// Each ceremony is two calls: the server's options, read by the browser's own
// PublicKeyCredential.parse…OptionsFromJSON, then the credential's toJSON() with the
// ceremony's id. A browser without WebAuthn (or without those helpers) shows none of it;
// password sign-in works as before.

import { call, del, get, post, token } from "./api.js";
import { errorBox, parts, showError, welcome, when } from "./account.js";
import { clear, h, toast } from "./dom.js";
import { t } from "./i18n.js";

/** Whether this browser can make and use passkeys the way this module asks it to, on a
 * page opened by a host name (an IP address is no relying party, even 127.0.0.1). */
export function offered() {
  const pkc = window.PublicKeyCredential;
  const ip = /^[\d.]+$|^\[/.test(location.hostname);
  return !!(
    !ip &&
    pkc &&
    navigator.credentials &&
    typeof pkc.parseCreationOptionsFromJSON === "function" &&
    typeof pkc.parseRequestOptionsFromJSON === "function"
  );
}

/** The browser's refusal (cancelled, timed out, a passkey this device holds already) in
 * the player's language; the server's refusals (ApiError) say their own words. */
function readable(exc) {
  if (exc instanceof DOMException) {
    if (exc.name === "NotAllowedError" || exc.name === "AbortError") return new Error(t("pk.cancelled"));
    if (exc.name === "InvalidStateError") return new Error(t("pk.exists"));
    return new Error(t("pk.failed", { m: exc.message || exc.name }));
  }
  return exc;
}

// ---------------------------------------------------------------- signing in

async function signInWithPasskey() {
  const before = token();
  const { ceremony, options } = await call("POST", "/api/passkeys/signin/options", {}, { anonymous: true });
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options);
  const credential = await navigator.credentials.get({ publicKey });
  const answer = await call("POST", "/api/passkeys/signin", { ceremony, credential: credential.toJSON() }, { anonymous: true });
  await welcome(answer, before);
}

function signInPart() {
  const errors = errorBox();
  errors.id = "passkey-signin-error";
  const button = h("button", { type: "button", id: "passkey-signin", class: "passkey-go" }, t("pk.signin"));
  button.addEventListener("click", async () => {
    errors.hidden = true;
    button.disabled = true;
    try {
      await signInWithPasskey();
    } catch (exc) {
      showError(errors, readable(exc));
    } finally {
      button.disabled = false;
    }
  });
  return h(
    "div",
    { class: "account-form passkey-signin", id: "passkey-signin-part" },
    h("p", { class: "muted" }, t("pk.or")),
    button,
    h("small", { class: "muted" }, t("pk.signin_hint")),
    errors,
  );
}

// ---------------------------------------------------------------- a signed-in account

async function listPasskeys(list) {
  let found;
  try {
    found = (await get("/api/passkeys")).passkeys;
  } catch (exc) {
    toast(t("err.generic", { m: exc.message }), "error");
    return;
  }
  clear(list);
  if (!found.length) list.appendChild(h("li", { class: "empty muted" }, t("pk.none")));
  for (const key of found) {
    const used = key.last_used ? t("pk.used", { d: when(key.last_used) }) : t("pk.unused");
    list.appendChild(
      h(
        "li",
        { dataset: { passkey: key.id } },
        h(
          "div",
          { class: "session-what" },
          h("strong", { class: "passkey-name" }, key.name),
          h("small", { class: "muted" }, t("pk.created", { d: when(key.created) }), " · ", used),
        ),
        h(
          "button",
          { type: "button", class: "small-button", dataset: { removePasskey: key.id }, onclick: () => remove(list, key) },
          t("pk.remove"),
        ),
      ),
    );
  }
  list.dataset.count = String(found.length);
}

async function remove(list, key) {
  if (!confirm(t("pk.remove_confirm", { name: key.name }))) return;
  try {
    await del(`/api/passkeys/${key.id}`);
    toast(t("pk.removed", { name: key.name }));
  } catch (exc) {
    toast(t("err.generic", { m: exc.message }), "error");
  }
  listPasskeys(list);
}

async function addPasskey(name) {
  const { ceremony, options } = await post("/api/passkeys/register/options");
  const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options);
  const credential = await navigator.credentials.create({ publicKey });
  return post("/api/passkeys/register", { ceremony, credential: credential.toJSON(), name });
}

function accountPart() {
  const list = h("ul", { class: "sessions passkeys", id: "passkey-list" });
  const input = h("input", { name: "passkey-name", required: true, maxlength: 120, placeholder: t("pk.name_hint") });
  const errors = errorBox();
  const go = h("button", { type: "submit", id: "passkey-add" }, t("pk.add"));
  const form = h(
    "form",
    { class: "account-form", id: "passkey-add-form" },
    h("label", { class: "field" }, h("span", {}, t("pk.name")), input),
    errors,
    go,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    errors.hidden = true;
    go.disabled = true;
    try {
      const added = await addPasskey(input.value.trim());
      form.reset();
      toast(t("pk.added", { name: added.name }));
      await listPasskeys(list);
    } catch (exc) {
      showError(errors, readable(exc));
    } finally {
      go.disabled = false;
    }
  });
  listPasskeys(list);
  return h("div", { class: "panel", id: "passkeys" }, h("h2", {}, t("pk.title")), h("p", { class: "muted" }, t("pk.text")), list, form);
}

if (offered()) {
  parts.signIn.push(signInPart);
  parts.account.push(accountPart);
}
