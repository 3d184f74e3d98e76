// Cards drawn with CSS and inline SVG (no fonts, no images, no network).
// A card is its canonical text: rank 2-9 T J Q K A + suit s h c d, or BJ 小王 / RJ 大王.

const SUIT_PATHS = {
  h: '<path d="M50 92C22 68 4 50 4 30 4 14 16 4 29 4c9 0 17 5 21 13 4-8 12-13 21-13 13 0 25 10 25 26 0 20-18 38-46 62z"/>',
  d: '<path d="M50 2 90 50 50 98 10 50z"/>',
  s: '<path d="M50 2C62 24 96 40 96 64c0 15-11 24-23 24-9 0-16-4-20-10 1 9 6 16 13 20H34c7-4 12-11 13-20-4 6-11 10-20 10C15 88 4 79 4 64 4 40 38 24 50 2z"/>',
  c: '<circle cx="50" cy="27" r="21"/><circle cx="26" cy="60" r="21"/><circle cx="74" cy="60" r="21"/><path d="M45 52h10l8 46H37z"/>',
};

export const SUIT_NAMES = { s: "♠", h: "♥", c: "♣", d: "♦" };
const RANK_TEXT = { T: "10" };
const RANK_ORDER = "23456789TJQKA";

export function suitSvg(suit, cls = "suit") {
  return `<svg class="${cls}" viewBox="0 0 100 100" aria-hidden="true">${SUIT_PATHS[suit] || ""}</svg>`;
}

/** Split canonical card text ("As Td 9c") into tokens. */
export function splitCards(text) {
  if (!text) return [];
  return String(text).trim().split(/\s+/).filter(Boolean);
}

export function rankOf(card) {
  if (card === "BJ") return 15;
  if (card === "RJ") return 16;
  return RANK_ORDER.indexOf(card[0]) + 2;
}

export function suitOf(card) {
  return card.length === 2 && card !== "BJ" && card !== "RJ" ? card[1] : "";
}

export function isRed(card) {
  return card === "RJ" || suitOf(card) === "h" || suitOf(card) === "d";
}

/** A card as a DOM element: `<div class="card" data-card="As">`. */
export function cardEl(card, { small = false, label = "" } = {}) {
  const el = document.createElement("div");
  el.className = "card" + (small ? " small" : "") + (isRed(card) ? " red" : " black");
  el.dataset.card = card;
  el.setAttribute("role", "img");
  if (card === "BJ" || card === "RJ") {
    el.classList.add("joker");
    el.setAttribute("aria-label", card === "RJ" ? "大王 RJ" : "小王 BJ");
    el.innerHTML = `<span class="corner">${card === "RJ" ? "大" : "小"}<br>王</span><span class="joker-star" aria-hidden="true"><svg viewBox="0 0 100 100"><path d="M50 4l13 30 33 3-25 22 8 33-29-18-29 18 8-33L4 37l33-3z"/></svg></span><span class="joker-word">JOKER</span>`;
    return el;
  }
  const rank = RANK_TEXT[card[0]] || card[0];
  const suit = card[1];
  el.setAttribute("aria-label", card);
  el.innerHTML =
    `<span class="corner"><b>${rank}</b>${suitSvg(suit, "pip")}</span>` +
    `<span class="center">${suitSvg(suit, "big")}</span>` +
    `<span class="corner br"><b>${rank}</b>${suitSvg(suit, "pip")}</span>`;
  if (label) el.title = label;
  return el;
}

/** The back of a card (a hidden card). */
export function backEl({ small = false } = {}) {
  const el = document.createElement("div");
  el.className = "card back" + (small ? " small" : "");
  el.setAttribute("aria-label", "?");
  return el;
}

/** A row of cards from canonical text. */
export function cardsEl(text, opts = {}) {
  const row = document.createElement("div");
  row.className = "cards" + (opts.fan ? " fan" : "");
  for (const c of splitCards(text)) row.appendChild(cardEl(c, opts));
  return row;
}

export function backsEl(count, opts = {}) {
  const row = document.createElement("div");
  row.className = "cards" + (opts.fan ? " fan" : "");
  for (let i = 0; i < count; i++) row.appendChild(backEl(opts));
  return row;
}
