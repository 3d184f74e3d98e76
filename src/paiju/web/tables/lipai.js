// 理牌 in the climbing games: the player puts chosen cards together as a group (a planned
// play: a pair, a run, a bomb) shown apart at the front of the hand; the groups last for
// the hand (kept in sessionStorage by room and hand, so a reload keeps them) and shrink as
// their cards are played. Groups hold card texts (two decks: identical cards are told
// apart by position only while drawn), matched to the hand's positions at each draw.

import { h } from "../js/dom.js";
import { t } from "../js/i18n.js";
import "../js/helper-strings.js";

function key(ctx) {
  return `paiju.lipai.${ctx.roomId ?? "local"}.${ctx.game ?? ""}`;
}

/** The hand's groups (lists of card texts), from the hand's own memory or the session. */
export function groupsOf(ctx) {
  const local = ctx.local;
  if (!local.groups) {
    try {
      local.groups = JSON.parse(sessionStorage.getItem(key(ctx)) || "[]");
    } catch {
      local.groups = [];
    }
  }
  return local.groups;
}

function save(ctx, groups) {
  ctx.local.groups = groups;
  try {
    if (groups.length) sessionStorage.setItem(key(ctx), JSON.stringify(groups));
    else sessionStorage.removeItem(key(ctx));
  } catch {
    /* no session storage: the groups last while the page does */
  }
}

/**
 * The hand's positions of each group, in `order` (the drawn order of positions); cards of
 * a group no longer in the hand (played) drop out, and an emptied group goes.
 */
export function placeGroups(hand, groups, order) {
  const used = new Set();
  const placed = [];
  for (const group of groups) {
    const at = [];
    for (const card of group) {
      const i = order.find((k) => hand[k] === card && !used.has(k));
      if (i !== undefined) {
        used.add(i);
        at.push(i);
      }
    }
    if (at.length) placed.push(at);
  }
  return { placed, used };
}

/** Make the picked positions a group of their own (taken out of any other group). */
export function groupPicked(ctx, hand, picked) {
  const cards = picked.map((i) => hand[i]);
  if (!cards.length) return;
  const { placed } = placeGroups(hand, groupsOf(ctx), [...hand.keys()]);
  const rest = placed.map((at) => at.filter((i) => !picked.includes(i)).map((i) => hand[i])).filter((g) => g.length);
  save(ctx, [...rest, cards]);
}

export function clearGroups(ctx) {
  save(ctx, []);
}

/** The bar under the hand: 理牌 (the picked cards become a group), 还原 (no groups). */
export function lipaiBar(ctx, picked, onChange) {
  const groups = groupsOf(ctx);
  return h(
    "div",
    { class: "buttons lipai-bar", id: "lipai-bar" },
    h(
      "button",
      { type: "button", class: "ghost small-button", id: "cl-group", disabled: !picked.length, onclick: () => onChange("group") },
      t("lipai.group"),
    ),
    groups.length
      ? h("button", { type: "button", class: "ghost small-button", id: "cl-ungroup", onclick: () => onChange("clear") }, t("lipai.clear"))
      : null,
  );
}
