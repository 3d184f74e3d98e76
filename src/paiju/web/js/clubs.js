// 亲友圈 (clubs): the list of one's clubs (found one, join one by its code or link), the
// club lobby (notice, presets with 快速开始, tables, members online), the members and their
// requests (admins: approve, mute, remove, ban; the owner: name admins, hand over, close),
// the club's 战绩 (ranking by day, week, month or all, CSV) and the finished tables' results
// (js/club-result.js: the 总结算, the 回放码, the card saved as PNG).
//   #/clubs               my clubs          #/clubs/join/CODE   join by a link
//   #/club/ID[/TAB]       a club (TAB: lobby, members, record)

import { call, get, post, token } from "./api.js";
import { clear, h, signed, toast } from "./dom.js";
import { lang, nameOf, t, titleOf } from "./i18n.js";
import { houseOptions, loadCatalog, optionValue } from "./catalog.js";
import { when } from "./record.js";
import { resultPanel, save } from "./club-result.js";
import { tableFor } from "../tables/index.js";
import "./club-strings.js";

const REFRESH_MS = 4000;
const FINISHED_SHOWN = 5;
const RANK = { member: 0, admin: 1, owner: 2 };
const PERIODS = ["day", "week", "month", "all"];

// ------------------------------------------------------------------ the lobby's hooks

/** The lobby's entry to one's clubs. */
export function clubsEntry() {
  return h("a", { class: "button club-entry", id: "clubs-entry", href: "#/clubs" }, t("club.entry"));
}

// ------------------------------------------------------------------ my clubs

export async function showClubs(main, [joinCode]) {
  const listBox = h("div", { class: "club-list", id: "club-list" });
  const note = h("p", { class: "club-note", id: "club-join-note", role: "status" });
  main.appendChild(
    h(
      "div",
      { class: "clubs" },
      h("a", { href: "#/", class: "back" }, `← ${t("club.back_lobby")}`),
      h("section", { class: "panel" }, h("h1", {}, t("club.mine")), listBox),
      h("section", { class: "panel" }, h("h2", {}, t("club.join")), joinForm(note), note),
      h("section", { class: "panel" }, h("h2", {}, t("club.found")), foundForm()),
    ),
  );
  if (joinCode) await joinClub(decodeURIComponent(joinCode), note);
  await drawMine(listBox);
}

async function drawMine(box) {
  let mine;
  try {
    mine = (await get("/api/clubs")).clubs;
  } catch (exc) {
    toast(t("err.generic", { m: exc.message }), "error");
    return;
  }
  clear(box);
  if (!mine.length) {
    box.appendChild(h("p", { class: "muted" }, t("club.none")));
    return;
  }
  for (const c of mine) {
    box.appendChild(
      h(
        "a",
        { class: "club-row", href: `#/club/${c.id}`, dataset: { club: c.id } },
        h("strong", { class: "club-name" }, c.name),
        h("span", { class: `role-badge role-${c.role}` }, t(`club.role.${c.role}`)),
        h("span", { class: "muted small" }, t("club.members_n", { n: c.members })),
      ),
    );
  }
}

function joinForm(note) {
  const input = h("input", { id: "club-code", name: "club-code", autocomplete: "off", autocapitalize: "characters", maxlength: "20", placeholder: t("club.code_ph"), "aria-label": t("club.code_ph") });
  return h(
    "form",
    {
      class: "join-code",
      id: "club-join",
      onsubmit: (ev) => {
        ev.preventDefault();
        joinClub(input.value, note);
      },
    },
    input,
    h("button", { type: "submit", class: "primary", id: "club-join-go" }, t("club.join_go")),
  );
}

async function joinClub(code, note) {
  const typed = String(code || "").trim();
  if (!typed) {
    note.textContent = t("club.code_empty");
    return;
  }
  try {
    const done = await post("/api/clubs/join", { code: typed });
    if (done.status === "member") {
      location.hash = `#/club/${done.club}`;
    } else {
      note.textContent = t("club.requested");
    }
  } catch (exc) {
    note.textContent = exc.message;
  }
}

