// Mahjong tiles (麻将牌) drawn in inline SVG: no font glyphs, no images, no network, so a
// tile reads the same on a phone without CJK fonts. A tile is its text in the notation of
// `paiju.tiles`: "5m" 五万, "3p" 三筒, "7s" 七条, "1z"-"7z" 东 南 西 北 白 发 中.
//
// 万 tiles: the Chinese numeral over 万, both drawn as strokes; 筒: coloured coins in the
// usual patterns; 条: bamboo sticks (1条 one big stick); winds and 中 发 as stroked
// characters; 白 the blue frame of 白板. The 混 (wild) is marked by a gold frame and a star,
// a 枪 tile by a red corner.

const BLUE = "#1d4fa3";
const GREEN = "#177245";
const RED = "#c62828";
const INK = "#1d2330";

// Stroked characters, each in a 100 x 100 box.
const GLYPHS = {
  wan: "M14 22H86M42 22C41 52 33 74 14 90M42 48H76Q77 80 60 88",
  n1: "M10 50H90",
  n2: "M24 32H76M12 70H88",
  n3: "M22 20H78M28 50H72M12 82H88",
  n4: "M16 22V84M16 22H84V84M16 84H84M42 22Q42 52 30 62M60 22V52Q60 60 72 60H84",
  n5: "M18 16H82M48 16L38 82M26 46H70V82M10 84H90",
  n6: "M48 6L56 20M12 36H88M38 54L18 86M62 54L84 86",
  n7: "M10 50L90 38M40 10V76Q40 88 54 88H84V76",
  n8: "M40 18Q38 60 12 86M58 18Q62 64 90 86",
  n9: "M46 10Q44 60 12 90M16 38H68V80Q68 88 78 88H90V76",
  z1: "M16 24H84M46 6L26 54H82M54 30V88Q54 96 44 92M36 66L20 84M68 66L84 84",
  z2: "M18 16H82M50 4V30M22 34V94M22 34H78V88Q78 94 70 92M38 44L44 54M62 44L56 54M32 60H68M30 74H70M50 60V94",
  z3: "M10 14H90M20 34H80V90H20ZM40 14V54Q38 64 24 70M60 14V58Q60 66 80 66",
  z4: "M40 8V90M16 42H40M12 80L40 66M62 8V78Q62 90 76 90H90V76M62 46L86 34",
  z6: "M30 8L22 36M12 38H88M66 12L76 26M52 20Q48 68 14 92M42 56H72Q62 78 40 90M48 66Q64 84 90 92",
  z7: "M18 28H82V66H18ZM50 6V96",
};

const SUIT_ZH = { m: "万", p: "筒", s: "条" };
const SUIT_EN = { m: "Characters", p: "Dots", s: "Bamboo" };
const NUM_ZH = "一二三四五六七八九";
const HONOR_ZH = ["东", "南", "西", "北", "白", "发", "中"];
const HONOR_EN = ["East", "South", "West", "North", "White", "Green", "Red"];

function glyph(name, x, y, size, colour, width = 9) {
  return (
    `<g transform="translate(${x} ${y}) scale(${size / 100})">` +
    `<path d="${GLYPHS[name]}" fill="none" stroke="${colour}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"/></g>`
  );
}

function coin(x, y, r, colour) {
  return (
    `<circle cx="${x}" cy="${y}" r="${r}" fill="${colour}"/>` +
    `<circle cx="${x}" cy="${y}" r="${(r * 0.66).toFixed(2)}" fill="#fbfaf6"/>` +
    `<circle cx="${x}" cy="${y}" r="${(r * 0.36).toFixed(2)}" fill="${colour}"/>`
  );
}

const COINS = {
  2: [[30, 22, GREEN], [30, 58, BLUE]],
  3: [[15, 16, BLUE], [30, 40, RED], [45, 64, GREEN]],
  4: [[18, 22, BLUE], [42, 22, GREEN], [18, 58, GREEN], [42, 58, BLUE]],
  5: [[16, 17, BLUE], [44, 17, GREEN], [30, 40, RED], [16, 63, GREEN], [44, 63, BLUE]],
  6: [[18, 14, GREEN], [42, 14, GREEN], [18, 42, RED], [42, 42, RED], [18, 66, RED], [42, 66, RED]],
  7: [[12, 11, GREEN], [30, 20, GREEN], [48, 29, GREEN], [19, 50, RED], [41, 50, RED], [19, 69, RED], [41, 69, RED]],
  8: [[18, 11, BLUE], [42, 11, BLUE], [18, 30, BLUE], [42, 30, BLUE], [18, 50, BLUE], [42, 50, BLUE], [18, 69, BLUE], [42, 69, BLUE]],
  9: [[12, 14, BLUE], [30, 14, BLUE], [48, 14, BLUE], [12, 40, RED], [30, 40, RED], [48, 40, RED], [12, 66, GREEN], [30, 66, GREEN], [48, 66, GREEN]],
};
const COIN_R = { 2: 12, 3: 10, 4: 10.5, 5: 9.5, 6: 9.5, 7: 8, 8: 8.5, 9: 8.5 };

