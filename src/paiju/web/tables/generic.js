// The generic table: any family's view, its cards drawn, and its legal actions as buttons.

import { cardsEl } from "../js/cards.js";
import { h } from "../js/dom.js";
import { phaseName, t } from "../js/i18n.js";

const CARD_TEXT = /^((?:[2-9TJQKA][shcd]|BJ|RJ)(?:\s+|$))+$/;

export function createOptions() {
  return [];
}

function valueEl(value) {
  if (typeof value === "string" && value.trim() && CARD_TEXT.test(value.trim())) return cardsEl(value, { small: true });
  if (Array.isArray(value)) return h("span", {}, value.map((v) => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v))).join(", "));
  if (value !== null && typeof value === "object") return h("code", {}, JSON.stringify(value));
  return h("span", {}, value === null ? "—" : String(value));
}

export function actionLabel(action) {
  const rest = Object.entries(action)
    .filter(([k]) => k !== "type")
    .map(([k, v]) => `${k} ${v}`)
    .join(" · ");
  return rest ? `${action.type}: ${rest}` : action.type;
}

export function render(ctx) {
  const view = ctx.view;
  const rows = Object.entries(view)
    .filter(([k]) => !["code", "seat", "to_act"].includes(k))
    .map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, valueEl(v))));
  const center = h("div", { class: "generic-center" }, h("div", { class: "chip" }, phaseName(view.phase)));
  const legal = ctx.legal || [];
  const mine = h(
    "div",
    { class: "generic" },
    h("h3", {}, t("generic.legal")),
    legal.length
      ? h(
          "div",
          { class: "legal-actions" },
          legal.map((a) => h("button", { class: "action", dataset: { action: JSON.stringify(a) }, onclick: () => ctx.act(a) }, actionLabel(a))),
        )
      : h("p", { class: "muted" }, t("generic.none")),
    h("h3", {}, t("generic.view")),
    h("table", { class: "view-table" }, h("tbody", {}, rows)),
  );
  return { center, mine };
}

export function seatExtra() {
  return null;
}