function foundForm() {
  const name = h("input", { name: "club-name", id: "club-name", maxlength: "40", required: true });
  const notice = h("textarea", { name: "club-notice", id: "club-notice", maxlength: "2000", rows: "3" });
  const approval = h("input", { type: "checkbox", name: "club-approval", id: "club-approval" });
  return h(
    "form",
    {
      class: "club-found",
      id: "club-found",
      onsubmit: async (ev) => {
        ev.preventDefault();
        try {
          const made = await post("/api/clubs", { name: name.value.trim(), notice: notice.value, approval: approval.checked });
          location.hash = `#/club/${made.id}`;
        } catch (exc) {
          toast(t("err.generic", { m: exc.message }), "error");
        }
      },
    },
    field(t("club.name"), name),
    field(t("club.notice"), notice),
    h("label", { class: "field check" }, approval, h("span", {}, t("club.approval"))),
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary", id: "club-found-go" }, t("club.found_go"))),
  );
}

function field(label, input) {
  return h("label", { class: "field" }, h("span", {}, label), input);
}

// ------------------------------------------------------------------ one club

const TABS = ["lobby", "members", "record"];

export async function showClub(main, [clubId, tab], who) {
  const view = new ClubView(main, Number(clubId), TABS.includes(tab) ? tab : "lobby", who);
  await view.open();
  return () => view.close();
}

class ClubView {
  constructor(main, id, tab, who) {
    this.main = main;
    this.id = id;
    this.tab = tab;
    this.who = who;
    this.club = null;
    this.drawn = "";
    this.timer = 0;
    this.period = "week";
    this.variants = [];
  }

  async open() {
    try {
      [this.club, this.variants] = await Promise.all([get(`/api/clubs/${this.id}`), loadCatalog()]);
    } catch (exc) {
      this.main.appendChild(
        h("div", { class: "panel", id: "club-refused" }, h("p", {}, exc.message), h("a", { href: "#/clubs" }, t("club.back_list"))),
      );
      return;
    }
    this.head = h("div", { class: "club-head" });
    this.tabs = h("nav", { class: "club-tabs", role: "tablist" });
    this.body = h("div", { class: "club-body", id: "club-body" });
    this.forms = h("div", { class: "club-forms" }); // kept through the refreshes
    this.root = h("div", { class: "club", id: "club", dataset: { club: this.id, role: this.club.role } }, this.head, this.tabs, this.forms, this.body);
    this.main.appendChild(this.root);
    this.draw();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
  }

  close() {
    this.closed = true;
    clearInterval(this.timer);
  }

  get admin() {
    return RANK[this.club.role] >= RANK.admin;
  }

  get owner() {
    return this.club.role === "owner";
  }

  async refresh() {
    try {
      const club = await get(`/api/clubs/${this.id}`);
      if (this.closed) return; // the player went elsewhere meanwhile
      this.club = club;
    } catch (exc) {
      if (this.closed) return;
      if (exc.status === 403 || exc.status === 404) {
        clearInterval(this.timer);
        toast(exc.message, "error");
        location.hash = "#/clubs";
      }
      return;
    }
    if (this.tab !== "record") this.draw();
  }

  /** Draws the head, the tabs and the tab's body; the same facts are left as they are
   * (a tap is never lost to the refresh). */
  draw(force = false) {
    const key = JSON.stringify([this.club, this.tab, lang()]);
    if (!force && key === this.drawn) return;
    const typing = document.activeElement;
    if (!force && typing && this.body.contains(typing) && /^(INPUT|TEXTAREA|SELECT)$/.test(typing.tagName)) return; // after the edit
    if (!force && this.body.querySelector("[data-armed='1']")) return; // a second tap is awaited
    this.drawn = key;
    const c = this.club;
    this.root.dataset.role = c.role;
    clear(this.head).append(
      h("a", { href: "#/clubs", class: "back" }, `← ${t("club.back_list")}`),
      h(
        "h1",
        { id: "club-title" },
        h("span", { class: "club-name" }, c.name),
        " ",
        h("span", { class: `role-badge role-${c.role}` }, t(`club.role.${c.role}`)),
      ),
      h(
        "p",
        { class: "club-code muted small" },
        `${t("club.code")}: `,
        h("strong", { id: "club-code-shown" }, c.code),
        " · ",
        h("a", { href: `#/clubs/join/${c.code}`, id: "club-link" }, t("club.link")),
        " · ",
        c.approval ? t("club.by_approval") : t("club.at_once"),
      ),
    );
    clear(this.tabs).append(
      ...TABS.map((name) =>
        h(
          "a",
          { href: `#/club/${this.id}/${name}`, role: "tab", class: `club-tab ${name === this.tab ? "on" : ""}`, id: `club-tab-${name}`, "aria-selected": String(name === this.tab) },
          t(`club.tab.${name}`),
          name === "members" && c.requests.length ? h("span", { class: "count-dot" }, String(c.requests.length)) : null,
        ),
      ),
    );
    clear(this.body);
    if (this.tab === "lobby") this.drawLobby();
    else if (this.tab === "members") this.drawMembers();
    else this.drawRecord();
  }

