// The operator's announcements in the lobby (GET /api/announcements, public): a banner,
// and a scrolling notice (跑马灯), each in the player's language, while they are showing.

import { get } from "./api.js";
import { h } from "./dom.js";
import { lang } from "./i18n.js";

const STYLE = `
.news { display: grid; gap: 6px; margin-bottom: 8px; }
.news-banner { background: #fff4d6; color: #5a3d00; border: 1px solid #f0d48a; border-radius: 8px;
  padding: 8px 12px; overflow-wrap: anywhere; }
.news-marquee { overflow: hidden; white-space: nowrap; background: #1f3a5f; color: #fff;
  border-radius: 8px; padding: 6px 0; }
.news-marquee span { display: inline-block; padding-left: 100%; animation: news-scroll 18s linear infinite; }
@keyframes news-scroll { to { transform: translateX(-100%); } }
@media (prefers-reduced-motion: reduce) {
  .news-marquee { white-space: normal; padding: 6px 12px; }
  .news-marquee span { animation: none; padding-left: 0; }
}`;

function style() {
  if (document.getElementById("news-style")) return;
  const node = document.createElement("style");
  node.id = "news-style";
  node.textContent = STYLE;
  document.head.appendChild(node);
}

/** A box that fills with the announcements showing now (empty when there are none). */
export function newsBox() {
  style();
  const box = h("div", { class: "news", id: "news" });
  get("/api/announcements")
    .then((data) => {
      for (const n of data.announcements || []) {
        const text = n.text[lang()] || n.text.zh || n.text.en;
        if (n.kind === "banner") box.appendChild(h("p", { class: "news-banner", role: "status" }, text));
        else box.appendChild(h("div", { class: "news-marquee", role: "marquee" }, h("span", {}, text)));
      }
    })
    .catch(() => {});
  return box;
}
