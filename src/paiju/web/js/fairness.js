// The deal of a finished game, re-derived in the browser from its published record
// (docs/fairness.md): the deal seed from the server seed and the client seeds, the
// sha256 stream, Fisher-Yates over the game's full set, and each family's split.

import { sha256Bytes, sha256Hex } from "./sha256.js";

const RANKS = "23456789TJQKA";
const SUITS = "shcd";
const WORD = 2n ** 64n;

const card = (i) => (i === 52 ? "BJ" : i === 53 ? "RJ" : RANKS[i >> 2] + SUITS[i & 3]);
const suited = (ranks) => ranks.flatMap((r) => [0, 1, 2, 3].map((s) => 4 * (r - 2) + s));
const range = (a, b) => Array.from({ length: b - a }, (_, i) => a + i);

const DECKS = {
  52: () => suited(range(2, 15)),
  54: () => [...suited(range(2, 15)), 52, 53],
  40: () => suited([14, ...range(2, 11)]),
  92: () => {
    const one = [...suited(range(2, 15).filter((r) => r !== 3 && r !== 4)), 52, 53];
    return [...one, ...one];
  },
  108: () => {
    const one = [...suited(range(2, 15)), 52, 53];
    return [...one, ...one];
  },
  136: () => range(0, 34).flatMap((t) => [t, t, t, t]),
};

/** Tiles as Deal.to_json writes them: runs of one suit share their letter. */
function tilesText(tiles) {
  let out = "";
  let suit = null;
  for (const t of tiles) {
    if (suit !== null && Math.floor(t / 9) !== suit) out += "mpsz"[suit];
    out += String((t % 9) + 1);
    suit = Math.floor(t / 9);
  }
  return suit === null ? out : out + "mpsz"[suit];
}

/** The seed a hand is dealt from: the server seed, or `server:seed_0:…:seed_{n-1}`. */
export function dealSeed(serverSeed, clientSeeds) {
  if (!clientSeeds || !clientSeeds.some((s) => s)) return serverSeed;
  return [serverSeed, ...clientSeeds].join(":");
}

/** The random stream of docs/fairness.md section 3. */
export class DealStream {
  constructor(seed) {
    this.key = sha256Bytes(new TextEncoder().encode(seed));
    this.block = 0n;
    this.buffer = [];
  }

  word() {
    if (this.buffer.length < 8) {
      const input = new Uint8Array(40);
      input.set(this.key);
      new DataView(input.buffer).setBigUint64(32, this.block);
      this.block += 1n;
      this.buffer.push(...sha256Bytes(input));
    }
    const bytes = this.buffer.splice(0, 8);
    return bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
  }

  randbelow(m) {
    const n = BigInt(m);
    const limit = WORD - (WORD % n);
    for (;;) {
      const w = this.word();
      if (w < limit) return Number(w % n);
    }
  }