  // -- the club lobby ------------------------------------------------------------------

  drawLobby() {
    const c = this.club;
    const online = c.members.filter((m) => m.online);
    put(
      this.body,
      c.notice ? h("section", { class: "panel club-notice", id: "club-notice-shown" }, h("h2", {}, t("club.notice")), h("p", { class: "notice-text" }, c.notice)) : null,
      h(
        "section",
        { class: "panel" },
        h(
          "div",
          { class: "panel-head" },
          h("h2", {}, t("club.presets")),
          this.admin ? h("button", { class: "ghost", id: "preset-new", onclick: () => this.presetForm() }, t("club.preset_new")) : null,
        ),
        c.presets.length ? h("div", { class: "presets", id: "presets" }, c.presets.map((p) => this.presetRow(p))) : h("p", { class: "muted" }, t("club.no_presets")),
      ),
      h("section", { class: "panel" }, h("h2", {}, t("club.tables")), this.tablesBox()),
      h(
        "section",
        { class: "panel" },
        h("h2", {}, t("club.online", { n: online.length })),
        h("ul", { class: "member-dots", id: "online" }, online.map((m) => h("li", { dataset: { player: m.player } }, h("span", { class: "dot on" }), m.name))),
      ),
    );
  }

  variant(code) {
    return this.variants.find((v) => v.code === code) || { code, name_zh: code, name_en: code };
  }

  presetRow(p) {
    const o = p.options || {};
    const facts = [
      titleOf(this.variant(p.code)),
      o.seats ? t("club.seats_n", { n: o.seats }) : null,
      o.bots ? t("club.bots_n", { n: o.bots }) : null,
      o.hands ? t("club.hands_n", { n: o.hands }) : null,
      o.stake && o.stake !== 1 ? t("club.stake_n", { n: o.stake }) : null,
      p.keep_waiting ? t("club.keep_waiting_short") : null,
    ].filter(Boolean);
    return h(
      "div",
      { class: "preset", dataset: { preset: p.id, code: p.code } },
      h("div", { class: "preset-text" }, h("strong", { class: "preset-name" }, p.name), h("span", { class: "muted small" }, facts.join(" · "))),
      h("div", { class: "preset-buttons" },
        h("button", { class: "primary quick-start", dataset: { quick: p.id }, onclick: (ev) => this.quickStart(p, ev.currentTarget) }, t("club.quick_start")),
        this.admin ? confirmButton(t("club.preset_remove"), t("club.sure"), () => this.act("DELETE", `/api/clubs/${this.id}/presets/${p.id}`), { "data-remove-preset": p.id }) : null,
      ),
    );
  }

  /** 快速开始: the preset's waiting table (or a new one), entered as a room made in the lobby. */
  async quickStart(p, button) {
    button.disabled = true;
    try {
      const got = await post(`/api/clubs/${this.id}/presets/${p.id}/table`, {});
      const roomId = got.room && typeof got.room === "object" ? got.room.id : got.room;
      if (got.seat === null && got.join) await post(got.join, {}); // a table on another node
      location.hash = `#/room/${roomId}`;
    } catch (exc) {
      button.disabled = false;
      toast(t("err.generic", { m: exc.message }), "error");
    }
  }

