// Where the seats sit around the felt: the viewer's seat (base) at the bottom, the
// others counter-clockwise on an ellipse, as percentages of the table's box.

export function seatStyle(seat, n, base = 0) {
  const k = (seat - base + n) % n;
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
  const x = 50 + 40 * Math.cos(angle);
  const y = 50 + 38 * Math.sin(angle);
  return `left:${x.toFixed(1)}%;top:${y.toFixed(1)}%`;
}

// Which side of the felt a seat sits on: "bottom" (the viewer), "top" (straight across,
// at an even table) or "side"; tables give the top and bottom seats more width.
export function seatSide(seat, n, base = 0) {
  const k = (seat - base + n) % n;
  if (k === 0) return "bottom";
  return n % 2 === 0 && k === n / 2 ? "top" : "side";
}
