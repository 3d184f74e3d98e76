// 复式赛 (duplicate events): the list of events with a form for a club's admins to make
// one, and an event's page - its entrants, entering and withdrawing, adding bot entrants
// and starting (its makers), the way to one's table, the standings (live while it runs,
// final after it: each entrant's score, mean per deal and 95% interval) and its deals,
// each opening to the side-by-side replay of two tables (js/event-compare.js) once every
// table has played it.
//   #/events            the list       #/event/ID     an event

import { get, post, del } from "./api.js";
import { h, toast } from "./dom.js";
import { nameOf, t } from "./i18n.js";
import { findVariant, loadCatalog } from "./catalog.js";
import "./event-strings.js";

const REFRESH_MS = 3000;
const LEVELS = ["hard", "normal", "easy"];

/** A number of points as shown: signed, two decimals. */
function pts(x) {
  const v = Number(x);
  return `${v > 0 ? "+" : v < 0 ? "−" : ""}${Math.abs(v).toFixed(2)}`;
}

function statusChip(status) {
  return h("span", { class: `chip ev-status ev-${status}`, dataset: { status } }, t(`ev.status.${status}`));
}

/** An entrant's name as shown: a bot's level in the reader's words, a team's players. */
export function entrantName(x) {
  if (x.bot) {
    const extra = x.name.match(/ (\d+)$/);
    return `${t("ev.bot", { level: t(`ev.level.${x.bot}`) })}${extra ? ` ${extra[1]}` : ""}`;
  }
  return (x.member_names && x.member_names.length ? x.member_names : [x.name]).join(" · ");
}

async function gameName(code) {
  const v = await findVariant(code).catch(() => null);
  return v ? nameOf(v) : code;
}

// ------------------------------------------------------------------ the list

export async function showEvents(main, _match, who) {
  let found;
  try {
    found = await get("/api/events");
  } catch (exc) {
    toast(t("err.generic", { m: exc.message }), "error");
    return;
  }
  const clubs = await get("/api/clubs").then((x) => x.clubs || []).catch(() => []);
  const running = clubs.filter((c) => c.role === "owner" || c.role === "admin");
  const names = await Promise.all(found.events.map((ev) => gameName(ev.code)));
  main.appendChild(
    h(
      "div",
      { class: "events" },
      h("a", { href: "#/", class: "back" }, `← ${t("room.lobby")}`),
      h(
        "section",
        { class: "panel", id: "events" },
        h("h1", {}, t("ev.title")),
        h("p", { class: "muted small" }, t("ev.about")),
        found.events.length
          ? h(
              "ul",
              { class: "ev-list", id: "event-list" },
              found.events.map((ev, i) =>
                h(
                  "li",
                  { dataset: { event: ev.id, status: ev.status } },
                  h("a", { href: `#/event/${ev.id}`, class: "ev-link" }, ev.name),
                  statusChip(ev.status),
                  h("span", { class: "muted small" }, `${names[i]} · ${t("ev.entrants_n", { n: ev.entrants })}`),
                ),
              ),
            )
          : h("p", { class: "muted", id: "events-empty" }, t("ev.none")),
      ),
      running.length ? await newEventForm(running) : h("p", { class: "muted small" }, t("ev.new_note")),
    ),
  );
  return null;
}

async function newEventForm(clubs) {
  const variants = await loadCatalog().catch(() => []);
  const name = h("input", { id: "ev-name", name: "name", maxlength: 200 });
  const game = h(
    "select",
    { id: "ev-game", name: "code" },
    variants.map((v) => h("option", { value: v.code }, `${nameOf(v)} (${v.code})`)),
  );
  const deals = h("input", { id: "ev-deals", name: "deals", type: "number", min: 2, max: 64, value: 8 });
  const time = h("input", { id: "ev-time", name: "time", type: "number", min: 0, max: 3600, placeholder: t("ev.time_default") });
  const club = h("select", { id: "ev-club", name: "club" }, clubs.map((c) => h("option", { value: c.id }, c.name)));
  const form = h(
    "form",
    {
      class: "panel ev-new",
      id: "event-new",
      onsubmit: async (ev) => {
        ev.preventDefault();
        const body = { name: name.value.trim(), code: game.value, deals: Number(deals.value), club: Number(club.value) };
        if (time.value !== "") body.time_limit = Number(time.value);
        try {
          const made = await post("/api/events", body);
          toast(t("ev.made"));
          location.hash = `#/event/${made.id}`;
        } catch (exc) {
          toast(t("err.generic", { m: exc.message }), "error");
        }
      },
    },
    h("h2", {}, t("ev.new")),
    h("label", {}, t("ev.name"), name),
    h("label", {}, t("ev.game"), game),
    h("div", { class: "ev-row" }, h("label", {}, t("ev.deals"), deals), h("label", {}, t("ev.time"), time)),
    h("label", {}, t("ev.club"), club),
    h("button", { type: "submit", class: "primary", id: "ev-make" }, t("ev.make")),
  );
  return form;
}

