// The client's entry point: the top bar, the language switch and a hash router.
//   #/              lobby            #/rules/CODE   a game's rule page
//   #/room/ID       a table          #/replay/ID    a finished game, step by step
//   #/ledger        my 积分 history   #/ratings/CODE[/club/ID]   a game's leaderboard
//   #/account[/…]   sign up, sign in, recovery, sessions (account.js; open without a player)
//   #/clubs         my 亲友圈         #/club/ID[/TAB] a club (js/clubs.js)
//   #/summary/ID    a finished room's 总结算 and result card (js/club-result.js)
//   #/learn/FAMILY  a family's 新手教程 (js/tutorial.js)
//   #/events        复式赛 (js/events.js)   #/event/ID   an event
//   #/event/ID/deal/D/A/B   a deal at two tables side by side (js/event-compare.js)

import { me, playerName, register } from "./api.js";
import { accountLinks, showEntry } from "./account.js";
import "./passkeys.js"; // passkeys on the account screens, where the browser offers them
import { clear, h, toast } from "./dom.js";
import { applyStatic, lang, onLang, setLang, t } from "./i18n.js";

const routes = [
  [/^#?\/?$/, () => import("./lobby.js").then((m) => m.showLobby)],
  [/^#\/rules\/(.+)$/, () => import("./lobby.js").then((m) => m.showRules)],
  // a room redraws itself in the new language (its socket and state stay): not rebuilt
  [/^#\/room\/(\d+)$/, () => import("./room.js").then((m) => m.showRoom), { keepsLanguage: true }],
  [/^#\/replay\/(\d+)$/, () => import("./replay.js").then((m) => m.showReplay)],
  [/^#\/ledger$/, () => import("./ledger.js").then((m) => m.showLedger)],
  [/^#\/ratings\/([^/]+)(?:\/club\/(\d+))?$/, () => import("./ratings.js").then((m) => m.showLeaderboard)],
  [/^#\/account(?:\/(\w+))?$/, () => import("./account.js").then((m) => m.showAccount), { open: true }],
  [/^#\/clubs(?:\/join\/([^/]+))?$/, () => import("./clubs.js").then((m) => m.showClubs)],
  [/^#\/club\/(\d+)(?:\/(\w+))?$/, () => import("./clubs.js").then((m) => m.showClub)],
  [/^#\/summary\/(\d+)$/, () => import("./club-result.js").then((m) => m.showSummary)],
  // 新手教程: played in the browser alone, so open without a player too
  [/^#\/learn\/(\w+)(?:\?(.*))?$/, () => import("./tutorial.js").then((m) => m.showTutorial), { open: true }],
  [/^#\/events$/, () => import("./events.js").then((m) => m.showEvents)],
  [/^#\/event\/(\d+)$/, () => import("./events.js").then((m) => m.showEvent)],
  [/^#\/event\/(\d+)\/deal\/(\d+)\/(\d+)\/(\d+)$/, () => import("./event-compare.js").then((m) => m.showSideBySide)],
];

let cleanup = null;
let routing = 0;
let rerender = true; // whether a language change rebuilds the view (see the routes)

async function route() {
  const mine = ++routing; // a newer route() call supersedes this one
  const main = document.getElementById("app");
  if (cleanup) {
    try {
      cleanup();
    } catch (exc) {
      console.error(exc);
    }
    cleanup = null;
  }
  clear(main);
  const who = await me().catch((exc) => {
    toast(t("err.network", { m: exc.message }), "error");
    return null;
  });
  if (mine !== routing) return;
  clear(main);
  showName();
  const hash = location.hash || "#/";
  for (const [pattern, load, how = {}] of routes) {
    const match = hash.match(pattern);
    if (match && !who && !how.open) {
      showWelcome(main);
      return;
    }
    if (match) {
      rerender = !how.keepsLanguage;
      const view = await load();
      if (mine !== routing) return;
      // Each route draws into its own box: a superseded one is detached by the next clear.
      const box = h("div", { class: "view" });
      clear(main).appendChild(box);
      const done = (await view(box, match.slice(1), who)) || null;
      if (mine === routing) cleanup = done;
      else if (done) done();
      return;
    }
  }
  location.hash = "#/";
}

function showName() {
  const el = document.getElementById("me-name");
  if (el) el.textContent = playerName();
  showEntry();
}

function showWelcome(main) {
  const input = h("input", {
    id: "name-input",
    name: "name",
    maxlength: 40,
    autocomplete: "nickname",
    placeholder: t("welcome.name"),
  });
  const form = h(
    "form",
    {
      class: "panel welcome",
      onsubmit: async (ev) => {
        ev.preventDefault();
        const name = input.value.trim();
        if (!name) {
          toast(t("err.name"), "error");
          return;
        }
        try {
          await register(name);
          route();
        } catch (exc) {
          toast(t("err.generic", { m: exc.message }), "error");
        }
      },
    },
    h("h1", {}, t("welcome.title")),
    h("p", {}, t("welcome.text")),
    h("label", {}, t("welcome.name"), input),
    h("button", { type: "submit", class: "primary", id: "welcome-go" }, t("welcome.go")),
    accountLinks(),
  );
  main.appendChild(form);
  input.focus();
}

document.getElementById("lang-switch").addEventListener("click", () => {
  setLang(lang() === "en" ? "zh" : "en");
});

// Views re-render themselves on a language change when they can (a route's keepsLanguage);
// the others are rebuilt.
onLang(() => {
  if (rerender) route();
});

window.addEventListener("hashchange", () => {
  rerender = true;
  route();
});
document.documentElement.lang = lang();
applyStatic();
route();
