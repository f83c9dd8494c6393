// Pointer input (mouse, pen and touch alike): drag a card and the run above it, tap to select
// and tap a destination, double-tap to send a card to its foundation.
import { pileAt, pileRect } from "./layout.js";

const DOUBLE_TAP_MS = 380;

const NO_TAP = { time: 0, pile: null };

// Wire the table; ctx supplies the game state and the actions (see app.js).
export function installPointer(table, ctx) {
  // press: {pointerId, x0, y0, pile, index, el, touch}, or {pointerId, background}
  // drag: {els, origins, pile, index, count, targets}
  const s = { table, ctx, press: null, drag: null, lastTap: NO_TAP };
  table.addEventListener("pointerdown", (ev) => pointerDown(s, ev));
  table.addEventListener("pointermove", (ev) => pointerMove(s, ev));
  // A long press on a card must not open the browser's menu in the middle of a drag.
  table.addEventListener("contextmenu", (ev) => {
    if (ev.target.closest && ev.target.closest(".card")) ev.preventDefault();
  });
  table.addEventListener("pointerup", (ev) => release(s, ev, false));
  table.addEventListener("pointercancel", (ev) => release(s, ev, true));
  // A point on the table, for tests and tools: which pile is there.
  table._pileAt = (clientX, clientY) => {
    const pt = localPoint(table, { clientX, clientY });
    return pileAt(ctx.layout(), ctx.positions(), pt.x, pt.y);
  };
}

function localPoint(table, ev) {
  const r = table.getBoundingClientRect();
  return { x: ev.clientX - r.left, y: ev.clientY - r.top };
}

// A press on a card or a slot starts what may become a tap or a drag; one elsewhere, a
// tap on the background.
function pointerDown(s, ev) {
  if (ev.button !== 0 || s.press || s.ctx.busy()) return;
  const target = ev.target.closest(".card, .slot");
  if (!target || !s.table.contains(target)) {
    s.press = { pointerId: ev.pointerId, background: true };
    return;
  }
  s.press = {
    pointerId: ev.pointerId,
    x0: ev.clientX,
    y0: ev.clientY,
    pile: target._pile,
    index: target._index,
    el: target,
    touch: ev.pointerType !== "mouse",
  };
  // Keep the pointer events coming when the finger leaves the card; no text selection.
  try {
    target.setPointerCapture(ev.pointerId);
  } catch {
    /* the element may be gone already */
  }
  if (target.classList.contains("card")) ev.preventDefault();
}

// A press moved far enough starts a drag (of a card that may move); a drag follows the
// pointer and lights the legal target under it.
function pointerMove(s, ev) {
  const press = s.press;
  if (!press || press.background || ev.pointerId !== press.pointerId) return;
  const dx = ev.clientX - press.x0;
  const dy = ev.clientY - press.y0;
  if (!s.drag) {
    const threshold = press.touch ? 9 : 4;
    if (Math.hypot(dx, dy) < threshold) return;
    if (!press.el.classList.contains("card") || !s.ctx.canDrag(press.pile, press.index)) return;
    s.drag = startDrag(s, press.pile, press.index);
    if (!s.drag) return;
  }
  const drag = s.drag;
  for (let i = 0; i < drag.els.length; i++) {
    const o = drag.origins[i];
    drag.els[i].style.transform = `translate(${o.x + dx}px, ${o.y + dy}px)`;
  }
  const over = dropPile(s.ctx, drag, dx, dy);
  s.ctx.hover(over && drag.targets.includes(over) ? over : null);
}

function startDrag(s, pile, index) {
  const { table, ctx } = s;
  const els = ctx.cardElements(pile, index);
  if (!els.length) return null;
  const origins = els.map((el) => ({ x: el._x, y: el._y }));
  els.forEach((el, i) => {
    el.classList.add("dragging");
    el.style.zIndex = String(1000 + i);
  });
  table.classList.add("is-dragging");
  const count = els.length;
  const targets = ctx.targets(pile, count);
  ctx.showTargets(targets);
  ctx.cancelShowMe();
  return { els, origins, pile, index, count, targets };
}

// The pile the dragged cards are dropped on: the most overlapped one, legal targets first.
function dropPile(ctx, d, dx, dy) {
  const layout = ctx.layout();
  const positions = ctx.positions();
  const o = d.origins[0];
  const card = { x: o.x + dx, y: o.y + dy, w: layout.cw, h: layout.ch };
  let best = null;
  let bestScore = 0;
  for (const name of layout.order) {
    if (name === d.pile) continue;
    const r = pileRect(layout, positions, name, true);
    const w = Math.min(card.x + card.w, r.x + r.w) - Math.max(card.x, r.x);
    const h = Math.min(card.y + card.h, r.y + r.h) - Math.max(card.y, r.y);
    if (w <= 0 || h <= 0) continue;
    const score = w * h * (d.targets.includes(name) ? 4 : 1);
    if (score > bestScore) {
      bestScore = score;
      best = name;
    }
  }
  return best;
}

