// The player's own 复盘 summary on the 积分 page: over their last N hands
// (GET /api/players/{id}/review-summary?n=N), per game the share of decisions that matched
// the AI, the points lost per reviewed hand to the marked mistakes, and the hands reviewed
// of those played; the hands not reviewed yet are pending (the server starts them), and a
// button asks again.

import { get } from "./api.js";
import { clear, h } from "./dom.js";
import { nameOf, t } from "./i18n.js";
import { loadCatalog } from "./catalog.js";
import { points } from "./review.js";
import "./review-strings.js";

const SIZES = [10, 20, 50, 100];

/** A share as a whole percent ("—" before any decision is reviewed). */
function share(x) {
  return x === null || x === undefined ? "—" : `${Math.round(100 * x)}%`;
}

/** Points lost per hand, shown as the review shows a loss ("—" before any review). */
function lost(x) {
  return x === null || x === undefined ? "—" : points(-x);
}

function row(label, figures, dataset) {
  return h(
    "tr",
    { dataset: { ...dataset, share: figures.matched_share ?? "", lossPerHand: figures.mistake_loss_per_hand ?? "", reviewed: figures.reviewed_hands, hands: figures.hands } },
    h("td", {}, label),
    h("td", { class: "num" }, share(figures.matched_share)),
    h("td", { class: "num" }, lost(figures.mistake_loss_per_hand)),
    h("td", { class: "num" }, `${figures.reviewed_hands}/${figures.hands}`),
  );
}

function table(found, name) {
  const codes = Object.keys(found.games || {});
  return h(
    "table",
    {},
    h("thead", {}, h("tr", {}, h("th", {}, t("rec.game")), h("th", { class: "num" }, t("rs.matched")), h("th", { class: "num" }, t("rs.loss")), h("th", { class: "num" }, t("rs.reviewed")))),
    h(
      "tbody",
      {},
      codes.map((code) => row(name(code), found.games[code], { code })),
      codes.length > 1 ? row(t("rs.all"), found.all, { code: "all", all: "1" }) : null,
    ),
  );
}

/** The section of the player's own review summary (null for no player). */
export function myReviewSummary(who) {
  if (!who) return null;
  let n = 20;
  const body = h("div", { id: "my-review-body", "aria-live": "polite" });
  const pick = h(
    "select",
    { id: "my-review-n", "aria-label": t("rs.last") },
    SIZES.map((k) => h("option", { value: k, selected: k === n }, t("rs.n", { n: k }))),
  );
  const again = h("button", { class: "ghost", id: "my-review-again", type: "button" }, t("rs.again"));
  const section = h(
    "section",
    { class: "rs-mine", id: "my-review" },
    h("h2", {}, t("rs.title")),
    h("div", { class: "rs-controls" }, h("label", {}, t("rs.last"), " ", pick), again),
    body,
    h("p", { class: "muted small" }, t("rs.about")),
  );
  const show = async () => {
    again.disabled = true;
    clear(body);
    body.appendChild(h("p", { class: "muted" }, t("rs.loading")));
    let found;
    const variants = await loadCatalog().catch(() => []);
    try {
      found = await get(`/api/players/${who.id}/review-summary?n=${n}`);
    } catch (exc) {
      clear(body);
      body.appendChild(h("p", { class: "error", id: "my-review-error" }, exc.message));
      again.disabled = false;
      return;
    }
    const name = (code) => {
      const v = variants.find((x) => x.code === code);
      return v ? nameOf(v) : code;
    };
    clear(body);
    section.dataset.pending = found.pending;
    section.dataset.hands = found.hands;
    if (!found.hands) {
      body.appendChild(h("p", { class: "muted", id: "my-review-empty" }, t("rs.empty")));
    } else {
      body.appendChild(table(found, name));
      if (found.pending) body.appendChild(h("p", { class: "muted", id: "my-review-pending" }, t("rs.pending", { n: found.pending })));
    }
    again.disabled = false;
  };
  pick.addEventListener("change", () => {
    n = Number(pick.value);
    show();
  });
  again.addEventListener("click", show);
  show();
  return section;
}
