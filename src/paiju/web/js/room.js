// A table (牌桌): one WebSocket for the player's seat (or a spectator's), seats around a
// felt, the family's own table module in the middle and in the player's area, turn
// timers, 托管 (auto-play) with its cancel button, the settlement, and reconnection.

import { ended, get, hello, me, post, socketUrl } from "./api.js";
import { newClientSeed } from "./fairness.js";
import { clear, h, signed, toast } from "./dom.js";
import { seatOffset, seatPlace, seatSide, seatStyle } from "./felt.js";
import { findVariant } from "./catalog.js";
import { ownedRooms } from "./lobby.js";
import { HAND_WORDS, handOf, lang, onLang, t, titleOf } from "./i18n.js";
import { seatRating } from "./ratings.js";
import { tableFor } from "../tables/index.js";
import { onPrefs, prefs, prefsMenu } from "./prefs.js";
import { rememberPlayed } from "./finder.js";
import { sound, soundOf } from "./sound.js";
import { clearMoments, feelDeal, feelUpdate, lastCardsBadge, voiceSetting } from "./feel.js";
import { ChatBar } from "./chat.js";
import { DissolveBar } from "./dissolve.js";
import { NearbyBar, joinBody } from "./nearby.js";
import { matesPanel } from "./mates.js";
import { tutorialChip, tutorialOffer } from "./tutorial.js";

const FINAL_CLOSE = new Set([4401, 4403, 4404, 4409]);
const SIGNED_OUT = 4401; // this device's session ended (signed out elsewhere, expired)
const BANNED = 4403; // with the reason "banned" (else a refusal of the room)
const WRONG_NODE = 4308; // docs/protocol.md, section 9
// docs/protocol.md, section 3: a ping every 4 s; a socket silent for 10 s (its server
// frozen or cut off, or a handshake that never ends) is given up and the room found again
const HEARTBEAT_MS = 4000;
const SILENT_MS = 10000;

/** How long a family's result takes to turn over (ms): its totals appear after that. */
const REVEAL_MS = { shisanzhang: 2600, baozi: 1300, jiajiabao: 1500 };
const LOW_TIME = 6;

/** A server error in the player's language: its rendered reason, else its message. */
export function errorText(msg) {
  return (msg.text && msg.text[lang()]) || msg.message || msg.code;
}

/**
 * Put `nodes` in `root`, keeping every old child that is drawn exactly the same (same
 * HTML) where it is: a tap in progress on the player's cards is not lost when an update
 * about another seat redraws the table.
 */
function patchChildren(root, nodes) {
  nodes.forEach((node, i) => {
    const old = root.children[i];
    if (!old) root.appendChild(node);
    else if (old.outerHTML !== node.outerHTML) root.replaceChild(node, old);
  });
  while (root.children.length > nodes.length) root.removeChild(root.lastElementChild);
}

export async function showRoom(main, [roomId], who) {
  const room = new RoomView(main, Number(roomId), who);
  await room.open();
  return () => room.close();
}

class RoomView {
  constructor(main, roomId, who) {
    this.main = main;
    this.roomId = roomId;
    this.who = who;
    this.info = null;
    this.seat = null;
    this.game = null;
    this.handNo = null;
    this.commitment = "";
    this.view = null;
    this.legal = null;
    this.control = [];
    this.timers = [];
    this.timersAt = 0;
    this.handOver = null;
    this.nextAt = 0;
    this.revealAt = 0;
    this.continued = false;
    this.session = null;
    this.beeped = "";
    this.events = [];
    this.local = {};
    this.table = null;
    this.variant = null;
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.connected = false;
    this.msgId = 0;
    this.root = h("div", { class: "room", id: "room", dataset: { room: roomId } });
    this.chat = new ChatBar(this);
    this.dissolve = new DissolveBar(this);
    this.nearby = new NearbyBar(this);
    main.appendChild(this.root);
    this.offLang = onLang(() => this.render());
    this.offPrefs = onPrefs((_now, name) => {
      if (name === "autoPass") this.sendAutoPass();
      this.render();
    });
    this.ticker = setInterval(() => this.tick(), 250);
    // a card being dragged (十三张's rows) is not drawn away under the pointer: what comes
    // meanwhile (another seat's update) is drawn once the drag ends
    this.dragging = false;
    this.onDragStart = () => (this.dragging = true);
    this.onDragEnd = () => {
      this.dragging = false;
      if (this.renderLater) this.render();
    };
    document.addEventListener("dragstart", this.onDragStart);
    document.addEventListener("dragend", this.onDragEnd);
  }

  async open() {
    try {
      this.info = await get(`/api/rooms/${this.roomId}`);
    } catch (exc) {
      if (exc.code === "no_room" && (await this.openFinished())) return;
      toast(t("err.generic", { m: exc.message }), "error");
      this.root.appendChild(h("p", {}, h("a", { href: "#/" }, t("room.lobby"))));
      return;
    }
    this.variant = await findVariant(this.info.code);
    this.table = await tableFor(this.variant ? this.variant.family : "");
    this.render();
    this.connect();
  }