// The pointer let go (or the browser took it back: cancelled): a drop, a tap or a double tap.
function release(s, ev, cancelled) {
  const p = s.press;
  if (!p || ev.pointerId !== p.pointerId) return;
  s.press = null;
  if (p.background) {
    if (!cancelled && ev.target.closest && !ev.target.closest(".card, .slot")) {
      s.ctx.backgroundTap();
    }
    return;
  }
  if (s.drag) {
    drop(s, p, ev, cancelled);
    return;
  }
  if (!cancelled) tap(s, p);
}

// The dragged cards go to the pile they are over, or spring back.
function drop(s, p, ev, cancelled) {
  const { table, ctx } = s;
  const d = s.drag;
  s.drag = null;
  table.classList.remove("is-dragging");
  ctx.showTargets([]);
  ctx.hover(null);
  d.els.forEach((el) => el.classList.remove("dragging"));
  const dst = cancelled ? null : dropPile(ctx, d, ev.clientX - p.x0, ev.clientY - p.y0);
  if (dst) ctx.drop(d.pile, d.index, dst);
  else ctx.springBack();
  s.lastTap = NO_TAP;
}

// A second tap on the same pile soon after the first is a double tap.
function tap(s, p) {
  const now = performance.now();
  if (s.lastTap.pile === p.pile && now - s.lastTap.time < DOUBLE_TAP_MS) {
    s.lastTap = NO_TAP;
    s.ctx.doubleTap(p.pile, p.index);
    return;
  }
  const consumed = s.ctx.tap(p.pile, p.index);
  s.lastTap = consumed ? NO_TAP : { time: now, pile: p.pile };
}

// Keyboard play: a cursor moves over the piles (Tab, arrows), Enter picks up and drops.
export function installKeyboard(table, ctx) {
  table.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const layout = ctx.layout();
    if (!layout) return;
    const order = layout.order;
    let { pile, index } = ctx.focus() || { pile: order[0], index: -1 };
    const cards = ctx.pileCards(pile);
    // The pile may have shrunk under the cursor (a deal, a mouse move): its top card then.
    if (index >= cards.length) index = cards.length - 1;
    const step = (delta) => {
      const i = order.indexOf(pile) + delta;
      return i >= 0 && i < order.length ? order[i] : null;
    };
    const rowJump = (delta) => {
      const here = layout.piles[pile];
      const row = layout.rows[here.row + delta];
      if (!row) return null;
      let best = row[0];
      for (const name of row) {
        if (Math.abs(layout.piles[name].x - here.x) < Math.abs(layout.piles[best].x - here.x)) best = name;
      }
      return best;
    };
    const firstUp = cards.findIndex((c) => c.up);
    let next = null;
    switch (ev.key) {
      case "Tab": {
        next = step(ev.shiftKey ? -1 : 1);
        if (!next) return; // let the browser move focus out of the table
        break;
      }
      case "ArrowRight":
        next = step(1) || order[0];
        break;
      case "ArrowLeft":
        next = step(-1) || order[order.length - 1];
        break;
      case "ArrowUp":
        if (layout.piles[pile].fan === "down" && firstUp >= 0 && index > firstUp) {
          ctx.setFocus(pile, index - 1);
          ev.preventDefault();
          return;
        }
        next = rowJump(-1);
        if (!next) {
          ev.preventDefault();
          return;
        }
        break;
      case "ArrowDown":
        if (layout.piles[pile].fan === "down" && index >= 0 && index < cards.length - 1) {
          ctx.setFocus(pile, index + 1);
          ev.preventDefault();
          return;
        }
        next = rowJump(1);
        if (!next) {
          ev.preventDefault();
          return;
        }
        break;
      case "Home":
        next = order[0];
        break;
      case "End":
        next = order[order.length - 1];
        break;
      case "Enter":
      case " ": // cards are buttons: Space presses them too (it deals only off the table)
        ev.preventDefault();
        ctx.activate(pile, index);
        return;
      default:
        return;
    }
    ev.preventDefault();
    const n = ctx.pileCards(next).length;
    ctx.setFocus(next, n - 1);
  });
}
