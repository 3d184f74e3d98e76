// The catalogue of games, read once from the server and kept for the page's life.

import { get } from "./api.js";

let catalogCache = null;

export async function loadCatalog() {
  if (!catalogCache) catalogCache = await get("/api/catalog");
  return catalogCache;
}

export async function findVariant(code) {
  return (await loadCatalog()).find((v) => v.code === code) || null;
}
