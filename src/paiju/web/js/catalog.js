// The catalogue of games, read once from the server and kept for the page's life, with
// the house's setting of each game (the operator's console): a game turned off for new
// rooms is not playable here (`off`), and a room form takes the house's default options
// and offers only the choices the house allows (`houseOptions`).

import { get } from "./api.js";

let catalogCache = null;

export async function loadCatalog() {
  if (!catalogCache) {
    const found = await get("/api/catalog");
    catalogCache = found.map((v) => ({ ...v, off: v.enabled === false, playable: v.playable && v.enabled !== false }));
  }
  return catalogCache;
}

export async function findVariant(code) {
  return (await loadCatalog()).find((v) => v.code === code) || null;
}

/** A game's room-form options ({key, label, choices?, type?, default}) as the house
 * offers them: its defaults, and for an option it limits only the values it allows. */
export function houseOptions(variant, options) {
  const defaults = (variant && variant.defaults) || {};
  const limits = (variant && variant.choices) || {};
  return options.map((opt) => {
    const out = { ...opt };
    if (Object.hasOwn(defaults, opt.key)) out.default = defaults[opt.key];
    const allowed = limits[opt.key];
    if (!allowed) return out;
    if (opt.choices) {
      out.choices = opt.choices.filter((c) => allowed.some((a) => String(a) === String(c.value)));
    } else {
      out.choices = allowed.map((a) => ({ value: String(a), label: typeof a === "boolean" ? (a ? "✓" : "✗") : String(a) }));
      out.number = typeof allowed[0] === "number";
      out.bool = typeof allowed[0] === "boolean";
      delete out.type;
    }
    if (!out.choices.some((c) => String(c.value) === String(out.default))) out.default = out.choices.length ? out.choices[0].value : out.default;
    return out;
  });
}

/** The value of a room-form option's input, as the game takes it. */
export function optionValue(opt, input) {
  if (opt.type === "checkbox") return input.checked;
  if (opt.choices) {
    if (opt.bool) return input.value === "true";
    return opt.number ? Number(input.value) : input.value;
  }
  return Number(input.value);
}
