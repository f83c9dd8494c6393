// Pile geometry per game: where each pile sits, how big the cards are, how piles fan.
// Cards scale with the viewport; tall piles compress their fan to stay on screen.

const RATIO = 1.4; // card height / width
const MAX_CARD_WIDTH = 124;
const UP_FAN = 0.27; // face-up offset, as a fraction of the card height
const DOWN_FAN = 0.13; // face-down offset
const MIN_UP_FAN = 0.225; // below this the corner index is cut, so cards shrink instead
const MIN_DOWN_FAN = 0.05;

// The cards of every pile: {name: [{text, up}]}, bottom to top, from a GameView.
export function pilesOf(view) {
  const p = view.position;
  const piles = {};
  const stock = p.stock || [];
  // Lady Jane's last stock card lies face up and is played from the stock itself.
  const stockUp = view.game === "lady-jane" && stock.length === 1;
  piles.stock = stock.map((text) => ({ text, up: stockUp }));
  piles.waste = (p.waste || []).map((text) => ({ text, up: true }));
  (p.foundations || []).forEach((f, i) => {
    piles[`f${i + 1}`] = f.map((text) => ({ text, up: true }));
  });
  (p.tableau || []).forEach((tp, i) => {
    piles[`t${i + 1}`] = [
      ...(tp.down || []).map((text) => ({ text, up: false })),
      ...(tp.up || []).map((text) => ({ text, up: true })),
    ];
  });
  (p.reserve || []).forEach((r, i) => {
    piles[`r${i + 1}`] = r.map((text) => ({ text, up: true }));
  });
  return piles;
}

// The pile name as written in moves: the stock is "s", the waste "w".
export function moveName(pile) {
  return pile === "stock" ? "s" : pile === "waste" ? "w" : pile;
}

// The pile name of a move token ("s" -> "stock").
export function pileOfToken(token) {
  return token === "s" ? "stock" : token === "w" ? "waste" : token;
}

function range(prefix, from, to) {
  const out = [];
  for (let i = from; i <= to; i++) out.push(`${prefix}${i}`);
  return out;
}

// Rows of piles for a game; each row: {piles: [{name, col, fan}], factor (height in cards)}.
function arrangement(view, width, height) {
  const p = view.position;
  const three = view.game === "klondike" && (view.options || {}).mode === "three";
  const nT = (p.tableau || []).length;
  const topRow = (foundationCol, factor = 1) => ({
    factor,
    piles: [
      { name: "stock", col: 0, fan: "none", kind: "stock" },
      { name: "waste", col: 1, fan: three ? "right" : "none", kind: "waste" },
      ...range("f", 1, 4).map((name, i) => ({ name, col: foundationCol + i, fan: "none", kind: "foundation" })),
    ],
  });
  const tableauRow = (names, col0, factor) => ({
    factor,
    tableau: true,
    piles: names.map((name, i) => ({ name, col: col0 + i, fan: "down", kind: "tableau" })),
  });
  switch (view.game) {
    case "lady-jane":
      return {
        cols: 7,
        rows: [
          topRow(3),
          {
            factor: 1 + 2 * 0.22,
            piles: range("r", 1, 7).map((name, i) => ({ name, col: i, fan: "down", kind: "reserve" })),
          },
          tableauRow(range("t", 1, 7), 0, 2.4),
        ],
      };
    case "bakers-dozen": {
      const foundations = (col0) => ({
        factor: 1,
        piles: range("f", 1, 4).map((name, i) => ({ name, col: col0 + i, fan: "none", kind: "foundation" })),
      });
      const one = { cols: nT, rows: [foundations((nT - 4) / 2), tableauRow(range("t", 1, nT), 0, 2.6)] };
      const two = {
        cols: 7,
        rows: [foundations(1.5), tableauRow(range("t", 1, 7), 0, 2.2), tableauRow(range("t", 8, nT), 0.5, 2.2)],
      };
      // One row of 13 when the cards come out nearly as big as with two rows.
      return cardWidth(one, width, height) >= 0.85 * cardWidth(two, width, height) ? one : two;
    }
    case "hopscotch":
      return {
        cols: 7,
        rows: [
          { ...topRow(3), extra: 22 }, // room under the foundations for their "+k → next" labels
          {
            factor: 2.6,
            tableau: true,
            piles: range("r", 1, 4).map((name, i) => ({ name, col: 3 + i, fan: "down", kind: "reserve" })),
          },
        ],
      };
    default:
      return { cols: 7, rows: [topRow(3), tableauRow(range("t", 1, nT), 0, 2.7)] };
  }
}

function gapFor(width) {
  return Math.max(4, Math.min(16, Math.round(width * 0.011)));
}

function cardWidth(arr, width, height) {
  const gap = gapFor(width);
  const byWidth = (width - 2 * gap - (arr.cols - 1) * gap) / arr.cols;
  const factors = arr.rows.reduce((sum, r) => sum + r.factor, 0);
  const extra = arr.rows.reduce((sum, r) => sum + (r.extra || 0), 0);
  const byHeight = (height - extra - 2 * gap - (arr.rows.length - 1) * gap) / factors / RATIO;
  return Math.max(24, Math.min(byWidth, byHeight, MAX_CARD_WIDTH));
}