  tablesBox() {
    // every table in play or waiting, and the last few finished (the rest under 战绩)
    const done = (tb) => tb.status === "finished" || tb.status === "closed";
    const tables = [...this.club.tables.filter((tb) => !done(tb)), ...this.club.tables.filter(done).slice(0, FINISHED_SHOWN)];
    if (!tables.length) return h("p", { class: "muted", id: "club-tables" }, t("club.no_tables"));
    const mine = this.who ? this.who.name : "";
    return h(
      "div",
      { class: "club-tables", id: "club-tables" },
      tables.map((tb) => {
        const seated = tb.seats.indexOf(mine) >= 0;
        const open = tb.seats.indexOf(null) >= 0;
        const preset = this.club.presets.find((p) => p.id === tb.preset);
        let action = null;
        if (tb.status === "finished") {
          action = h("button", { class: "ghost", dataset: { result: tb.room }, onclick: () => this.resultCard(tb) }, t("club.result"));
        } else if (seated) {
          action = h("a", { class: "button primary", href: `#/room/${tb.room}` }, t("room.back_to_seat"));
        } else if (tb.status === "waiting" && open) {
          action = h("button", { class: "primary", dataset: { sit: tb.room }, onclick: () => this.sit(tb.room) }, t("room.join"));
        } else if (tb.status !== "closed") {
          action = h("a", { class: "button ghost", href: `#/room/${tb.room}` }, t("room.spectate"));
        }
        return h(
          "div",
          { class: `club-table status-${tb.status}`, dataset: { room: tb.room, status: tb.status } },
          h(
            "div",
            { class: "club-table-head" },
            h("span", { class: "code-id" }, `#${tb.room}`),
            h("strong", {}, preset ? preset.name : titleOf(this.variant(tb.code))),
            h("span", { class: `status ${tb.status}` }, t(`club.status.${tb.status}`)),
            h("span", { class: "muted small" }, tb.hands ? t("club.hands_of", { n: tb.hands_played, m: tb.hands }) : t("club.hands_played", { n: tb.hands_played })),
          ),
          h(
            "ol",
            { class: "table-seats" },
            tb.seats.map((s) => h("li", { class: s === null ? "open" : s === "bot" ? "bot" : "" }, s === null ? t("seat.open") : s === "bot" ? t("seat.bot") : s)),
          ),
          action,
        );
      }),
    );
  }

  async sit(roomId) {
    try {
      await post(`/api/rooms/${roomId}/join`, {});
      location.hash = `#/room/${roomId}`;
    } catch (exc) {
      toast(t("err.generic", { m: exc.message }), "error");
    }
  }

  async act(method, path, body) {
    try {
      const done = await call(method, path, body);
      this.club = await get(`/api/clubs/${this.id}`);
      this.draw(true);
      return done;
    } catch (exc) {
      toast(t("err.generic", { m: exc.message }), "error");
      return null;
    }
  }

  // -- the preset form (admins) --------------------------------------------------------

