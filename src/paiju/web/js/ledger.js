// My ledger (积分): the balance with a chart of it, my ratings, my 复盘 summary
// (review-summary.js), then 战绩 (record.js): per-game statistics and one record per room
// with its hands.

import { get } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { loadCatalog } from "./catalog.js";
import { recordSections } from "./record.js";
import { myRatings } from "./ratings.js";
import { myReviewSummary } from "./review-summary.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** A line chart of the balance after each entry (starting from 0). */
export function balanceChart(entries) {
  const values = [0, ...entries.map((e) => e.balance)];
  const W = 600;
  const H = 200;
  const pad = 28;
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  const span = hi - lo || 1;
  const x = (i) => pad + ((W - 2 * pad) * i) / Math.max(1, values.length - 1);
  const y = (v) => H - pad - ((H - 2 * pad) * (v - lo)) / span;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", id: "balance-chart", role: "img" });
  chart.appendChild(svg("line", { x1: pad, x2: W - pad, y1: y(0), y2: y(0), class: "zero" }));
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  chart.appendChild(svg("polyline", { points, class: "line" }));
  values.forEach((v, i) => chart.appendChild(svg("circle", { cx: x(i), cy: y(v), r: 3, class: v >= 0 ? "up" : "down" })));
  const label = (text, yy) => {
    const el = svg("text", { x: 2, y: yy, class: "axis" });
    el.textContent = text;
    chart.appendChild(el);
  };
  label(String(hi), pad - 6);
  label(String(lo), H - pad + 14);
  return chart;
}

export async function showLedger(main, _args, who = null) {
  let data;
  try {
    data = await get("/api/players/me/ledger");
  } catch (exc) {
    toast(t("err.generic", { m: exc.message }), "error");
    return;
  }
  const entries = data.entries || [];
  const variants = await loadCatalog().catch(() => []);
  const record = await get("/api/players/me/record").catch(() => null);
  const ratings = await myRatings(who);
  main.appendChild(
    h(
      "section",
      { class: "panel ledger", id: "ledger" },
      h("a", { href: "#/", class: "back" }, `← ${t("rules.back")}`),
      h("h1", {}, t("ledger.title")),
      h("p", { class: "balance", id: "balance", dataset: { balance: data.balance } }, t("ledger.balance", { n: data.balance })),
      entries.length ? balanceChart(entries) : h("p", { class: "muted" }, t("ledger.empty")),
      ratings,
      myReviewSummary(who),
      record ? recordSections(record, variants) : null,
    ),
  );
}