function pinFace(n) {
  if (n === 1) {
    return (
      `<circle cx="30" cy="40" r="24" fill="${BLUE}"/><circle cx="30" cy="40" r="19" fill="#fbfaf6"/>` +
      `<circle cx="30" cy="40" r="15" fill="${GREEN}"/><circle cx="30" cy="40" r="10" fill="#fbfaf6"/>` +
      `<circle cx="30" cy="40" r="6" fill="${RED}"/>`
    );
  }
  return COINS[n].map(([x, y, c]) => coin(x, y, COIN_R[n], c)).join("");
}

function stick(x, y, len, w, colour) {
  const top = y - len / 2;
  return (
    `<rect x="${x - w / 2}" y="${top}" width="${w}" height="${len}" rx="${w / 2}" fill="${colour}"/>` +
    `<rect x="${x - w / 2 - 1}" y="${y - 1.4}" width="${w + 2}" height="2.8" rx="1.4" fill="${colour}"/>` +
    `<line x1="${x}" y1="${top + 3}" x2="${x}" y2="${top + len - 3}" stroke="#fbfaf6" stroke-width="1.2" opacity=".7"/>`
  );
}

const STICKS = {
  2: [[30, 22, GREEN], [30, 58, GREEN]],
  3: [[30, 22, GREEN], [17, 58, GREEN], [43, 58, GREEN]],
  4: [[18, 22, GREEN], [42, 22, GREEN], [18, 58, GREEN], [42, 58, GREEN]],
  5: [[14, 22, GREEN], [46, 22, GREEN], [30, 40, RED], [14, 58, GREEN], [46, 58, GREEN]],
  6: [[12, 22, GREEN], [30, 22, GREEN], [48, 22, GREEN], [12, 58, GREEN], [30, 58, GREEN], [48, 58, GREEN]],
  7: [[30, 13, RED], [12, 41, GREEN], [30, 41, GREEN], [48, 41, GREEN], [12, 67, GREEN], [30, 67, GREEN], [48, 67, GREEN]],
  8: [[9, 22, GREEN], [23, 22, GREEN], [37, 22, GREEN], [51, 22, GREEN], [9, 58, GREEN], [23, 58, GREEN], [37, 58, GREEN], [51, 58, GREEN]],
  9: [[12, 14, GREEN], [30, 14, RED], [48, 14, GREEN], [12, 40, GREEN], [30, 40, RED], [48, 40, GREEN], [12, 66, GREEN], [30, 66, RED], [48, 66, GREEN]],
};
const STICK_SIZE = { 2: [30, 8], 3: [30, 8], 4: [30, 8], 5: [26, 7], 6: [30, 7], 7: [22, 7], 8: [30, 6], 9: [22, 7] };

function souFace(n) {
  if (n === 1) {
    // 幺鸡 as one tall stick with a red crown: unmistakable at any size
    return stick(30, 44, 60, 14, GREEN) + `<circle cx="30" cy="12" r="7" fill="${RED}"/><path d="M22 12 30 2 38 12" fill="${RED}"/>`;
  }
  const [len, w] = STICK_SIZE[n];
  return STICKS[n].map(([x, y, c]) => stick(x, y, len, w, c)).join("");
}

function wanFace(n) {
  return glyph(`n${n}`, 12, 4, 36, INK, 11) + glyph("wan", 10, 40, 40, RED, 10);
}

function honorFace(n) {
  if (n === 5) {
    return (
      `<rect x="12" y="14" width="36" height="52" rx="4" fill="none" stroke="${BLUE}" stroke-width="3.5"/>` +
      `<rect x="18" y="20" width="24" height="40" rx="2" fill="none" stroke="${BLUE}" stroke-width="1.6"/>`
    );
  }
  const colour = n === 6 ? GREEN : n === 7 ? RED : INK;
  return glyph(`z${n}`, 5, 15, 50, colour, 10);
}

/** Split tile text ("123m45p", "1m 2m 3m", "5p") into one token per tile ("1m", ...). */
export function splitTiles(text) {
  if (!text) return [];
  if (Array.isArray(text)) return text.flatMap((x) => splitTiles(x));
  const out = [];
  const re = /([0-9]+)([mpsz])/g;
  let m;
  while ((m = re.exec(String(text))) !== null) for (const d of m[1]) out.push(`${d}${m[2]}`);
  return out;
}