// ------------------------------------------------------------------ one event

export async function showEvent(main, [id], who) {
  const box = h("div", { class: "event", id: "event", dataset: { event: id } });
  main.appendChild(box);
  let timer = null;
  let stopped = false;
  const draw = async () => {
    let ev;
    try {
      ev = await get(`/api/events/${id}`);
    } catch (exc) {
      toast(t("err.generic", { m: exc.message }), "error");
      return;
    }
    if (stopped) return;
    const game = await gameName(ev.code);
    box.replaceChildren(...eventParts(ev, game, who, draw));
    box.dataset.status = ev.status;
    if (ev.status === "running" && !stopped) timer = setTimeout(draw, REFRESH_MS);
  };
  await draw();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

function eventParts(ev, game, who, redraw) {
  const act = (call, done) => async () => {
    try {
      await call();
      if (done) toast(done);
      await redraw();
    } catch (exc) {
      toast(t("err.generic", { m: exc.message }), "error");
    }
  };
  const teamSize = ev.sides[0].length;
  const open = ev.status === "open";
  const mine = ev.me.entrant;
  const time = ev.time_limit === null ? t("ev.time_default") : `${ev.time_limit} s`;
  const head = h(
    "section",
    { class: "panel ev-head" },
    h("a", { href: "#/events", class: "back" }, `← ${t("ev.back")}`),
    h("h1", {}, ev.name, " ", statusChip(ev.status)),
    h("p", { class: "muted", id: "event-facts" }, t("ev.facts", { game, deals: ev.deals, time })),
    teamSize > 1 ? h("p", { class: "muted small" }, t("ev.team_of", { n: teamSize })) : null,
    ev.me.table ? h("a", { class: "button primary", id: "event-my-table", href: `#/room/${ev.me.table}` }, t("ev.my_table")) : null,
    ev.movement === "movement" ? h("p", { class: "muted small", id: "event-movement" }, t("ev.movement", { tables: ev.tables.filter((x) => x.round === 0).length, rounds: new Set(ev.tables.map((x) => x.round)).size })) : null,
    ev.standings.ended_early ? h("p", { class: "muted", id: "event-ended-early" }, t("ev.ended_early")) : null,
    ev.status === "cancelled" ? h("p", { class: "muted", id: "event-cancelled" }, t("ev.cancelled_note")) : null,
  );
  const buttons = [];
  if (open && mine === null) buttons.push(h("button", { class: "primary", id: "event-join", onclick: act(() => post(`/api/events/${ev.id}/join`, {}), t("ev.joined")) }, t("ev.join")));
  if (open && mine !== null) buttons.push(h("button", { id: "event-leave", onclick: act(() => del(`/api/events/${ev.id}/join`), t("ev.left")) }, t("ev.leave")));
  if (open && ev.me.runs) {
    const level = h("select", { id: "event-bot-level" }, LEVELS.map((l) => h("option", { value: l }, t(`ev.level.${l}`))));
    buttons.push(
      h(
        "span",
        { class: "ev-bot" },
        level,
        h("button", { id: "event-add-bot", onclick: act(() => post(`/api/events/${ev.id}/entrants`, { bot: level.value }), t("ev.added")) }, t("ev.add_bot")),
      ),
    );
    buttons.push(h("button", { class: "primary", id: "event-start", onclick: act(() => post(`/api/events/${ev.id}/start`), t("ev.started")) }, t("ev.start")));
  }
  const asked = (question, call, done) => {
    const run = act(call, done);
    return () => (window.confirm(question) ? run() : undefined);
  };
  if ((open || ev.status === "running") && ev.me.runs) {
    buttons.push(h("button", { class: "primary danger", id: "event-cancel", onclick: asked(t("ev.cancel_confirm"), () => post(`/api/events/${ev.id}/cancel`, {}), t("ev.cancelled")) }, t("ev.cancel")));
  }
  if (ev.status === "running" && ev.me.runs) {
    buttons.push(h("button", { id: "event-end", onclick: asked(t("ev.end_confirm"), () => post(`/api/events/${ev.id}/end`, {}), t("ev.ended")) }, t("ev.end")));
  }
  const entrants = h(
    "section",
    { class: "panel ev-entrants" },
    h("h2", {}, t("ev.entrants")),
    ev.entrants.length
      ? h(
          "ul",
          { id: "event-entrants" },
          ev.entrants.map((x) =>
            h(
              "li",
              { class: x.id === mine ? "me" : "", dataset: { entrant: x.id, bot: x.bot || "" } },
              h("span", {}, entrantName(x)),
              open && mine === null && !x.bot && teamSize > 1 && x.members.length < teamSize
                ? h("button", { class: "small", onclick: act(() => post(`/api/events/${ev.id}/join`, { entrant: x.id }), t("ev.joined")) }, t("ev.join_team"))
                : null,
            ),
          ),
        )
      : h("p", { class: "muted" }, t("ev.no_entrants")),
    buttons.length ? h("div", { class: "buttons ev-actions" }, buttons) : null,
  );
  return [head, entrants, standingsPanel(ev), dealsPanel(ev)];
}

function standingsPanel(ev) {
  if (ev.status === "open") return h("span");
  const board = ev.standings;
  const byId = new Map(ev.entrants.map((x) => [x.id, x]));
  const rows = (board.standings || []).filter((x) => x.deals > 0);
  return h(
    "section",
    { class: "panel ev-standings", id: "event-standings", dataset: { final: board.final ? "1" : "0" } },
    h("h2", {}, board.final ? t("ev.final") : t("ev.live")),
    rows.length
      ? h(
          "div",
          { class: "ev-scroll" },
          h(
            "table",
            {},
            h("thead", {}, h("tr", {}, h("th", { class: "num" }, t("ev.rank")), h("th", {}, t("ev.entrant")), h("th", { class: "num" }, t("ev.score")), h("th", { class: "num" }, t("ev.mean")), h("th", { class: "num" }, t("ev.ci")), h("th", { class: "num" }, t("ev.deals_n")))),
            h(
              "tbody",
              {},
              rows.map((x) =>
                h(
                  "tr",
                  { class: x.entrant === ev.me.entrant ? "me" : "", dataset: { entrant: x.entrant, mean: x.mean, score: x.score } },
                  h("td", { class: "num" }, String(x.rank)),
                  h("td", {}, byId.has(x.entrant) ? entrantName(byId.get(x.entrant)) : x.name),
                  h("td", { class: "num" }, pts(x.score)),
                  h("td", { class: "num" }, pts(x.mean)),
                  h("td", { class: "num ev-ci" }, `${pts(x.ci95[0])} … ${pts(x.ci95[1])}`),
                  h("td", { class: "num" }, String(x.deals)),
                ),
              ),
            ),
          ),
        )
      : h("p", { class: "muted", id: "event-no-standings" }, t("ev.no_standings")),
    h("p", { class: "muted small" }, t("ev.standings_about")),
  );
}

function dealsPanel(ev) {
  if (ev.status === "open") return h("span");
  const number = new Map(ev.tables.map((x) => [x.table, x.table + 1]));
  return h(
    "section",
    { class: "panel ev-deals", id: "event-deals" },
    h("h2", {}, t("ev.deals_title")),
    h(
      "ol",
      {},
      ev.boards.map((d) => {
        const played = d.tables;
        const links = d.complete && played.length > 1
          ? played.slice(1).map((other) =>
              h(
                "a",
                { class: "button small ev-compare", href: `#/event/${ev.id}/deal/${d.deal}/${played[0].game}/${other.game}`, dataset: { a: played[0].game, b: other.game } },
                t("ev.compare", { a: number.get(played[0].table), b: number.get(other.table) }),
              ),
            )
          : [h("span", { class: "muted small" }, t("ev.deal_wait"))];
        return h(
          "li",
          { dataset: { deal: d.deal, complete: d.complete ? "1" : "0" } },
          h("strong", {}, t("ev.deal", { n: d.deal + 1 })),
          " ",
          h("span", { class: "muted small" }, t("ev.deal_tables", { n: played.length })),
          h("div", { class: "ev-links" }, links),
        );
      }),
    ),
  );
}
