// The replay viewer (回放): a finished game stepped through action by action, with its
// fairness proof - the commitment published before the deal, the seed revealed after it,
// sha256 checked here in the browser, and the server's re-deal/replay checks.

import { get } from "./api.js";
import { clear, h, signed, toast } from "./dom.js";
import { handOf, t, titleOf } from "./i18n.js";
import { findVariant } from "./catalog.js";
import { mySeed, redeal } from "./fairness.js";
import { sha256Hex } from "./sha256.js";
import { seatStyle } from "./felt.js";
import { actionLine, actorNote, itemsEl } from "../tables/lines.js";
import { tableFor } from "../tables/index.js";
import { ownSeat, reviewPanel } from "./review.js";

/** A word of the fairness checks in the player's language (the check's name where none). */
function word(kind, key) {
  const k = `${kind}.${key}`;
  const text = t(k);
  return text === k ? key : text;
}

const ICONS = {
  first: "M6 5h2v14H6zM20 5v14L9 12z",
  prev: "M18 5v14L7 12z",
  next: "M6 5v14l11-7z",
  last: "M16 5h2v14h-2zM4 5v14l11-7z",
};

/** A control's icon as inline SVG (font glyphs like ⏮ are empty boxes without a font). */
function icon(name) {
  return h("span", { class: "icon", html: `<svg viewBox="0 0 24 24" aria-hidden="true"><path d="${ICONS[name]}"/></svg>` });
}

// Where the reader was in the last replay drawn (its game, the seat whose view is shown
// and the step): drawing it again - the language switched - keeps the place.
let kept = { gameId: null, viewer: null, step: null };
window.addEventListener("hashchange", () => {
  kept = { gameId: null, viewer: null, step: null }; // a new visit starts at the end
});