/** The sort key of a tile: 万 筒 条 then honours, by number (东南西北白发中). */
export function tileKey(tile) {
  return "mpsz".indexOf(tile[1]) * 10 + Number(tile[0]);
}

/** Whether `tile` is a 混: `hun` is one tile text or a list of them (null: none). */
export function isHun(tile, hun) {
  if (!hun || !tile) return false;
  return Array.isArray(hun) ? hun.includes(tile) : tile === hun;
}

/** Tiles sorted, the 混 last (where players keep their wilds). */
export function sortTiles(tiles, hun = null) {
  return [...tiles].sort((a, b) => isHun(a, hun) - isHun(b, hun) || tileKey(a) - tileKey(b));
}

/** The tile's name in Chinese (五万, 东) and English (5 Characters, East). */
export function tileName(tile, lang = "zh") {
  const n = Number(tile[0]);
  if (tile[1] === "z") return lang === "en" ? HONOR_EN[n - 1] || tile : HONOR_ZH[n - 1] || tile;
  return lang === "en" ? `${n} ${SUIT_EN[tile[1]] || ""}`.trim() : `${NUM_ZH[n - 1] || n}${SUIT_ZH[tile[1]] || ""}`;
}

/** The SVG markup of a tile's face (viewBox 60 x 80). */
export function faceSvg(tile) {
  const n = Number(tile[0]);
  let body = "";
  if (tile[1] === "m" && n >= 1 && n <= 9) body = wanFace(n);
  else if (tile[1] === "p" && n >= 1 && n <= 9) body = pinFace(n);
  else if (tile[1] === "s" && n >= 1 && n <= 9) body = souFace(n);
  else if (tile[1] === "z" && n >= 1 && n <= 7) body = honorFace(n);
  return `<svg class="mj-face" viewBox="0 0 60 80" aria-hidden="true" focusable="false">${body}</svg>`;
}

/**
 * A tile element: `<div class="mj-tile" data-tile="5p">`. `hun` marks the wild kinds (a
 * tile or a list), `qiang` the 枪 kinds (a list), `size` "xs", "sm", "lg" or "" (the hand).
 */
export function tileEl(tile, { hun = null, qiang = [], size = "", lang = "zh", back = false } = {}) {
  const el = document.createElement("div");
  el.className = `mj-tile${size ? ` ${size}` : ""}`;
  if (back || !tile) {
    el.classList.add("back");
    el.setAttribute("aria-label", "?");
    return el;
  }
  el.dataset.tile = tile;
  el.setAttribute("role", "img");
  const name = tileName(tile, lang);
  el.setAttribute("aria-label", name);
  el.title = name;
  el.innerHTML = faceSvg(tile);
  if (isHun(tile, hun)) {
    el.classList.add("hun");
    el.insertAdjacentHTML(
      "beforeend",
      '<svg class="mj-star" viewBox="0 0 100 100" aria-hidden="true"><path d="M50 4l13 30 33 3-25 22 8 33-29-18-29 18 8-33L4 37l33-3z"/></svg>',
    );
  }
  if (qiang && qiang.includes(tile)) el.classList.add("qiang");
  return el;
}

/** A row of tiles from tile text or a list. */
export function tilesEl(tiles, opts = {}) {
  const row = document.createElement("div");
  row.className = `mj-tiles${opts.cls ? ` ${opts.cls}` : ""}`;
  for (const tile of Array.isArray(tiles) ? tiles : splitTiles(tiles)) row.appendChild(tileEl(tile, opts));
  return row;
}

/** Hidden tiles (backs), e.g. another seat's concealed hand or a 暗杠's middle. */
export function backsEl(count, opts = {}) {
  const row = document.createElement("div");
  row.className = `mj-tiles${opts.cls ? ` ${opts.cls}` : ""}`;
  for (let i = 0; i < count; i++) row.appendChild(tileEl(null, { ...opts, back: true }));
  return row;
}

/** The 混 of a flip: the next kind, 9 -> 1 within a suit, winds and dragons cycling. */
export function hunOf(flip) {
  if (!flip) return null;
  const n = Number(flip[0]);
  const s = flip[1];
  if (s !== "z") return `${n === 9 ? 1 : n + 1}${s}`;
  if (n <= 4) return `${(n % 4) + 1}z`;
  // dragons cycle 中 -> 发 -> 白 -> 中 (7z -> 6z -> 5z -> 7z)
  return `${n === 5 ? 7 : n - 1}z`;
}
