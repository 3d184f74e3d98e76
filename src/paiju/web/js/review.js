// 复盘 on the replay page: the AI review of one seat's decisions in a finished hand
// (GET /api/games/{id}/review?seat=S). The marked mistakes come first, the costliest
// first, each a sentence in the reader's language with the cards or tiles drawn as the
// replay's log draws them; a tap on a line steps the replay to that move. A summary line
// follows: the share of decisions that matched the AI and the points lost in the hand.
// A full review queue (429, 503) says when to come back. Where a game's decision is valued
// exactly (宝子, 佳佳宝) or against the whole field (十三张), a line under it says how, with
// the chances and both expectations.

import { get } from "./api.js";
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";
import "./review-strings.js";
import { actionLine } from "../tables/lines.js";

/** A point value as the review shows it: one decimal, a true minus sign; a half rounds
 * away from zero either way (Math.round alone took −41.35 to −41.3 but +41.35 to +41.4). */
export function points(x) {
  const n = Number(x);
  const v = Math.round(Math.abs(n) * 10) / 10;
  if (v === 0) return "0";
  return n < 0 ? `−${v.toFixed(1)}` : `+${v.toFixed(1)}`;
}

/** A chance written "p/q" (or a number) as a percentage: "49.7%". */
export function percent(x) {
  const [p, q] = String(x).split("/").map(Number);
  const v = q ? p / q : Number(x);
  return `${(100 * v).toFixed(1)}%`;
}

/** Three decimals with a true minus sign (an expectation per unit bet). */
function fine(x) {
  const v = Number(x);
  if (Math.abs(v) < 0.0005) return "0.000";
  return v < 0 ? `−${Math.abs(v).toFixed(3)}` : `+${v.toFixed(3)}`;
}

/** How a decision was valued, for the games valued exactly or against the whole field
 * (宝子 and 佳佳宝 bets against the exact odds, 佳佳宝 groupings against every hand the
 * banker may hold, 十三张 arrangements settled against sampled deals of the others'
 * hands): one line, or null for the search's own review. */
export function valuedLine(d) {
  if (d.method !== "exact" && d.method !== "field") return null;
  const facts = d.facts || {};
  const parts = [];
  if (facts.odds) {
    const o = facts.odds;
    const vars = { w: percent(o.win), p: percent(o.push), l: percent(o.loss), e: fine(o.expected), n: o.samples };
    parts.push(t(o.method === "exact" ? "rv.odds" : "rv.odds_mc", vars));
  } else if (d.method === "exact") {
    const mine = (d.candidates || []).find((c) => JSON.stringify(c.action) === JSON.stringify(d.played));
    const f = (mine && mine.facts) || {};
    const key = facts.against === "each player" ? "rv.groups_banker" : "rv.groups";
    parts.push(t(key, { n: Number(facts.hands || 0).toLocaleString("en-US"), w: percent(f.win), p: percent(f.push), l: percent(f.loss) }));
  } else {
    parts.push(t("rv.field", { n: d.worlds, se: Number(facts.loss_stderr || 0).toFixed(1) }));
  }
  parts.push(t("rv.values", { mine: points(d.value_played), best: points(d.value_best) }));
  return h("div", { class: "rv-valued", dataset: { method: d.method } }, parts.join(t("rv.sep")));
}

/** The seat the signed-in player held in this game: by the 战绩 of the player (which lists
 * the game ids of every hand played), else by the display name the table showed. */
export async function ownSeat(gameId, record, who) {
  const id = Number(gameId);
  const mine = await get("/api/players/me/record").catch(() => null);
  for (const room of (mine && mine.rooms) || []) {
    if ((room.hands || []).some((hand) => Number(hand.game) === id)) {
      const hand = room.hands.find((x) => Number(x.game) === id);
      return hand.seat ?? room.seat;
    }
  }
  if (!who) return null;
  const names = record.names || [];
  const bots = record.bots || [];
  const seats = names.map((n, i) => (n === who.name && !bots[i] ? i : null)).filter((i) => i !== null);
  return seats.length === 1 ? seats[0] : null;
}

/**
 * The 复盘 button and its panel.
 * opts: {gameId, family, seatName(i), before(i) (the view before action i),
 *        seat() (async: the seat to review, or null; asked at the first tap), go(step)}
 */
