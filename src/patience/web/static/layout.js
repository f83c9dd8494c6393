// Pile geometry: where each pile sits (as the game declares it), how big the cards are,
// how piles fan.
// Cards scale with the viewport; tall piles compress their fan to stay on screen.

const RATIO = 1.4; // card height / width
const MAX_CARD_WIDTH = 124;
const UP_FAN = 0.27; // face-up offset, as a fraction of the card height (at least indexFan)
const DOWN_FAN = 0.13; // face-down offset
const MIN_DOWN_FAN = 0.05;
const ACROSS_FAN = 0.45; // the step of a pile fanned across, as a fraction of the card width
const WASTE_FAN = 0.3; // the least step of the waste's last cards (at least indexAcross)

// The cards of every pile: {name: [{text, up, key}]}, bottom to top, from a GameView.
// The server sends a card the player has never seen as null: it is drawn as a back, and
// its key (the card element's identity) names only its place, never a card.
export function pilesOf(view) {
  const p = view.position;
  const piles = {};
  const card = (pile, up) => (text, i) =>
    text === null || text === undefined
      ? { text: null, up: false, key: `?${pile}:${i}` }
      : { text, up, key: text };
  const stock = p.stock || [];
  // A stock whose top card is in play (Lady Jane's last card) shows it face up.
  const stockUp = Boolean(view.marks && view.marks.stock_face_up);
  piles.stock = stock.map(card("stock", stockUp));
  piles.waste = (p.waste || []).map(card("waste", true));
  (p.foundations || []).forEach((f, i) => {
    piles[`f${i + 1}`] = f.map(card(`f${i + 1}`, true));
  });
  (p.tableau || []).forEach((tp, i) => {
    const down = tp.down || [];
    const name = `t${i + 1}`;
    piles[name] = [
      ...down.map(card(name, false)),
      ...(tp.up || []).map((text, j) => card(name, true)(text, down.length + j)),
    ];
  });
  (p.reserve || []).forEach((r, i) => {
    piles[`r${i + 1}`] = r.map(card(`r${i + 1}`, true));
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

function gapFor(width) {
  return Math.max(4, Math.min(16, Math.round(width * 0.011)));
}

function cardWidth(arr, width, height) {
  const gap = gapFor(width);
  const byWidth = (width - 2 * gap - (arr.cols - 1) * gap) / arr.cols;
  const factors = arr.rows.reduce((sum, r) => sum + r.height, 0);
  const extra = arr.rows.reduce((sum, r) => sum + (r.extra || 0), 0);
  const byHeight = (height - extra - 2 * gap - (arr.rows.length - 1) * gap) / factors / RATIO;
  return Math.max(24, Math.min(byWidth, byHeight, MAX_CARD_WIDTH));
}

// The layout of a view in a table of width x height CSS pixels, in one of the arrangements
// its game declares (view.table.arrangements): each row {slots: [{pile, kind, col, line,
// fan}], height (in cards), grows (takes the height its piles need), extra (pixels under
// it)}; a slot's line puts it that many cards (and gaps) below its row's top.
// upFan: the face-up offset that keeps a card's corner rank in view (cards.indexFan).
export function computeLayout(view, arr, width, height, scale = 1, upFan = UP_FAN) {
  const gap = gapFor(width);
  const cw = Math.floor(cardWidth(arr, width, height) * scale);
  const ch = Math.round(cw * RATIO);
  const left = (width - (arr.cols * cw + (arr.cols - 1) * gap)) / 2;
  const piles = {};
  const rows = [];
  let y = gap;
  // Fixed rows take their height (and any extra pixels); growing rows share the rest.
  const fixed = arr.rows
    .filter((r) => !r.grows)
    .reduce((s, r) => s + r.height * ch + (r.extra || 0) + gap, 0);
  const tabSpace = Math.max(height - gap - fixed - (arr.rows.filter((r) => r.grows).length - 1) * gap, 0);
  // What each growing row needs now: its tallest pile fully fanned. When every row fits,
  // each gets what it needs and the last row the rest; otherwise they share in proportion.
  const cards = pilesOf(view);
  const tabRows = arr.rows.filter((r) => r.grows);
  const needs = tabRows.map((row) =>
    Math.max(
      ch * 1.5,
      ...row.slots.filter((slot) => slot.fan === "down").map((slot) => {
        const list = cards[slot.pile] || [];
        const downs = list.filter((c) => !c.up).length;
        const ups = list.length - downs;
        return ch * (1 + DOWN_FAN * downs + Math.max(UP_FAN, upFan) * Math.max(ups - 1, 0));
      }),
    ),
  );
  const needTotal = needs.reduce((a, b) => a + b, 0);
  arr.rows.forEach((row, ri) => {
    const k = tabRows.indexOf(row);
    let h = row.height * ch + (row.extra || 0);
    if (k >= 0) {
      if (needTotal <= tabSpace) h = k === tabRows.length - 1 ? tabSpace - (needTotal - needs[k]) : needs[k];
      else h = Math.max(ch * 1.5, (tabSpace * needs[k]) / needTotal);
    }
    const last = ri === arr.rows.length - 1;
    const names = [];
    for (const slot of row.slots) {
      piles[slot.pile] = {
        name: slot.pile,
        kind: slot.kind,
        fan: slot.fan,
        row: ri,
        col: slot.col,
        x: Math.round(left + slot.col * (cw + gap)),
        y: Math.round(y + (slot.line || 0) * (ch + gap)),
        maxBottom: last ? height - gap : Math.round(y + h),
      };
      names.push(slot.pile);
    }
    rows.push(names);
    y += h + gap;
  });
  return { cw, ch, gap, width, height, piles, rows, order: rows.flat() };
}

// The layout of a view in a table of width x height and its cards' places: of the game's
// arrangements, the one whose cards come out biggest with every pile in view (the earlier
// one of two alike): 13 piles in two rows and Hopscotch's piles in three rows on a phone
// held upright, the reserves beside the top row on one held sideways, a long Hopscotch
// reserve fanned across. In each, the biggest cards with which every pile fits, its fan
// keeping each card's corner index in view, as AisleRiot does; below MIN_LEGIBLE_WIDTH the
// cards stop shrinking and a pile that fits no arrangement even then overlaps its cards
// more instead.
// A first arrangement whose cards come out ROOMY wide stays (a desktop's classic table does
// not change as a pile grows): the others are for screens where its cards are small, and
// a phone's cards never reach ROOMY in it.
export const MIN_LEGIBLE_WIDTH = 30;
const ROOMY = 80;

export function fitLayout(view, width, height, cards, upFan, acrossFan = ACROSS_FAN) {
  const fits = view.table.arrangements.map((arr) => fitArrangement(view, arr, width, height, cards, upFan, acrossFan));
  let best = fits[0];
  if (best.fits && best.layout.cw >= ROOMY) return best;
  for (const fit of fits.slice(1)) {
    if ((fit.fits && !best.fits) || (fit.fits === best.fits && fit.layout.cw > best.layout.cw)) best = fit;
  }
  if (best.fits) return best;
  const placed = placeCards(best.layout, cards, { wasteShown: view.table.waste_shown, minUpFan: 0.1, minAcross: 0.1 });
  return { layout: best.layout, placed };
}

function fitArrangement(view, arr, width, height, cards, upFan, acrossFan) {
  const options = { wasteShown: view.table.waste_shown, minUpFan: upFan, minAcross: acrossFan };
  for (let scale = 1; ; scale *= 0.93) {
    const layout = computeLayout(view, arr, width, height, scale, upFan);
    const placed = placeCards(layout, cards, options);
    // A pile that runs into the row below does not fit either (FreeCell's two rows of
    // cascades on a phone overlapped by a pixel).
    const fits = placed.height <= height && placed.width <= width && placed.spill <= 0.5;
    if (fits || layout.cw * 0.93 < MIN_LEGIBLE_WIDTH) return { layout, placed, fits };
  }
}

// Card positions for every pile: {name: [{x, y}]}, and the table height and width they
// need. Offsets between face-up cards are whole pixels, so that rounding the places never
// takes from the part of a card kept in view.
export function placeCards(layout, cards, options = {}) {
  const { cw, ch, gap } = layout;
  const out = {};
  let bottom = layout.height;
  let right = 0;
  let spill = 0; // how far a fanned pile runs past its row and the gap under it, into the next
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
      const minUp = Math.ceil((options.minUpFan ?? UP_FAN) * ch);
      const fullUp = Math.max(Math.round(UP_FAN * ch), minUp);
      let uOff = fullUp;
      const need = downSteps * dOff + upSteps * uOff;
      if (need > space) {
        dOff = Math.max(MIN_DOWN_FAN * ch, (dOff * space) / need);
        if (upSteps) uOff = Math.min(fullUp, Math.max(minUp, Math.floor((space - downSteps * dOff) / upSteps)));
      }
      let yy = pile.y;
      for (const c of list) {
        pos.push({ x: pile.x, y: Math.round(yy) });
        yy += c.up ? uOff : dOff;
      }
    } else if (pile.fan === "across" && list.length > 1) {
      // Every card spread to the right as far as the table goes, each showing its corner rank.
      const minStep = Math.ceil((options.minAcross ?? ACROSS_FAN) * cw);
      const fullStep = Math.max(Math.round(ACROSS_FAN * cw), minStep);
      const room = Math.floor((layout.width - gap - pile.x - cw) / (list.length - 1));
      const step = Math.min(fullStep, Math.max(minStep, room));
      list.forEach((c, i) => pos.push({ x: pile.x + i * step, y: pile.y }));
    } else if (pile.fan === "right" && list.length > 1) {
      // Each card shows its corner rank beside the next (a rank 39% wide was cut at 30%).
      const shown = Math.min(options.wasteShown || 3, list.length);
      const step = Math.ceil(cw * Math.max(WASTE_FAN, options.minAcross ?? 0));
      list.forEach((c, i) => {
        const k = i - (list.length - shown);
        pos.push({ x: pile.x + Math.max(k, 0) * step, y: pile.y });
      });
    } else {
      list.forEach(() => pos.push({ x: pile.x, y: pile.y }));
    }
    for (const p of pos.length ? pos : [{ x: pile.x, y: pile.y }]) {
      bottom = Math.max(bottom, p.y + ch + gap);
      right = Math.max(right, p.x + cw + gap);
      if (pile.fan === "down") spill = Math.max(spill, p.y + ch - pile.maxBottom - gap);
    }
    out[name] = pos;
  }
  return { positions: out, height: Math.ceil(bottom), width: right, spill };
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
