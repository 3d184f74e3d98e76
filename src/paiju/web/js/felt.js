// Where the seats sit around the felt: one rule for every family's table, the replay and
// the spectator's view. The viewer's seat (base; seat 0 for a spectator) is at the bottom
// and play runs counter-clockwise on screen, as Chinese players read a table: the 下家
// (the seat after the viewer's, who plays next) on the right, the 上家 on the left, the
// 对家 straight across at the top.

/** How many seats after the viewer's a seat plays: 0 the viewer, 1 the 下家, n-1 the 上家. */
export function seatOffset(seat, n, base = 0) {
  return (((seat - base) % n) + n) % n;
}

/** A seat's place on an ellipse around the felt, as percentages of the table's box. */
export function seatStyle(seat, n, base = 0) {
  const k = seatOffset(seat, n, base);
  // from the bottom (π/2 with y pointing down) towards the right: counter-clockwise on screen
  const angle = Math.PI / 2 - (2 * Math.PI * k) / n;
  const x = 50 + 40 * Math.cos(angle);
  const y = 50 + 38 * Math.sin(angle);
  return `left:${x.toFixed(1)}%;top:${y.toFixed(1)}%`;
}

/**
 * Which side of the felt a seat sits on: "bottom" (the viewer), "top" (straight across, at
 * an even table), "right" (the seats after the viewer's up to the 对家: the 下家 first) or
 * "left" (the seats before it: the 上家 last). Tables laid out as a grid (麻将, 三打哈's
 * trick) place their seats by it, so every table goes round the same way.
 */
export function seatPlace(seat, n, base = 0) {
  const k = seatOffset(seat, n, base);
  if (k === 0) return "bottom";
  if (2 * k === n) return "top";
  return 2 * k < n ? "right" : "left";
}

/** Which side of the felt a seat sits on for its width: "bottom", "top" or "side". */
export function seatSide(seat, n, base = 0) {
  const place = seatPlace(seat, n, base);
  return place === "left" || place === "right" ? "side" : place;
}
