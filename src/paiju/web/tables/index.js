// The table of each family. A table module exports:
//   createOptions(variant) -> [{key, label, choices?: [{value, label}], type?, default}]
//                              the game's own room options for the lobby's form;
//   render(ctx) -> {center: Node | null, mine: Node | null}
//                              the felt's centre and the player's own area;
//   seatExtra(ctx, seat) -> Node | null      what a seat shows on the felt (cards, bet);
// and may export
//   verdictText(ctx, over) -> string | null  the settlement's line where 积分 are 0;
//   settleColumns(ctx, over) -> [{key, head, values}] | null
//                              the settlement's columns instead of 得分 (打弹子's points).
// ctx: {view, legal, seat, game, info, variant, events, handOver, local, act(action),
//       seatName(i), rerender(), roomId}; `local` is kept for the hand (UI selections).
// A family without its own module gets the generic table (the view and the legal actions).

const MODULES = {
  shisanzhang: () => import("./shisanzhang.js"),
  baozi: () => import("./baozi.js"),
  jiajiabao: () => import("./jiajiabao.js"),
  sandaha: () => import("./sandaha.js"),
  majiang: () => import("./majiang.js"),
  ...Object.fromEntries(["jiayibing", "fangyang", "danzi"].map((f) => [f, () => import("./climbing.js")])), // 出牌 games
};

export async function tableFor(family) {
  const load = MODULES[family] || (() => import("./generic.js"));
  return load();
}