  /** A finished room (no longer played, so the server has no table for it): its 总结算
   * and its hands, each a link to its replay. False when the server has no record of it. */
  async openFinished() {
    let sum, games, who;
    try {
      [sum, games, who] = await Promise.all([get(`/api/rooms/${this.roomId}/summary`), get(`/api/games?room=${this.roomId}`), me().catch(() => null)]);
    } catch {
      return false;
    }
    this.variant = await findVariant(sum.code);
    const family = this.variant ? this.variant.family : "";
    const line = who ? sum.seats.find((x) => x.player === who.id) : null;
    this.seat = line ? line.seat : null;
    this.archived = true;
    this.summary = sum;
    this.info = {
      code: sum.code,
      name_zh: this.variant ? this.variant.name_zh : sum.code,
      name_en: this.variant ? this.variant.name_en : sum.code,
      status: "finished",
      players: sum.seats.map((x) => x.name),
      match: { hand_word: HAND_WORDS[family] || ["局", "hand"] },
    };
    this.finishedHands = [...games].sort((a, b) => a.hand_no - b.hand_no);
    this.render();
    return true;
  }

  /** The page of a finished room: its 总结算, then each hand with its replay. */
  renderFinished() {
    const family = this.variant ? this.variant.family : "";
    const hands = this.finishedHands;
    clear(this.root);
    this.root.append(
      h("div", { class: "room-head" }, h("a", { href: "#/", class: "back" }, "←"), h("strong", { class: "room-title" }, titleOf(this.info)), h("span", { class: "chip" }, t("room.finished"))),
      this.summaryPanel(),
      h(
        "section",
        { class: "panel finished-hands", id: "finished-hands" },
        h("h3", {}, t("room.finished_hands", this.handWords(hands.length))),
        h(
          "ul",
          { class: "game-list" },
          hands.map((g) =>
            h(
              "li",
              { dataset: { game: g.id } },
              h("a", { href: `#/replay/${g.id}` }, handOf(family, g.hand_no)),
              h("span", { class: "muted" }, ` · ${(g.settlement || []).map((x, i) => `${this.seatName(i)} ${signed(x)}`).join(" · ")}`),
            ),
          ),
        ),
      ),
    );
  }