  shuffle(items) {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

const byIndex = (a, b) => a - b;

function baozi(rng, deck, seats, context, variant, each) {
  const shuffled = rng.shuffle(deck);
  const banker = context.banker || 0;
  const step = { one_at_a_time: 1, two_at_once: 2, four_at_once: 4 }[variant.params.dealing];
  const k = Math.min(each, step);
  const hands = range(0, seats).map(() => []);
  let pos = 0;
  for (let round = 0; round < each / k; round++) {
    for (let i = 0; i < seats; i++) {
      hands[(banker + 1 + i) % seats].push(...shuffled.slice(pos, pos + k));
      pos += k;
    }
  }
  return [hands, { stock: shuffled.slice(pos) }, {}];
}

const SPLIT = {
  shisanzhang(rng, deck, seats) {
    const d = rng.shuffle(deck);
    const rest = d.slice(13 * seats);
    return [range(0, seats).map((s) => d.slice(13 * s, 13 * s + 13)), rest.length ? { undealt: rest } : {}, {}];
  },
  baozi: (rng, deck, seats, context, variant) => baozi(rng, deck, seats, context, variant, 2),
  jiajiabao: (rng, deck, seats, context, variant) => baozi(rng, deck, seats, context, variant, 4),
  danzi(rng, deck, seats, context) {
    const d = rng.shuffle(deck);
    const prev = context.match_over ? null : context.previous;
    const order = prev && Array.isArray(prev.finish_order) ? prev.finish_order : null;
    const valid = order && [...order].sort().join() === "0,1,2,3";
    const start = valid ? order[0] : rng.randbelow(seats);
    const hands = range(0, seats).map((s) => range(0, 27).map((k) => d[4 * k + (((s - start) % 4) + 4) % 4]));
    return [hands, {}, { start }];
  },
  jiayibing(rng, deck, seats, context, variant, options) {
    const order = rng.shuffle(range(0, deck.length));
    const hands = range(0, seats).map((s) => order.filter((_, n) => n % seats === s).map((i) => deck[i]));
    const seatOf = new Map(order.map((i, n) => [i, n % seats]));
    const leader = context.leader;
    if (Number.isInteger(leader) && leader >= 0 && leader < 6 && options.next_lead !== "special3") return [hands, {}, {}];
    let three;
    let copy;
    let holder;
    if (options.special3 === "instance") {
      const threes = deck.map((c, i) => [c, i]).filter(([c]) => c >= 4 && c < 8).map(([, i]) => i);
      const pick = threes[rng.randbelow(threes.length)];
      [three, copy, holder] = [deck[pick], Math.floor(pick / 54) + 1, seatOf.get(pick)];
    } else {
      three = 4 + rng.randbelow(4);
      copy = 1;
      holder = seatOf.get(order.find((i) => deck[i] === three));
    }
    return [hands, {}, { special3: card(three), special3_copy: copy, special3_holder: holder }];
  },
  fangyang(rng, deck, seats, context) {
    let banker = Number.isInteger(context.banker) && context.banker >= 0 && context.banker < 4 ? context.banker : null;
    const dealer = banker === null ? 0 : banker;
    const hands = range(0, seats).map(() => []);
    rng.shuffle(deck).forEach((c, i) => hands[(dealer + i) % seats].push(c));
    if (banker === null) banker = hands.findIndex((h) => h.includes(9));
    return [hands, {}, { banker, dealer }];
  },
  majiang(rng, deck, seats, context) {
    const dealer = typeof context.dealer === "number" ? context.dealer : rng.randbelow(seats);
    const wall = rng.shuffle(deck);
    const hands = range(0, seats).map(() => []);
    let pos = 0;
    for (let k = 0; k < seats; k++) {
      const seat = (dealer + k) % seats;
      const take = seat === dealer ? 14 : 13;
      hands[seat] = wall.slice(pos, pos + take);
      pos += take;
    }
    return [hands, { wall: wall.slice(pos, -1), flip: wall.slice(-1) }, { dealer }];
  },
  sandaha(rng, deck, seats, context) {
    const d = rng.shuffle(deck);
    const hands = range(0, seats).map((s) => d.slice(21 * s, 21 * s + 21).sort(byIndex));
    let first = context.first_bidder;
    if (typeof first !== "number" || first < 0 || first >= seats) first = rng.randbelow(seats);
    return [hands, { kitty: d.slice(21 * seats).sort(byIndex) }, { first_bidder: first }];
  },
};

/**
 * Re-deal a game record in the browser: `{ok, dealSeed, deal}`; `ok` is null when this
 * family's split or deck is not known here (the server's check still covers it).
 */
export function redeal(record, variant) {
  const seed = dealSeed(record.seed || "", record.client_seeds);
  const split = variant && SPLIT[variant.family];
  const deck = variant && DECKS[variant.deck];
  if (!split || !deck) return { ok: null, dealSeed: seed, deal: null };
  const [hands, piles, info] = split(new DealStream(seed), deck(), record.seats, record.context || {}, variant, record.options || {});
  const text = variant.deck === "136" ? tilesText : (items) => items.map(card).join(" ");
  const deal = { hands: hands.map(text) };
  for (const [name, pile] of Object.entries(piles)) deal[name] = text(pile);
  if (Object.keys(info).length) deal.info = info;
  return { ok: JSON.stringify(canonical(deal)) === JSON.stringify(canonical(record.deal || {})), dealSeed: seed, deal };
}

function canonical(obj) {
  if (Array.isArray(obj)) return obj.map(canonical);
  if (obj && typeof obj === "object") return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, canonical(obj[k])]));
  return obj;
}

// -- client seeds: this browser's own, remembered by the commitment they were sent for

const STORE = "paiju.clientSeeds";

function remembered() {
  try {
    return JSON.parse(localStorage.getItem(STORE) || "{}");
  } catch {
    return {};
  }
}

/** A fresh random client seed for the deal `nextCommitment` names, remembered here. */
export function newClientSeed(nextCommitment) {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  const seed = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  const seeds = remembered();
  seeds[nextCommitment] = seed;
  const keys = Object.keys(seeds);
  for (const old of keys.slice(0, Math.max(0, keys.length - 200))) delete seeds[old];
  localStorage.setItem(STORE, JSON.stringify(seeds));
  return seed;
}

/** The client seed this browser sent for the hand of `commitment` (or null). */
export function mySeed(commitment) {
  return remembered()[commitment] || null;
}

export { sha256Hex };