export function reviewPanel(opts) {
  const box = h("section", { class: "panel review", id: "review" });
  const button = h("button", { class: "primary", id: "review-open", onclick: () => load() }, t("rv.button"));
  box.appendChild(h("div", { class: "buttons" }, button));
  const body = h("div", { class: "review-body", id: "review-body" });
  box.appendChild(body);

  let seat = null;
  async function load() {
    button.disabled = true;
    if (seat === null) seat = await opts.seat();
    button.disabled = false;
    clear(body);
    if (seat === null || seat === undefined) {
      body.appendChild(h("p", { class: "muted", id: "review-error" }, t("rv.seat_unknown")));
      return;
    }
    button.disabled = true;
    body.appendChild(h("p", { class: "muted", id: "review-loading" }, t("rv.loading")));
    let answer;
    try {
      answer = await get(`/api/games/${opts.gameId}/review?seat=${seat}`);
    } catch (exc) {
      button.disabled = false;
      clear(body);
      let text = exc.message;
      if (exc.status === 429 || exc.status === 503) text = exc.retryAfter ? t("rv.busy", { s: exc.retryAfter }) : t("rv.busy_now");
      else if (exc.code === "in_play") text = t("rv.in_play");
      body.appendChild(h("p", { class: "lasting-alert", id: "review-error", role: "alert", dataset: { status: exc.status } }, text));
      return;
    }
    button.disabled = false;
    draw(answer, seat);
  }

  function line(d, seat) {
    const you = () => t("rv.you");
    const ai = () => t("rv.ai");
    const before = opts.before(d.index);
    const played = actionLine({ family: opts.family, action: d.played, seat, who: you, before });
    const parts = [h("span", { class: "rv-step" }, t("rv.step", { n: d.index + 1 })), played];
    if (d.matched || d.loss <= 0) {
      parts.push(h("span", { class: "rv-same" }, t(d.matched ? "rv.same" : "rv.as_good")));
    } else {
      parts.push(h("span", {}, t("rv.prefers")), actionLine({ family: opts.family, action: d.best, seat, who: ai, before }));
      parts.push(h("span", {}, " "), h("b", { class: "rv-loss" }, t("rv.loss", { x: points(-d.loss) })));
    }
    return h(
      "li",
      {
        class: `rv-line${d.mistake ? " mistake" : ""}`,
        dataset: { index: d.index, loss: d.loss, mistake: d.mistake ? "1" : "0" },
        tabindex: 0,
        role: "button",
        onclick: () => opts.go(d.index + 1),
        onkeydown: (ev) => {
          if (ev.key === "Enter") opts.go(d.index + 1);
        },
      },
      d.mistake ? h("span", { class: "badge rv-mark" }, t("rv.mark")) : null,
      ...parts,
      valuedLine(d),
    );
  }

  function draw(answer, seat) {
    clear(body);
    const decisions = answer.decisions || [];
    const byIndex = new Map(decisions.map((d) => [d.index, d]));
    const mistakes = (answer.mistakes || []).map((i) => byIndex.get(i)).filter(Boolean);
    const marked = new Set(mistakes.map((d) => d.index));
    const others = decisions.filter((d) => !marked.has(d.index));
    body.appendChild(h("h2", {}, t("rv.title", { who: opts.seatName(seat) })));
    if (!decisions.length) {
      body.appendChild(h("p", { class: "muted", id: "review-none" }, t("rv.none")));
    } else {
      body.appendChild(h("h3", {}, t("rv.mistakes")));
      body.appendChild(
        mistakes.length
          ? h("ol", { class: "rv-list", id: "review-mistakes" }, mistakes.map((d) => line(d, seat)))
          : h("p", { class: "muted", id: "review-no-mistakes" }, t("rv.no_mistakes")),
      );
      if (others.length) {
        body.appendChild(h("h3", {}, t("rv.others")));
        body.appendChild(h("ol", { class: "rv-list", id: "review-others" }, others.map((d) => line(d, seat))));
      }
    }
    const reviewed = answer.reviewed || 0;
    const share = reviewed ? Math.round((100 * (answer.matched || 0)) / reviewed) : 100;
    body.appendChild(
      h(
        "p",
        { class: "rv-summary", id: "review-summary", dataset: { matched: answer.matched, reviewed, loss: answer.loss_per_hand } },
        t("rv.summary", { m: answer.matched || 0, r: reviewed, p: share, x: points(-(answer.loss_per_hand || 0)) }),
      ),
    );
  }

  return box;
}