// The layout of a view in a table of width x height CSS pixels.
export function computeLayout(view, width, height, scale = 1) {
  const arr = arrangement(view, width, height);
  const gap = gapFor(width);
  const cw = Math.floor(cardWidth(arr, width, height) * scale);
  const ch = Math.round(cw * RATIO);
  const left = (width - (arr.cols * cw + (arr.cols - 1) * gap)) / 2;
  const piles = {};
  const rows = [];
  let y = gap;
  // Fixed rows take their factor (and any extra pixels); tableau rows share the rest.
  const fixed = arr.rows
    .filter((r) => !r.tableau)
    .reduce((s, r) => s + r.factor * ch + (r.extra || 0) + gap, 0);
  const tabSpace = Math.max(height - gap - fixed - (arr.rows.filter((r) => r.tableau).length - 1) * gap, 0);
  // What each tableau row needs now: its tallest pile fully fanned. When every row fits,
  // each gets what it needs and the last row the rest; otherwise they share in proportion.
  const cards = pilesOf(view);
  const tabRows = arr.rows.filter((r) => r.tableau);
  const needs = tabRows.map((row) =>
    Math.max(
      ch * 1.5,
      ...row.piles.map((pl) => {
        const list = cards[pl.name] || [];
        const downs = list.filter((c) => !c.up).length;
        const ups = list.length - downs;
        return ch * (1 + DOWN_FAN * downs + UP_FAN * Math.max(ups - 1, 0));
      }),
    ),
  );
  const needTotal = needs.reduce((a, b) => a + b, 0);
  arr.rows.forEach((row, ri) => {
    const k = tabRows.indexOf(row);
    let h = row.factor * ch + (row.extra || 0);
    if (k >= 0) {
      if (needTotal <= tabSpace) h = k === tabRows.length - 1 ? tabSpace - (needTotal - needs[k]) : needs[k];
      else h = Math.max(ch * 1.5, (tabSpace * needs[k]) / needTotal);
    }
    const last = ri === arr.rows.length - 1;
    const names = [];
    for (const pl of row.piles) {
      piles[pl.name] = {
        name: pl.name,
        kind: pl.kind,
        fan: pl.fan,
        row: ri,
        col: pl.col,
        x: Math.round(left + pl.col * (cw + gap)),
        y: Math.round(y),
        maxBottom: last ? height - gap : Math.round(y + h),
      };
      names.push(pl.name);
    }
    rows.push(names);
    y += h + gap;
  });
  return { cw, ch, gap, width, height, piles, rows, order: rows.flat() };
}

// Card positions for every pile: {name: [{x, y}]}, and the table height they need.
export function placeCards(layout, cards, options = {}) {
  const { cw, ch } = layout;
  const out = {};
  let bottom = layout.height;
  for (const [name, pile] of Object.entries(layout.piles)) {
    const list = cards[name] || [];
    const pos = [];
    if (pile.fan === "down" && list.length > 1) {
      const downs = list.filter((c) => !c.up).length;
      const ups = list.length - downs;
      const space = pile.maxBottom - pile.y - ch;
      // Every card but the top one adds its offset: face-down ones less than face-up ones.
      const downSteps = ups > 0 ? downs : downs - 1;
      const upSteps = Math.max(ups - 1, 0);
      let dOff = DOWN_FAN * ch;
      let uOff = UP_FAN * ch;
      const need = downSteps * dOff + upSteps * uOff;
      if (need > space) {
        dOff = Math.max(MIN_DOWN_FAN * ch, (dOff * space) / need);
        const minUp = (options.minUpFan ?? MIN_UP_FAN) * ch;
        if (upSteps) uOff = Math.min(UP_FAN * ch, Math.max(minUp, (space - downSteps * dOff) / upSteps));
      }
      let yy = pile.y;
      for (const c of list) {
        pos.push({ x: pile.x, y: Math.round(yy) });
        yy += c.up ? uOff : dOff;
      }
      bottom = Math.max(bottom, pos[pos.length - 1].y + ch + layout.gap);
    } else if (pile.fan === "right" && list.length > 1) {
      const shown = Math.min(options.wasteShown || 3, list.length);
      const step = Math.round(cw * 0.3);
      list.forEach((c, i) => {
        const k = i - (list.length - shown);
        pos.push({ x: pile.x + Math.max(k, 0) * step, y: pile.y });
      });
    } else {
      list.forEach(() => pos.push({ x: pile.x, y: pile.y }));
    }
    out[name] = pos;
  }
  return { positions: out, height: Math.ceil(bottom) };
}

// The pile whose area holds the point (x, y), with tableau piles reaching down their column.
export function pileAt(layout, positions, x, y) {
  for (const name of layout.order) {
    const r = pileRect(layout, positions, name, true);
    if (x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h) return name;
  }
  return null;
}

// The rectangle a pile occupies: its slot and its fanned cards (and, for drops, its column).
export function pileRect(layout, positions, name, forDrop = false) {
  const pile = layout.piles[name];
  const pos = positions[name] || [];
  let x2 = pile.x + layout.cw;
  let y2 = pile.y + layout.ch;
  for (const p of pos) {
    x2 = Math.max(x2, p.x + layout.cw);
    y2 = Math.max(y2, p.y + layout.ch);
  }
  if (forDrop && pile.fan === "down") y2 = Math.max(y2, pile.maxBottom);
  return { x: pile.x, y: pile.y, w: x2 - pile.x, h: y2 - pile.y };
}