  async presetForm() {
    const playable = this.variants.filter((v) => v.playable);
    const name = h("input", { name: "preset-name", id: "preset-name", maxlength: "60", required: true });
    const game = h("select", { name: "preset-game", id: "preset-game" }, playable.map((v) => h("option", { value: v.code }, titleOf(v))));
    const seats = h("input", { type: "number", name: "seats" });
    const bots = h("input", { type: "number", name: "bots", min: 0, value: 0 });
    const stake = h("input", { type: "number", name: "stake", min: 1, value: 1 });
    const timeLimit = h("input", { type: "number", name: "time_limit", min: 0, max: 3600, placeholder: "—" });
    const hands = h("input", { type: "number", name: "hands", min: 1, placeholder: "—" });
    const level = h("select", { name: "level" }, ["normal", "easy", "hard"].map((k) => h("option", { value: k }, t(`create.level.${k}`))));
    const tuoguan = h("select", { name: "tuoguan" }, ["both", "timeout", "disconnect", "off"].map((k) => h("option", { value: k }, t(`create.tuoguan.${k}`))));
    const fillAfter = h("input", { type: "number", name: "fill_after", min: 0, placeholder: "—" });
    const keep = h("input", { type: "checkbox", name: "keep_waiting", id: "preset-keep" });
    const gameBox = h("div", { class: "grid" });
    let gameFields = [];
    const pick = async () => {
      const v = playable.find((x) => x.code === game.value);
      if (!v) return;
      const [lo, hi] = v.players;
      Object.assign(seats, { min: lo, max: hi, value: Math.min(hi, Math.max(lo, 4)) });
      bots.max = hi;
      if (!name.value || name.dataset.auto === "1") {
        name.value = nameOf(v);
        name.dataset.auto = "1";
      }
      const table = await tableFor(v.family);
      gameFields = houseOptions(v, table.createOptions ? table.createOptions(v) : []).map((opt) => {
        let input;
        if (opt.choices) input = h("select", { name: `g.${opt.key}` }, opt.choices.map((c) => h("option", { value: c.value, selected: String(c.value) === String(opt.default) }, c.label)));
        else if (opt.type === "checkbox") input = h("input", { type: "checkbox", name: `g.${opt.key}`, checked: !!opt.default });
        else input = h("input", { type: "number", name: `g.${opt.key}`, value: opt.default, min: opt.min ?? 1 });
        return { opt, input, el: field(opt.label, input) };
      });
      clear(gameBox).append(...gameFields.map((f) => f.el));
    };
    name.addEventListener("input", () => (name.dataset.auto = ""));
    game.addEventListener("change", pick);
    const form = h(
      "form",
      {
        class: "panel create-room preset-form",
        id: "preset-form",
        onsubmit: async (ev) => {
          ev.preventDefault();
          const options = { seats: Number(seats.value), bots: Number(bots.value), stake: Number(stake.value), level: level.value, tuoguan: tuoguan.value };
          if (timeLimit.value !== "") options.time_limit = Number(timeLimit.value);
          if (hands.value) options.hands = Number(hands.value);
          if (fillAfter.value !== "") options.fill_after = Number(fillAfter.value);
          const gameOptions = {};
          for (const { opt, input } of gameFields) {
            gameOptions[opt.key] = optionValue(opt, input);
          }
          const body = { name: name.value.trim(), code: game.value, options, game_options: gameOptions, keep_waiting: keep.checked };
          if (await this.act("POST", `/api/clubs/${this.id}/presets`, body)) form.remove();
        },
      },
      h("h2", {}, t("club.preset_new")),
      h("div", { class: "grid" }, field(t("club.preset_name"), name), field(t("club.preset_game"), game)),
      h(
        "div",
        { class: "grid" },
        field(t("create.seats"), seats),
        field(t("create.bots"), bots),
        field(t("create.level"), level),
        field(t("create.stake"), stake),
        field(t("create.time_limit"), timeLimit),
        field(t("create.hands"), hands),
        field(t("create.tuoguan"), tuoguan),
        field(t("create.fill_after"), fillAfter),
      ),
      h("h3", {}, t("create.game_options")),
      gameBox,
      h("label", { class: "field check" }, keep, h("span", {}, t("club.keep_waiting"))),
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "submit", class: "primary", id: "preset-save" }, t("club.preset_save")),
        h("button", { type: "button", class: "ghost", onclick: () => form.remove() }, t("create.cancel")),
      ),
    );
    clear(this.forms).appendChild(form);
    await pick();
    form.scrollIntoView({ block: "start" });
  }

  // -- members and requests ------------------------------------------------------------

  drawMembers() {
    const c = this.club;
    const base = `/api/clubs/${this.id}`;
    put(
      this.body,
      this.admin && c.requests.length
        ? h(
            "section",
            { class: "panel", id: "club-requests" },
            h("h2", {}, t("club.requests")),
            c.requests.map((r) =>
              h(
                "div",
                { class: "member-row", dataset: { request: r.player } },
                h("span", { class: "member-name" }, r.name),
                h("span", { class: "muted small" }, when(r.at)),
                h("span", { class: "member-buttons" },
                  h("button", { class: "primary", "data-approve": r.player, onclick: () => this.act("POST", `${base}/requests/${r.player}`, { accept: true }) }, t("club.approve")),
                  h("button", { class: "ghost", "data-deny": r.player, onclick: () => this.act("POST", `${base}/requests/${r.player}`, { accept: false }) }, t("club.deny")),
                ),
              ),
            ),
          )
        : null,
      h(
        "section",
        { class: "panel" },
        h("h2", {}, t("club.members_title", { n: c.members.length })),
        h("div", { class: "members", id: "club-members" }, c.members.map((m) => this.memberRow(m))),
      ),
      this.settings(),
    );
  }

  memberRow(m) {
    const base = `/api/clubs/${this.id}/members/${m.player}`;
    const self = this.who && m.player === this.who.id;
    const over = RANK[this.club.role] > RANK[m.role] && !self;
    const buttons = [];
    if (this.admin && over) {
      buttons.push(
        m.muted_until
          ? h("button", { class: "ghost small-button", "data-unmute": m.player, onclick: () => this.act("POST", `${base}/mute`, { minutes: 0 }) }, t("club.unmute"))
          : h("button", { class: "ghost small-button", "data-mute": m.player, onclick: () => this.act("POST", `${base}/mute`, { minutes: 60 }) }, t("club.mute")),
        confirmButton(t("club.remove"), t("club.sure"), () => this.act("POST", `${base}/remove`, { ban: false }), { "data-remove": m.player }),
        confirmButton(t("club.ban"), t("club.sure"), () => this.act("POST", `${base}/remove`, { ban: true }), { "data-ban": m.player }),
      );
    }
    if (this.owner && !self) {
      buttons.push(
        m.role === "admin"
          ? h("button", { class: "ghost small-button", "data-unadmin": m.player, onclick: () => this.act("POST", `${base}/role`, { role: "member" }) }, t("club.unadmin"))
          : h("button", { class: "ghost small-button", "data-admin": m.player, onclick: () => this.act("POST", `${base}/role`, { role: "admin" }) }, t("club.make_admin")),
        confirmButton(t("club.hand_over"), t("club.sure"), () => this.act("POST", `${base}/role`, { role: "owner" }), { "data-hand-over": m.player }),
      );
    }
    return h(
      "div",
      { class: "member-row", dataset: { player: m.player, role: m.role } },
      h("span", { class: `dot ${m.online ? "on" : ""}`, title: m.online ? t("club.is_online") : t("club.is_offline") }),
      h("span", { class: "member-name" }, m.name),
      h("span", { class: `role-badge role-${m.role}` }, t(`club.role.${m.role}`)),
      m.muted_until ? h("span", { class: "chip muted-chip" }, t("club.muted")) : null,
      buttons.length ? h("span", { class: "member-buttons" }, buttons) : null,
    );
  }

  settings() {
    const c = this.club;
    const parts = [];
    if (this.admin) {
      const name = h("input", { id: "club-name-edit", maxlength: "40", value: c.name });
      const notice = h("textarea", { id: "club-notice-edit", rows: "3", maxlength: "2000" }, c.notice);
      const change = () => this.act("PATCH", `/api/clubs/${this.id}`, { name: name.value.trim() || c.name, notice: notice.value });
      parts.push(
        field(t("club.name"), name),
        field(t("club.notice"), notice),
        h("div", { class: "buttons" }, h("button", { class: "ghost", id: "club-notice-save", onclick: change }, t("club.save"))),
      );
    }
    if (this.owner) {
      const approval = h("input", {
        type: "checkbox",
        id: "club-approval-edit",
        checked: c.approval,
        onchange: (ev) => this.act("PATCH", `/api/clubs/${this.id}`, { approval: ev.currentTarget.checked }),
      });
      parts.push(
        h("label", { class: "field check" }, approval, h("span", {}, t("club.approval"))),
        h(
          "div",
          { class: "buttons" },
          confirmButton(t("club.close"), t("club.close_sure"), async () => {
            if (await this.act("DELETE", `/api/clubs/${this.id}`)) location.hash = "#/clubs";
          }, { id: "club-close", class: "danger" }),
        ),
      );
    } else if (this.who) {
      parts.push(
        h(
          "div",
          { class: "buttons" },
          confirmButton(t("club.leave"), t("club.sure"), async () => {
            try {
              await post(`/api/clubs/${this.id}/members/${this.who.id}/remove`, { ban: false });
              location.hash = "#/clubs";
            } catch (exc) {
              toast(t("err.generic", { m: exc.message }), "error");
            }
          }, { id: "club-leave" }),
        ),
      );
    }
    return h("section", { class: "panel club-settings", id: "club-settings" }, h("h2", {}, t("club.settings")), parts);
  }

  // -- 战绩 ------------------------------------------------------------------------------

  async drawRecord() {
    const box = h("div", { class: "club-record", id: "club-record" });
    const periods = h(
      "div",
      { class: "period-tabs", role: "tablist" },
      PERIODS.map((p) =>
        h(
          "button",
          {
            type: "button",
            class: `ghost period ${p === this.period ? "on" : ""}`,
            "data-period": p,
            "aria-pressed": String(p === this.period),
            onclick: () => {
              this.period = p;
              this.draw(true);
            },
          },
          t(`club.period.${p}`),
        ),
      ),
    );
    const csv = h("button", { type: "button", class: "ghost", id: "record-csv", onclick: () => this.downloadCsv() }, t("club.csv"));
    put(this.body, h("section", { class: "panel" }, h("div", { class: "panel-head" }, h("h2", {}, t("club.ranking")), csv), periods, box));
    const period = this.period;
    let record;
    try {
      record = await get(`/api/clubs/${this.id}/record?period=${period}`);
    } catch (exc) {
      box.appendChild(h("p", { class: "muted" }, exc.message));
      return;
    }
    if (period !== this.period || !box.isConnected) return;
    if (!record.members.length) {
      box.appendChild(h("p", { class: "muted", id: "record-empty" }, t("club.record_empty")));
    } else {
      box.appendChild(
        h(
          "div",
          { class: "table-scroll" },
          h(
            "table",
            { class: "rec-table ranking", id: "ranking" },
            h("thead", {}, h("tr", {}, ["rank", "name", "points", "hands", "rooms", "winner", "best"].map((k) => h("th", {}, t(`club.col.${k}`))))),
            h(
              "tbody",
              {},
              record.members.map((m) =>
                h(
                  "tr",
                  { dataset: { player: m.player, points: m.points, hands: m.hands, winner: m.winner } },
                  h("td", {}, String(m.rank)),
                  h("td", { class: "who" }, h("span", { class: "rank-name" }, m.name), perGame(m.games, (code) => this.variant(code))),
                  h("td", { class: m.points > 0 ? "win" : m.points < 0 ? "loss" : "" }, signed(m.points)),
                  h("td", {}, String(m.hands)),
                  h("td", {}, String(m.rooms)),
                  h("td", {}, String(m.winner)),
                  h("td", {}, m.best_hand ? h("a", { href: `#/replay/${m.best_hand.game}`, class: "best-hand" }, signed(m.best_hand.points)) : "—"),
                ),
              ),
            ),
          ),
        ),
      );
    }
    const finished = this.club.tables.filter((tb) => tb.status === "finished");
    if (finished.length) {
      put(
        this.body,
        h(
          "section",
          { class: "panel" },
          h("h2", {}, t("club.finished_rooms")),
          h("div", { class: "club-tables" }, finished.map((tb) =>
            h("div", { class: "club-table", dataset: { room: tb.room } },
              h("div", { class: "club-table-head" }, h("span", { class: "code-id" }, `#${tb.room}`), h("strong", {}, titleOf(this.variant(tb.code))), h("span", { class: "muted small" }, when(tb.opened))),
              h("button", { class: "ghost", dataset: { result: tb.room }, onclick: () => this.resultCard(tb) }, t("club.result")),
            ),
          )),
        ),
      );
    }
  }

  async downloadCsv() {
    try {
      const answer = await fetch(`/api/clubs/${this.id}/record.csv?period=${this.period}`, { headers: { Authorization: `Bearer ${token()}` } });
      if (!answer.ok) throw new Error(answer.statusText);
      save(URL.createObjectURL(await answer.blob()), `club-${this.id}-${this.period}.csv`);
    } catch (exc) {
      toast(t("err.generic", { m: exc.message }), "error");
    }
  }

  // -- a finished room's result card -----------------------------------------------------

  async resultCard(tb) {
    const panel = await resultPanel(tb.room, this.club.name, () => panel.remove());
    if (panel) {
      clear(this.forms).appendChild(panel);
      panel.scrollIntoView({ block: "start" });
    }
  }
}

/** A member's points per game, under the name: "2001 +7 (1)". */
function perGame(games, variant) {
  const codes = Object.keys(games || {});
  if (!codes.length) return null;
  return h(
    "span",
    { class: "per-game muted small" },
    codes.map((code) => `${titleOf(variant(code))} ${signed(games[code].points)} (${t("club.hands_n", { n: games[code].hands })})`).join(" · "),
  );
}

/** A button that asks once more before it acts (手滑 is common on a phone). */
function confirmButton(label, sure, action, attrs = {}) {
  const button = h("button", {
    type: "button",
    ...attrs,
    class: `ghost small-button ${attrs.class || ""}`,
    onclick: async () => {
      if (button.dataset.armed !== "1") {
        button.dataset.armed = "1";
        button.textContent = sure;
        setTimeout(() => {
          if (!button.isConnected) return;
          button.dataset.armed = "";
          button.textContent = label;
        }, 4000);
        return;
      }
      button.disabled = true;
      await action();
    },
  }, label);
  return button;
}

/** Appends the parts that are there (Element.append would write a null as "null"). */
function put(box, ...parts) {
  box.append(...parts.filter((x) => x !== null && x !== undefined && x !== false));
}