  close() {
    this.closed = true;
    clearInterval(this.ticker);
    document.removeEventListener("dragstart", this.onDragStart);
    document.removeEventListener("dragend", this.onDragEnd);
    this.offLang();
    this.offPrefs();
    clearMoments();
    if (this.ws) this.ws.close(1000, "bye");
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(socketUrl(this.nodeWs || `/ws/rooms/${this.roomId}`));
    this.ws = ws;
    ws.onopen = () => ws.send(hello());
    let heard = Date.now();
    const beat = setInterval(() => {
      if (this.ws !== ws) clearInterval(beat);
      else if (Date.now() - heard > SILENT_MS) {
        clearInterval(beat);
        this.silent(ws);
      } else if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
    }, HEARTBEAT_MS);
    ws.onmessage = (ev) => {
      heard = Date.now();
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(beat);
      if (this.closed || this.ws !== ws) return;
      this.connected = false;
      if (ev.code === WRONG_NODE) {
        this.relocate(); // a cluster: the room is played on another node
        return;
      }
      if (ev.code === SIGNED_OUT || (ev.code === BANNED && ev.reason === "banned")) {
        ended(ev.code === BANNED ? "banned" : ev.reason || "session_ended"); // the account page says why
        return;
      }
      if (FINAL_CLOSE.has(ev.code)) {
        toast(t("err.generic", { m: ev.reason || ev.code }), "error");
        this.render();
        return;
      }
      this.render();
      const wait = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => this.connect(), wait);
    };
  }

  /** Find the room's socket again (its info names the node that plays it now) and
   * connect there. */
  relocate() {
    get(`/api/rooms/${this.roomId}`)
      .then((info) => (this.nodeWs = info.ws || null))
      .catch(() => (this.nodeWs = null))
      .finally(() => setTimeout(() => this.connect(), 300 * Math.min(4, this.retry++)));
  }

  /** The socket went silent (its server frozen or cut off): give it up, whatever its
   * close may say later, and find the room again. */
  silent(ws) {
    this.ws = null;
    ws.onclose = null;
    try {
      ws.close();
    } catch {
      // already closing
    }
    this.connected = false;
    this.render();
    toast(t("room.reconnecting"), "error");
    this.relocate();
  }

  /** Add this browser's entropy to the next deal once its server seed is committed to
   * (docs/fairness.md): a fresh random client seed for every new next_commitment. */
  seedNext(nextCommitment) {
    if (!nextCommitment || this.seat === null || this.seat === undefined || nextCommitment === this.seeded) return;
    this.seeded = nextCommitment;
    this.seedRef = ++this.msgId;
    this.send({ type: "client_seed", seed: newClientSeed(nextCommitment), id: this.seedRef });
  }

  /** 要不起: the player's option (on unless turned off), told to the server for the seat. */
  sendAutoPass() {
    if (this.seat === null || this.seat === undefined) return;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "auto_pass", on: !!prefs().autoPass }));
  }

  /** The ⚙ menu, one element kept across renders (its open state and toggles stay). */
  prefsBox() {
    const seated = this.seat !== null && this.seat !== undefined;
    if (!this.prefsEl || this.prefsSeated !== seated || this.prefsLang !== lang()) {
      this.prefsEl = prefsMenu({ seated, extra: voiceSetting() });
      this.prefsSeated = seated;
      this.prefsLang = lang();
    }
    return this.prefsEl;
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else toast(t("room.reconnecting"), "error");
  }

  act(action) {
    this.send({ type: "action", action, id: ++this.msgId, seat: this.seat, game: this.game });
  }

  /** The arrangement on the table, not confirmed: played if the time runs out. */
  draft(action) {
    const key = JSON.stringify(action);
    if (key === this.lastDraft) return;
    this.lastDraft = key;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "draft", action }));
  }

  /** 继续: the result has been seen; the next hand may come. */
  continueHand() {
    this.continued = true;
    this.send({ type: "continue", id: ++this.msgId });
    this.render();
  }

  receive(msg) {
    switch (msg.type) {
      case "welcome":
        this.connected = true;
        this.retry = 0; // joined: the next loss waits from the shortest again (an open
        // socket refused at once - a room moving between nodes - keeps backing off)
        this.info = msg.room;
        this.seat = msg.seat;
        this.limits = msg.limits;
        this.seedNext(msg.room.next_commitment);
        this.sendAutoPass();
        if (msg.seat !== null && msg.seat !== undefined) rememberPlayed(msg.room.code);
        if (!msg.room.game) this.nearby.welcomed(); // before the first deal: 防作弊 reminders
        break;
      case "room":
        // the server pushes the room's info whenever it changes before the first deal
        // (joins, leaves, sockets coming and going) and when it starts or finishes
        this.info = msg.room;
        this.seedNext(msg.room.next_commitment);
        this.followNextRoom(msg.room.next_room);
        break;
      case "seeded":
        return;
      case "hand_started":
        if (msg.game !== this.game) {
          this.game = msg.game;
          this.handOver = null;
          this.continued = false;
          this.lastDraft = undefined;
          this.local = {};
          this.events = [];
          this.dissolve.newHand();
          this.refreshInfo();
        }
        this.handNo = msg.hand_no;
        this.commitment = msg.commitment;
        this.seedNext(msg.next_commitment);
        break;
      case "state":
      case "update":
        // a game may tell a seat only whether it acts itself (to_act: true / false, as the
        // mahjong claim windows do, not to show who else may claim): as a list of seats
        this.actingHidden = typeof msg.view.to_act === "boolean" || (this.seat === null && !("to_act" in msg.view));
        if (typeof msg.view.to_act === "boolean") {
          // a window with 过 alone is no decision of one's own: no 轮到你了, no clock, no
          // sound (the server passes for the seat when the window closes); play goes on
          const onlyPass = Array.isArray(msg.legal) && msg.legal.length > 0 && msg.legal.every((a) => a.type === "pass");
          msg.view.to_act = msg.view.to_act && this.seat !== null && !onlyPass ? [this.seat] : [];
          if (onlyPass) msg.timers = (msg.timers || []).filter((x) => x.seat !== this.seat);
        }
        if (msg.game !== this.game) {
          this.game = msg.game;
          this.local = {};
          this.handOver = null;
          this.continued = false;
          this.lastDraft = undefined;
        }
        if (this.dealFelt !== msg.game) {
          // a deal's first view (hand_started may have named the game already)
          this.dealFelt = msg.game;
          feelDeal(this.variant ? this.variant.family : "", msg.view, (i) => this.seatName(i));
        }
        this.view = msg.view;
        this.legal = msg.legal;
        // the decision this seat sent in the open hidden window (a screen opened again
        // mid-window says the choice made instead of offering it again)
        this.kept = msg.type === "state" ? msg.kept || null : null;
        this.control = msg.control;
        this.timers = msg.timers;
        this.timersAt = performance.now();
        this.events = msg.type === "update" ? msg.events : [];
        if (msg.type === "update") {
          const kind = soundOf(msg.events, msg.view.options);
          if (kind) sound(kind);
          this.feel(msg.events, msg.view);
          const mine = this.seat !== null && (msg.view.to_act || []).includes(this.seat);
          if (mine && !this.wasMine) sound("turn");
          this.wasMine = mine;
        }
        if (msg.type === "state" && msg.view.phase === "over" && !this.handOver) this.recoverHandOver(msg.game);
        break;
      case "hand_over": {
        const first = !this.handOver || this.handOver.game !== msg.game;
        this.handOver = msg;
        this.seedNext(msg.next_commitment);
        this.timers = [];
        this.nextAt = msg.next_hand_in == null ? 0 : performance.now() + msg.next_hand_in * 1000;
        if (first) {
          // the totals come after the hands are turned over, not in the first frame
          const family = this.variant ? this.variant.family : "";
          this.revealAt = performance.now() + (REVEAL_MS[family] || 800);
          this.refreshInfo();
          this.loadSession();
        }
        break;
      }
      case "match_summary":
        this.summary = msg;
        this.followNextRoom(msg.next_room);
        break;
      case "error":
        // the browser's own seed, come after the room's last hand: nothing the player did
        if (msg.ref !== undefined && msg.ref === this.seedRef && msg.code === "no_next_hand") return;
        toast(errorText(msg), "error");
        break;
      case "chat":
        this.chat.receive(msg);
        break;
      case "reported":
        this.chat.reported(msg);
        break;
      case "dissolve":
        this.dissolve.receive(msg);
        break;
      case "nearby":
        this.nearby.receive(msg);
        break;
      default:
        return;
    }
    this.render();
  }

  /** After a reload past the end of a hand: the settlement from the game's record. */
  async recoverHandOver(game) {
    try {
      const record = await get(`/api/games/${game}`);
      if (this.game !== game || this.handOver || !record.settlement) return;
      const stake = record.stake || 1;
      this.handOver = {
        type: "hand_over",
        game,
        scores: record.settlement,
        deltas: record.settlement.map((x) => x * stake),
        seed: record.seed,
        commitment: record.commitment,
        room_finished: !!this.info && this.info.status === "finished",
        next_hand_in: null,
      };
      this.render();
    } catch {
      /* the record is not published yet (the hand is still being stored) */
    }
  }

  /** This room's running total for the player (本场累计) from the ledger. */
  async loadSession() {
    if (this.seat === null) return;
    try {
      const ledger = await get("/api/players/me/ledger");
      const mine = (ledger.entries || []).filter((e) => e.room === this.roomId);
      this.session = { total: mine.reduce((a, e) => a + e.delta, 0), hands: mine.length };
      this.render();
    } catch {
      /* no ledger: the hand's own result is still shown */
    }
  }

  async refreshInfo() {
    try {
      this.info = await get(`/api/rooms/${this.roomId}`);
      this.render();
    } catch {
      /* a finished room may be gone from memory: keep the last info */
    }
  }

  seatName(i) {
    if (i === this.seat) return t("seat.you");
    const players = (this.info && this.info.players) || [];
    const name = players[i];
    if (name === "bot") return `${t("seat.bot")} ${i + 1}`;
    return name || t("seat.n", { n: i + 1 });
  }

  remaining(seat) {
    const timer = (this.timers || []).find((x) => x.seat === seat);
    if (!timer) return null;
    const left = timer.remaining - (performance.now() - this.timersAt) / 1000;
    return { left: Math.max(0, left), limit: timer.limit };
  }

  tick() {
    for (const el of this.root.querySelectorAll("[data-timer-seat]")) {
      const r = this.remaining(Number(el.dataset.timerSeat));
      if (!r) continue;
      const bar = el.querySelector(".bar");
      if (bar) bar.style.width = `${(100 * r.left) / (r.limit || 1)}%`;
      const text = el.querySelector(".secs");
      if (text) text.textContent = t("timer.seconds", { s: Math.ceil(r.left) });
      el.classList.toggle("urgent", r.left < LOW_TIME);
      const mine = Number(el.dataset.timerSeat) === this.seat;
      const key = `${this.game}:${this.view ? (this.view.to_act || []).join() : ""}:${r.limit}`;
      if (mine && r.left < LOW_TIME && r.left > 0 && this.beeped !== key) {
        this.beeped = key;
        sound("tick");
      }
    }
    if (this.handOver && this.revealAt && performance.now() >= this.revealAt) {
      this.revealAt = 0;
      this.render();
    }
    this.dissolve.tick(this.root);
    const next = this.root.querySelector("#next-hand");
    if (next && this.nextAt) {
      next.textContent = t("room.next_hand", { s: Math.max(0, Math.ceil((this.nextAt - performance.now()) / 1000)), word: this.handWord() });
    }
  }

  /** The 新手教程 offer on a player's first room of a game (kept until answered): a note
   * with its two buttons between hands, a chip among the table's tools (``chip``) while a
   * hand is played, where it takes none of the hand's room. */
  learnOffer(chip) {
    const family = this.variant ? this.variant.family : "";
    if (this.seat === null || this.seat === undefined || this.offerDone) return null;
    const key = `${chip ? "chip" : "note"}|${lang()}`;
    if (!this.offerEl || this.offerKey !== key) {
      const offer = chip ? tutorialChip : tutorialOffer;
      this.offerEl = offer(family, `room/${this.roomId}`, () => {
        this.offerDone = true;
        this.render();
      });
      this.offerKey = key;
    }
    if (!this.offerEl) this.offerDone = true;
    return this.offerEl;
  }

  /** Voice and motion of an update (feel.js), and the 麻将 river's latest discard. */
  feel(events, view) {
    const family = this.variant ? this.variant.family : "";
    feelUpdate(family, events, view, (i) => this.seatName(i));
    const discard = [...(events || [])].reverse().find((e) => e.type === "discarded");
    if (discard) this.local.latestDiscard = { seat: discard.seat, tile: discard.tile };
  }

  ctx() {
    return {
      view: this.view,
      legal: this.legal,
      kept: this.kept,
      seat: this.seat,
      game: this.game,
      info: this.info,
      variant: this.variant,
      events: this.events,
      handOver: this.handOver,
      local: this.local,
      act: (action) => this.act(action),
      draft: (action) => this.draft(action),
      seatName: (i) => this.seatName(i),
      rerender: () => this.render(),
      roomId: this.roomId,
      prefs: prefs(),
    };
  }

  render() {
    if (!this.info) return;
    if (this.archived) {
      this.renderFinished();
      return;
    }
    this.renderLater = this.dragging;
    if (this.dragging) return;
    const root = [];
    const info = this.info;
    const family = this.variant ? this.variant.family : "generic";
    this.root.className = `room family-${family}${this.view ? ` phase-${this.view.phase}` : ""}`;
    const header = h(
      "div",
      { class: "room-head" },
      h("a", { href: "#/", class: "back" }, "←"),
      h("strong", { class: "room-title", title: t("room.code", { code: info.code, name: titleOf(info) }) }, t("room.code", { code: info.code, name: titleOf(info) })),
      this.handNo ? h("span", { class: "chip" }, this.handLabel(this.handNo)) : null,
      this.seat === null ? h("span", { class: "chip" }, t("room.spectating")) : null,
      h(
        "span",
        { class: `conn ${this.connected ? "on" : "off"}`, id: "conn", title: this.connected ? t("room.connected") : t("room.reconnecting") },
        this.connected ? "●" : t("room.reconnecting"),
      ),
      this.seat !== null && info.status === "playing"
        ? h("button", { class: "ghost small-button", id: "leave-room", onclick: () => this.leave(t("room.leave_confirm")) }, t("room.leave"))
        : null,
      this.dissolve.button(),
    );
    root.push(header);
    const vote = this.dissolve.panel();
    if (vote) root.push(vote);
    // while a hand is played the offer is a chip among the table's tools (it never takes
    // the hand's room on a phone); once the hand's result is up it waits below it, smaller:
    // it never pushes the result off a phone's screen, and stays until it is answered
    const playing = Boolean(this.view && !this.handOver);
    const offer = this.learnOffer(playing);
    const offerAfter = Boolean(offer && this.view && this.handOver);
    if (offer && !playing) offer.classList.toggle("after-result", offerAfter);
    if (offer && !playing && !offerAfter) root.push(offer);
    if (!this.view) {
      const near = this.nearby.panel();
      if (near) root.push(near);
      root.push(this.summary && info.status === "finished" ? this.summaryPanel() : this.waitingPanel());
      patchChildren(this.root, root);
      return;
    }
    const ctx = this.ctx();
    const parts = this.table.render(ctx);
    const n = this.seatCount();
    const felt = h("div", { class: `felt seats-${n}`, id: "felt" });
    felt.appendChild(h("div", { class: "felt-center", id: "table-center" }, parts.center || null));
    for (let i = 0; i < n; i++) felt.appendChild(this.seatEl(i, n, ctx));

    root.push(felt);
    const auto = this.seat !== null && this.control[this.seat] === "tuoguan";
    if (auto) {
      root.push(
        h(
          "div",
          { class: "tuoguan-banner", id: "tuoguan" },
          h("span", {}, t("tuoguan.banner")),
          h("button", { class: "primary", id: "tuoguan-cancel", onclick: () => this.send({ type: "resume", id: ++this.msgId }) }, t("tuoguan.cancel")),
        ),
      );
    }
    root.push(this.turnLine());
    // the player's own cards first, then the result (a phone shows the cards without scrolling)
    if (parts.mine) root.push(h("section", { class: "mine", id: "mine" }, parts.mine));
    // the result waits for the reveal, and for 搓牌 (the table squeezing one's own cards)
    if (this.handOver && !this.revealAt && !this.local.squeezing) {
      root.push(this.settlementPanel());
      if (this.summary && info.status === "finished") root.push(this.summaryPanel());
    }
    if (offerAfter) root.push(offer);
    // the deal's commitment (a long hash) one tap away, not spelled out under every table
    // (opened, it stays open when the table is drawn again, say in the other language,
    // until the next deal brings another hash)
    if (this.commitment) {
      const shown = this.root.querySelector(":scope > #commitment");
      const open = !!shown && shown.open && shown.dataset.commitment === this.commitment;
      root.push(
        h(
          "details",
          { class: "commitment muted", id: "commitment", open, dataset: { commitment: this.commitment } },
          h("summary", {}, t("room.commitment_short")),
          h("p", {}, t("room.commitment", { c: this.commitment })),
        ),
      );
    }
    this.keepFelt(root, felt, playing ? offer : null);
    patchChildren(this.root, root);
    this.tick();
    // the 总结算, when the match ends, is brought into view once (below the felt it may be
    // off a desktop's screen); after that the player scrolls as they please
    const summary = this.root.querySelector("#match-summary");
    if (summary && this.summaryShown !== summary.dataset.room) {
      this.summaryShown = summary.dataset.room;
      summary.scrollIntoView({ block: "nearest" });
    }
  }

  /** ⚙ and 快捷语 in the felt's corner (they take no room of the page's layout), with the
   * 新手教程 chip while it is offered, one element kept across renders: the felt on the
   * page is patched in place rather than replaced, so a tap on them is never lost to a
   * redraw of the seats. */
  keepFelt(root, felt, chip) {
    const seated = this.seat !== null && this.seat !== undefined;
    const chatEl = this.chat.button();
    if (!this.toolsEl || this.toolsKey !== `${seated}|${lang()}` || this.toolsChat !== chatEl) {
      this.toolsPrefs = this.prefsBox();
      this.toolsEl = h("div", { class: "table-tools", id: "table-tools" });
      this.toolsKey = `${seated}|${lang()}`;
      this.toolsChat = chatEl;
    }
    // the chip comes and goes with the hands; an open ⚙ menu stays open meanwhile
    const tools = [chip, this.toolsPrefs, chatEl].filter(Boolean);
    if (tools.length !== this.toolsEl.children.length || tools.some((el, i) => this.toolsEl.children[i] !== el)) {
      this.toolsEl.replaceChildren(...tools);
    }
    const old = this.root.querySelector(":scope > #felt");
    if (old && old.className === felt.className) {
      patchChildren(old, [...felt.children, this.toolsEl]);
      root[root.indexOf(felt)] = old;
    } else felt.appendChild(this.toolsEl);
  }

  seatCount() {
    return (this.info && this.info.seats) || (this.control || []).length;
  }

  seatEl(i, n, ctx) {
    const base = this.seat === null ? 0 : this.seat;
    const acting = this.view && (this.view.to_act || []).includes(i) && !this.handOver;
    const control = this.control[i] || "open";
    const banker = this.view && this.view.banker === i;
    const timer = this.remaining(i);
    return h(
      "div",
      {
        class: `seat${acting ? " acting" : ""}${i === this.seat ? " me" : ""} ctl-${control}`,
        style: seatStyle(i, n, base),
        dataset: { seat: i, side: seatSide(i, n, base), place: seatPlace(i, n, base), offset: seatOffset(i, n, base) },
      },
      h(
        "div",
        { class: "seat-name" },
        banker ? h("span", { class: "badge banker" }, t("seat.banker")) : null,
        h("span", {}, this.seatName(i)),
      ),
      // a bot's seat is named 机器人 N already: its badge says only what a person's seat has
      control !== "player" && !(control === "bot" && ((this.info && this.info.players) || [])[i] === "bot")
        ? h("span", { class: `badge ctl ${control}` }, t(`control.${control}`))
        : null,
      timer ? h("div", { class: "timer", dataset: { timerSeat: i } }, h("div", { class: "bar" }), h("span", { class: "secs" })) : null,
      this.table.seatExtra ? this.table.seatExtra(ctx, i) : null,
      lastCardsBadge(this.variant ? this.variant.family : "", this.view, i, this.seatName(i)),
      this.chat.bubble(i),
    );
  }

  turnLine() {
    const view = this.view;
    let text;
    let mine = false;
    if (this.handOver) text = "";
    else if (this.seat !== null && (view.to_act || []).includes(this.seat)) {
      text = t("turn.you");
      mine = true;
    } else if ((view.to_act || []).length) {
      text = t("turn.waiting", { who: view.to_act.map((s) => this.seatName(s)).join(t("list.sep")) });
    } else if (this.actingHidden && view.phase !== "over") text = t("turn.others");
    else text = t("turn.all_done");
    const timer = this.seat !== null && mine ? this.remaining(this.seat) : null;
    return h(
      "div",
      { class: `turn${mine ? " mine" : ""}`, id: "turn" },
      h("span", {}, text),
      timer ? h("span", { class: "timer inline", dataset: { timerSeat: this.seat } }, h("span", { class: "secs" }), h("div", { class: "bar" })) : null,
    );
  }

  settlementPanel() {
    const over = this.handOver;
    const mine = this.seat === null ? null : over.deltas[this.seat];
    // a game whose hand scores something else than 积分 (打弹子's deal points and the
    // match score) names its own columns; else the settlement's score
    const columns = (this.table.settleColumns && this.table.settleColumns(this.ctx(), over)) || [
      { key: "score", head: t("settle.score"), values: over.scores.map((x) => signed(x)) },
    ];
    const rows = over.scores.map((score, i) =>
      h(
        "tr",
        { dataset: { seat: i, score }, class: i === this.seat ? "me" : "" },
        h("td", {}, this.seatName(i)),
        ...columns.map((c) => h("td", { class: c.key }, c.values[i] ?? "")),
        h("td", { class: `delta ${over.deltas[i] > 0 ? "win" : over.deltas[i] < 0 ? "loss" : ""}`, dataset: { delta: over.deltas[i] } }, signed(over.deltas[i])),
      ),
    );
    return h(
      "section",
      { class: "settlement panel", id: "settlement", dataset: { game: over.game } },
      h("h2", {}, t("settle.title")),
      mine === null
        ? null
        : h(
            "p",
            { class: `verdict ${mine > 0 ? "win" : mine < 0 ? "loss" : ""}`, id: "verdict" },
            (mine === 0 && this.table.verdictText && this.table.verdictText(this.ctx(), over)) ||
              (mine > 0 ? t("settle.you_win", { n: mine }) : mine < 0 ? t("settle.you_lose", { n: -mine }) : t("settle.even")),
          ),
      h(
        "table",
        {},
        h("thead", {}, h("tr", {}, h("th", {}, t("settle.seat")), ...columns.map((c) => h("th", { class: c.key }, c.head)), h("th", {}, t("settle.delta")))),
        h("tbody", {}, rows),
      ),
      this.session && this.seat !== null
        ? h(
            "p",
            { class: `session ${this.session.total > 0 ? "win" : this.session.total < 0 ? "loss" : ""}`, id: "session-total" },
            t("settle.session", { n: signed(this.session.total), hands: this.session.hands, ...this.handWords(this.session.hands) }),
          )
        : null,
      // the result's actions stay in view (a bar at the foot of the screen): no scrolling
      // down past one's own cards to 继续 after a hand
      h(
        "div",
        { class: "buttons result-bar", id: "result-bar" },
        over.room_finished
          ? this.summary
            ? null
            : h("a", { class: "button primary", href: "#/" }, t("room.lobby"))
          : this.seat !== null && !this.continued && (over.waiting || []).includes(this.seat)
            ? h("button", { class: "primary", id: "continue", onclick: () => this.continueHand() }, t("room.continue"))
            : null,
        h("a", { class: "button", href: `#/replay/${over.game}`, id: "replay-link" }, t("room.replay")),
        over.room_finished ? null : h("span", { class: "muted", id: "next-hand" }),
      ),
      !over.room_finished && (over.waiting || []).length
        ? h("p", { class: "muted small", id: "waiting-continue" }, t("room.waiting_continue", { who: over.waiting.map((s) => this.seatName(s)).join(t("list.sep")) }))
        : null,
      over.room_finished && !this.summary ? h("p", { class: "muted" }, t("room.finished")) : null,
    );
  }

  /** The game's word for a hand (局; 打弹子's 盘), from the room's match info. */
  handWord() {
    const words = (this.info && this.info.match && this.info.match.hand_word) || ["局", "hand"];
    return lang() === "zh" ? words[0] : words[1];
  }

  /** The hand word for a count of them: {word}, and {words} (English plural but for 1). */
  handWords(n) {
    const word = this.handWord();
    return { word, words: lang() === "zh" || n === 1 ? word : `${word}s` };
  }

  /** "第 3/8 局" where the room's length is counted in hands (its ``hands``, else the
   * game's match of so many hands), "第 3 局" where it is not (麻将's 圈, 打弹子's 30). */
  handLabel(n) {
    const word = this.handWord();
    const match = (this.info && this.info.match) || {};
    const total = match.hands || (match.option === "hands" ? match.length : null);
    const Word = word.charAt(0).toUpperCase() + word.slice(1);
    return total ? t("room.hand_of_total", { n, total, word, Word }) : t("room.hand_word", { n, word, Word });
  }

  /** 再来一局 opened the next room: a player of this table moves there (a spectator
   * gets a link in the summary). */
  followNextRoom(next) {
    if (!next) {
      if (this.info && this.info.status === "finished") this.sawMatchEnd = true;
      return;
    }
    // only a next room opened while this table is on screen (not an old room revisited)
    if (this.seat === null || this.followed === next || !(this.sawMatchEnd || this.askedAgain)) return;
    this.followed = next;
    location.hash = `#/room/${next}`;
  }

  /** 再来一局: ask the server for the next match at this table. */
  playAgain() {
    this.askedAgain = true;
    this.send({ type: "again", id: ++this.msgId });
    this.render();
  }

  /** 总结算: the whole match - each seat's total and hands won, the 大赢家 - with
   * 再来一局 and 回大厅. */
  summaryPanel() {
    const sum = this.summary;
    const word = this.handWord();
    const Word = word.charAt(0).toUpperCase() + word.slice(1);
    const nameAt = (line) => (line.seat === this.seat ? t("seat.you") : line.name === "bot" || !line.name ? this.seatName(line.seat) : line.name);
    const winners = sum.seats.filter((line) => line.winner);
    const rows = sum.seats.map((line) =>
      h(
        "tr",
        { dataset: { seat: line.seat }, class: `${line.seat === this.seat ? "me" : ""}${line.winner ? " winner" : ""}` },
        h("td", { class: "who" }, nameAt(line), line.winner ? [" ", h("span", { class: "badge big-winner" }, `★ ${t("summary.winner")}`)] : null),
        h("td", { class: `total ${line.total > 0 ? "win" : line.total < 0 ? "loss" : ""}`, dataset: { total: line.total } }, signed(line.total)),
        h("td", { class: "won", dataset: { won: line.won } }, String(line.won)),
      ),
    );
    const mineWins = this.seat !== null && winners.some((line) => line.seat === this.seat);
    return h(
      "section",
      { class: "match-summary panel", id: "match-summary", dataset: { room: sum.room } },
      h("h2", {}, t("summary.title"), h("span", { class: "muted small" }, ` · ${t("summary.hands", { n: sum.hands, ...this.handWords(sum.hands) })}`)),
      h(
        "p",
        { class: `verdict ${mineWins ? "win" : ""}`, id: "summary-winner" },
        mineWins ? t("summary.you_win") : winners.length ? t("summary.winners", { who: winners.map(nameAt).join(t("list.sep")) }) : t("summary.no_winner"),
      ),
      sum.cut_short ? h("p", { class: "muted small", id: "summary-cut" }, t("summary.cut_short", { word })) : null,
      sum.ended_by_vote ? h("p", { class: "muted small", id: "summary-vote" }, t("dissolve.summary")) : null,
      h(
        "table",
        {},
        h("thead", {}, h("tr", {}, h("th", {}, t("summary.player")), h("th", {}, t("summary.total")), h("th", {}, t("summary.won", { word, Word })))),
        h("tbody", {}, rows),
      ),
      h(
        "div",
        { class: "buttons" },
        sum.next_room
          ? h("a", { class: "button primary", href: `#/room/${sum.next_room}`, id: "next-room" }, t("summary.next_room"))
          : this.seat !== null && !this.archived
            ? h("button", { class: "primary", id: "again", disabled: !!this.askedAgain, onclick: () => this.playAgain() }, this.askedAgain ? t("summary.asked") : t("summary.again"))
            : null,
        h("a", { class: "button", href: "#/", id: "summary-lobby" }, t("room.lobby")),
      ),
    );
  }

  async invite() {
    const url = `${location.origin}${location.pathname}#/room/${this.roomId}`;
    try {
      await navigator.clipboard.writeText(url);
      toast(t("room.invite_copied", { url }));
    } catch {
      window.prompt(t("room.invite_hint"), url);
    }
  }

  ready(value) {
    this.send({ type: "ready", ready: value, id: ++this.msgId });
  }

  waitingPanel() {
    const info = this.info;
    const ready = info.ready || [];
    const seats = info.players.map((p, i) =>
      h(
        "li",
        { dataset: { seat: i }, class: i === this.seat ? "me" : "" },
        `${t("seat.n", { n: i + 1 })}: `,
        i === this.seat ? t("seat.you") : p === "bot" ? t("seat.bot") : p || t("seat.open"),
        p ? seatRating(info.code, (info.seat_players || [])[i], { bot: p === "bot", level: (info.options || {}).level }) : null,
        p && p !== "bot" && ready.length ? h("span", { class: `ready-mark ${ready[i] ? "on" : ""}` }, ready[i] ? ` ✔ ${t("room.ready_done")}` : ` … ${t("room.not_ready")}`) : null,
      ),
    );
    const mineReady = this.seat !== null && ready[this.seat];
    const canJoin = this.seat === null && info.status === "waiting" && info.control.includes("open");
    return h(
      "section",
      { class: "panel waiting", id: "waiting" },
      h("h2", {}, info.status === "finished" ? t("room.finished") : t("room.waiting")),
      h("ul", { class: "seat-list" }, seats),
      this.joinRefused
        ? h(
            "p",
            { class: "lasting-alert", id: "join-refused", role: "alert" },
            h("span", {}, t("room.join_refused", { m: this.joinRefused })),
            h("button", { class: "ghost small-button", onclick: () => ((this.joinRefused = null), this.render()) }, "×"),
          )
        : null,
      info.status === "waiting" && info.invite
        ? h(
            "p",
            { class: "invite-line", id: "invite-line" },
            h("span", {}, `${t("room.invite_code")} `),
            h("strong", { class: "invite-code", id: "invite-code", dataset: { code: info.invite } }, info.invite),
            h("small", { class: "muted" }, ` ${t("room.invite_code_hint")}`),
          )
        : null,
      matesPanel(this),
      h(
        "div",
        { class: "buttons" },
        canJoin ? h("button", { class: "primary", onclick: () => this.join() }, t("room.join")) : null,
        this.seat !== null && info.status === "waiting" && ready.length && !this.isOwner()
          ? h("button", { class: mineReady ? "ghost" : "primary", id: "ready", onclick: () => this.ready(!mineReady) }, mineReady ? t("room.unready") : t("room.ready"))
          : null,
        info.status === "waiting" ? h("button", { class: "ghost", id: "invite-wait", onclick: () => this.invite() }, t("room.invite")) : null,
        info.status === "waiting" && this.isOwner()
          ? h("button", { class: "primary", id: "start-now", onclick: () => this.start() }, t("room.start"))
          : null,
        this.seat !== null && info.status === "waiting"
          ? h("button", { class: "ghost", onclick: () => this.leave() }, t("room.leave"))
          : null,
      ),
    );
  }

  isOwner() {
    const owner = this.info && this.info.owner;
    return owner !== undefined && owner !== null ? owner === this.who.id : ownedRooms().has(this.roomId);
  }

  async start() {
    try {
      this.info = await post(`/api/rooms/${this.roomId}/start`, {});
      this.render();
    } catch (exc) {
      toast(t("err.generic", { m: exc.message }), "error");
    }
  }

  async join() {
    try {
      await post(`/api/rooms/${this.roomId}/join`, await joinBody(this.info));
      this.joinRefused = null;
      if (this.ws) this.ws.close(1000, "rejoin");
    } catch (exc) {
      // a seat taken a moment before (or the room started): said until dismissed, not flashed
      this.joinRefused = exc.message;
      this.render();
    }
  }

  async leave(question) {
    if (question && !window.confirm(question)) return;
    try {
      await post(`/api/rooms/${this.roomId}/leave`, {});
      location.hash = "#/";
    } catch (exc) {
      toast(t("err.generic", { m: exc.message }), "error");
    }
  }
}
