// 佳佳宝: bets as in 宝子, then every seat (the banker too) splits its four cards into two
// groups (分组) - front (前) meets front, back (后) meets back; the suggested grouping is a
// one-tap choice when the server offers it.

import { get } from "../js/api.js";
import { cardEl, cardsEl, splitCards } from "../js/cards.js";
import { h } from "../js/dom.js";
import { phaseName, t } from "../js/i18n.js";
import { betPanel, createOptions, readingText, resultLine, seatExtra, seatOf, whyPanel } from "./baozi.js";

export { createOptions, seatExtra };

function loadSuggestions(ctx, local) {
  if (local.suggestions !== undefined) return;
  local.suggestions = null;
  get(`/api/rooms/${ctx.roomId}/suggestions`)
    .then((answer) => {
      local.suggestions = (answer && answer.suggestions) || [];
    })
    .catch(() => {
      local.suggestions = "missing";
    })
    .finally(() => ctx.rerender());
}

function groupPanel(ctx, me) {
  const local = ctx.local;
  if (!local.pick) local.pick = [];
  loadSuggestions(ctx, local);
  const cards = splitCards(me.cards);
  const first = local.pick;
  const second = cards.filter((c, i) => !first.includes(c) || cards.indexOf(c) !== i);
  const ready = first.length === 2;
  const sugg = Array.isArray(local.suggestions) ? local.suggestions : [];
  return h(
    "div",
    { class: "jjb-group", id: "group-panel" },
    sugg.length
      ? h(
          "div",
          { class: "suggestions", id: "suggestions" },
          h("span", { class: "label" }, t("jjb.suggested")),
          h(
            "div",
            { class: "sugg-strip" },
            sugg.slice(0, 3).map((s, i) => {
              const a = splitCards(s.first || s.front);
              const b = splitCards(s.second || s.back);
              const chosen = first.length === 2 && [...first].sort().join() === [...a].sort().join();
              const readings = s.readings || [];
              return h(
                "button",
                {
                  class: `suggestion sugg-card${chosen ? " chosen" : ""}`,
                  dataset: { suggestion: i },
                  "aria-pressed": chosen ? "true" : "false",
                  onclick: () => {
                    local.pick = [...a];
                    ctx.rerender();
                  },
                },
                h(
                  "span",
                  { class: "sugg-head" },
                  h("b", {}, chosen ? `✔ ${i + 1}` : String(i + 1)),
                  typeof s.win === "number" ? h("span", { class: "sugg-score" }, t("jjb.chances", { w: Math.round(s.win * 100), l: Math.round(s.loss * 100) })) : null,
                ),
                [a, b].map((g, k) => h("span", { class: "sugg-row" }, cardsEl(g.join(" "), { small: true }), h("small", { class: "sugg-cat" }, readingText(readings[k])))),
              );
            }),
          ),
        )
      : null,
    h("p", { class: "hint muted" }, t("jjb.hint")),
    h(
      "div",
      { class: "cards hand" },
      cards.map((c) => {
        const el = cardEl(c);
        el.classList.add("pick");
        if (first.includes(c)) el.classList.add("selected");
        el.tabIndex = 0;
        el.addEventListener("click", () => {
          const i = local.pick.indexOf(c);
          if (i >= 0) local.pick.splice(i, 1);
          else if (local.pick.length < 2) local.pick.push(c);
          ctx.rerender();
        });
        return el;
      }),
    ),
    ready
      ? h(
          "div",
          { class: "groups-preview" },
          h("div", { class: "group" }, h("small", {}, t("jjb.group")), cardsEl(first.join(" "), { small: true })),
          h("div", { class: "group" }, h("small", {}, t("jjb.group")), cardsEl(second.join(" "), { small: true })),
        )
      : null,
    h(
      "div",
      { class: "buttons" },
      h(
        "button",
        {
          class: "primary",
          id: "group-submit",
          disabled: !ready,
          onclick: () => ctx.act({ type: "group", first: first.join(" "), second: second.join(" ") }),
        },
        t("jjb.submit"),
      ),
    ),
  );
}

export function render(ctx) {
  const view = ctx.view;
  let mine = null;
  if (ctx.seat !== null) {
    const me = seatOf(view, ctx.seat);
    const myTurn = (view.to_act || []).includes(ctx.seat);
    let body = null;
    if (view.phase === "betting") body = betPanel(ctx);
    else if (view.phase === "grouping" && me && me.cards && myTurn) body = groupPanel(ctx, me);
    else if (me && me.groups) {
      const [front, back] = me.groups.split("/").map((x) => x.trim());
      body = h(
        "div",
        { class: "groups-preview" },
        view.phase === "grouping" ? h("p", { class: "ok-note" }, t("jjb.grouped")) : null,
        h("div", { class: "group" }, h("small", {}, t("jjb.front")), cardsEl(front, { small: true })),
        h("div", { class: "group" }, h("small", {}, t("jjb.back")), cardsEl(back, { small: true })),
        me.reading ? h("p", { class: "reading" }, readingText(me.reading)) : null,
      );
    } else if (me && me.cards) body = cardsEl(me.cards);
    mine = h(
      "div",
      { class: "baozi-mine" },
      me && me.role === "banker" ? h("span", { class: "badge banker" }, t("bz.you_banker")) : null,
      body,
      view.phase === "over" && me && me.role !== "banker" ? h("p", {}, resultLine(ctx, ctx.seat)) : null,
      whyPanel(ctx),
    );
  } else mine = whyPanel(ctx);
  const center = h("div", { class: "baozi-center" }, h("div", { class: "chip" }, phaseName(view.phase)));
  return { center, mine };
}