export async function showReplay(main, [gameId], who = null) {
  let record;
  try {
    record = await get(`/api/games/${gameId}`);
  } catch (exc) {
    toast(t("err.generic", { m: exc.message }), "error");
    main.appendChild(h("p", { class: "panel" }, exc.message, " ", h("a", { href: "#/" }, t("room.lobby"))));
    return;
  }
  const variant = await findVariant(record.code);
  const [checks, first, table] = await Promise.all([
    get(`/api/games/${gameId}/verify`).catch((exc) => ({ ok: false, checks: [{ name: "verify", ok: false, detail: exc.message }] })),
    get(`/api/games/${gameId}/replay`).catch(() => null),
    tableFor(variant ? variant.family : ""),
  ]);
  // Per-step views, by the seat whose view is shown (null: the spectator's).
  const stepsBySeat = new Map([[null, first]]);
  let viewer = null;
  let steps = first;
  const seatPicker = h("div", { class: "buttons seat-picker", id: "replay-viewer" });
  const actions = record.actions || [];
  let step = actions.length;
  const place = kept.gameId === gameId ? kept : null;
  if (place && place.step !== null) step = Math.max(0, Math.min(actions.length, place.step));
  const board = h("div", { class: "replay-board", id: "replay-board" });
  const counter = h("span", { class: "chip", id: "replay-step" });
  const go = (i) => {
    step = Math.max(0, Math.min(actions.length, i));
    kept = { gameId, viewer, step };
    draw();
  };
  const controls = h(
    "div",
    { class: "buttons replay-controls" },
    h("button", { id: "replay-first", onclick: () => go(0) }, icon("first"), t("replay.first")),
    h("button", { id: "replay-prev", onclick: () => go(step - 1) }, icon("prev"), t("replay.prev")),
    counter,
    h("button", { id: "replay-next", class: "primary", onclick: () => go(step + 1) }, t("replay.next"), icon("next")),
    h("button", { id: "replay-last", onclick: () => go(actions.length) }, t("replay.last"), icon("last")),
  );
  const bots = record.bots || [];
  const names = record.names || [];
  const family = variant ? variant.family : "";
  // a seat by its player's display name (a bot's seat: 机器人 N), as the table named it
  const seatName = (i) => (bots[i] ? `${t("seat.bot")} ${i + 1}` : names[i] || `${t("seat.n", { n: i + 1 })}`);
  const viewBefore = (i) => {
    const s = steps && Array.isArray(steps.steps) ? steps.steps[i] : null;
    return s ? s.view : null;
  };
  // whether action i was its seat's only legal action (the replay's step after it says)
  const onlyChoice = (i) => {
    const s = steps && Array.isArray(steps.steps) ? steps.steps[i + 1] : null;
    return !!(s && s.only);
  };

  function draw() {
    counter.textContent = t("replay.step", { i: step, n: actions.length });
    clear(board);
    const stepView = steps && Array.isArray(steps.steps) ? steps.steps[step] : null;
    if (stepView && stepView.view) board.appendChild(stepFelt(stepView.view));
    const deal = record.deal || {};
    const hands = deal.hands || [];
    board.appendChild(
      h(
        "section",
        { class: "deal", id: "replay-deal" },
        h("h3", {}, t("replay.deal")),
        hands.map((hand, i) => h("div", { class: "deal-seat", dataset: { seat: i } }, h("span", { class: "who" }, seatName(i)), itemsEl(family, hand, { sort: true }))),
        typeof deal.kitty === "string" && deal.kitty.trim()
          ? h("div", { class: "deal-seat", id: "replay-kitty" }, h("span", { class: "who" }, t("line.kitty")), itemsEl(family, deal.kitty, { sort: true }))
          : null,
        typeof deal.flip === "string" && deal.flip.trim() ? h("div", { class: "deal-seat", id: "replay-flip" }, h("span", { class: "who" }, t("line.flip")), itemsEl(family, deal.flip)) : null,
      ),
    );
    board.appendChild(
      h(
        "section",
        { class: "actions" },
        h("h3", {}, t("replay.actions")),
        h(
          "ol",
          { class: "action-log", id: "action-log" },
          actions.map((a, i) => {
            // a 麻将 window the seat could only 过 in was no decision of its own: no line
            if (family === "majiang" && a.action.type === "pass" && onlyChoice(i)) return null;
            const note = actorNote(a.actor, bots[a.seat]);
            return h(
              "li",
              { class: i < step ? "done" : "todo", dataset: { index: i, seat: a.seat }, onclick: () => go(i + 1) },
              actionLine({ family, action: a.action, seat: a.seat, who: seatName, before: viewBefore(i) }),
              note ? h("small", { class: "who actor-note" }, ` · ${note}`) : null,
            );
          }),
        ),
      ),
    );
    if (step === actions.length && record.settlement) {
      board.appendChild(
        h(
          "section",
          { class: "final", id: "replay-settlement" },
          h("h3", {}, t("replay.settlement")),
          h("p", {}, record.settlement.map((x, i) => `${seatName(i)} ${signed(x)}`).join(" · ")),
        ),
      );
    }
  }

  function stepFelt(view) {
    const n = record.seats;
    const ctx = {
      view,
      legal: null,
      seat: null, // drawn as a spectator: no panel to act, every card the view holds
      game: record.id,
      info: null,
      variant,
      events: [],
      handOver: null,
      local: {},
      act: () => {},
      seatName,
      rerender: () => {},
      roomId: record.room,
    };
    const parts = table.render(ctx);
    const felt = h("div", { class: `felt replay-felt seats-${n}`, id: "replay-felt" });
    felt.appendChild(h("div", { class: "felt-center" }, parts.center || null));
    for (let i = 0; i < n; i++) {
      const acting = Array.isArray(view.to_act) ? view.to_act.includes(i) : view.to_act === true && i === viewer;
      felt.appendChild(
        h(
          "div",
          { class: `seat${acting ? " acting" : ""}${i === viewer ? " me" : ""}`, style: seatStyle(i, n, viewer ?? 0), dataset: { seat: i } },
          h("div", { class: "seat-name" }, view.banker === i ? h("span", { class: "badge banker" }, t("seat.banker")) : null, h("span", {}, seatName(i))),
          table.seatExtra ? table.seatExtra(ctx, i) : null,
        ),
      );
    }
    const hand = typeof view.hand === "string" && view.hand.trim() ? h("div", { class: "viewer-hand" }, h("small", {}, seatName(viewer)), itemsEl(family, view.hand, { sort: true })) : null;
    return h("section", { class: "step-view" }, h("h3", {}, t("replay.state")), felt, hand, parts.mine || null);
  }

  async function pickViewer(seat) {
    if (!stepsBySeat.has(seat)) {
      try {
        stepsBySeat.set(seat, await get(`/api/games/${gameId}/replay${seat === null ? "" : `?seat=${seat}`}`));
      } catch (exc) {
        toast(t("err.generic", { m: exc.message }), "error");
        return;
      }
    }
    viewer = seat;
    steps = stepsBySeat.get(seat);
    kept = { gameId, viewer, step };
    drawPicker();
    draw();
  }

  function drawPicker() {
    clear(seatPicker);
    seatPicker.appendChild(h("span", { class: "label" }, t("replay.viewer")));
    const options = [null, ...Array.from({ length: record.seats }, (_, i) => i)];
    for (const seat of options) {
      seatPicker.appendChild(
        h(
          "button",
          { class: seat === viewer ? "primary" : "ghost", dataset: { viewer: seat === null ? "spectator" : seat }, onclick: () => pickViewer(seat) },
          seat === null ? t("replay.spectator") : seatName(seat),
        ),
      );
    }
  }

  const hashed = sha256Hex(record.seed || "");
  const hashOk = hashed === String(record.commitment || "").toLowerCase();
  const again = redeal(record, variant);
  const dealOk = again.ok !== false;
  const mine = mySeed(record.commitment);
  const seedsShown = (record.client_seeds || []).map((s, i) => `${seatName(i)}: ${s || "—"}`).join(" · ");
  const mineNote =
    mine === null
      ? null
      : h(
          "p",
          { class: (record.client_seeds || []).includes(mine) ? "ok-note" : "foul-warning", id: "my-seed-check" },
          (record.client_seeds || []).includes(mine) ? t("replay.my_seed_ok", { s: mine }) : t("replay.my_seed_bad", { s: mine }),
        );
  const proof = h(
    "section",
    { class: "panel proof", id: "fairness" },
    h("h2", {}, t("replay.fair")),
    h("dl", {}, h("dt", {}, t("replay.commitment")), h("dd", {}, h("code", {}, record.commitment)), h("dt", {}, t("replay.seed")), h("dd", {}, h("code", {}, record.seed))),
    h("p", { class: hashOk ? "ok-note" : "foul-warning", id: "hash-check", dataset: { ok: hashOk } }, hashOk ? t("replay.hash_ok") : t("replay.hash_bad")),
    h("dl", {}, h("dt", {}, t("replay.client_seeds")), h("dd", {}, seedsShown || t("replay.no_client_seeds")), h("dt", {}, t("replay.deal_seed")), h("dd", {}, h("code", {}, again.dealSeed))),
    mineNote,
    h(
      "p",
      { class: dealOk ? "ok-note" : "foul-warning", id: "deal-check", dataset: { ok: again.ok === null ? "unknown" : again.ok } },
      again.ok === null ? t("replay.deal_unknown") : again.ok ? t("replay.deal_ok") : t("replay.deal_bad"),
    ),
    h("h3", {}, t("replay.server_checks")),
    h(
      "ul",
      { class: "checks" },
      (checks.checks || []).map((c) =>
        h("li", { class: c.ok ? "ok" : "bad", dataset: { check: c.name }, title: c.detail }, `${c.ok ? "✔" : "✘"} ${word("check", c.name)}${c.ok ? "" : `: ${c.detail}`}`),
      ),
    ),
    h("p", { class: checks.ok && hashOk && dealOk ? "ok-note" : "foul-warning", id: "fair-verdict" }, checks.ok && hashOk && dealOk ? t("replay.fair_ok") : t("replay.fair_bad")),
  );
  main.appendChild(
    h(
      "div",
      { class: "replay" },
      h("a", { href: "#/", class: "back" }, `← ${t("rules.back")}`),
      h("h1", {}, t("replay.title", { code: variant ? titleOf(variant) : record.code, hand: handOf(variant && variant.family, record.hand_no) })),
      steps ? seatPicker : h("p", { class: "muted small" }, t("replay.views_missing")),
      controls,
      board,
      // 复盘: the player's own seat, or the seat whose view is shown
      reviewPanel({
        gameId,
        family,
        seatName,
        before: viewBefore,
        seat: async () => (await ownSeat(gameId, record, who)) ?? viewer,
        go: (i) => {
          go(i);
          board.scrollIntoView({ block: "start" });
        },
      }),
      proof,
    ),
  );
  kept = { gameId, viewer, step };
  if (steps) drawPicker();
  draw();
  if (steps && place && place.viewer !== null) await pickViewer(place.viewer);
  const keys = (ev) => {
    if (ev.key === "ArrowRight") go(step + 1);
    if (ev.key === "ArrowLeft") go(step - 1);
  };
  window.addEventListener("keydown", keys);
  return () => window.removeEventListener("keydown", keys);
}
