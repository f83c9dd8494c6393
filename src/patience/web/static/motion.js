// Motion: the deal flies from the stock, moves made by the server one after another (auto-play,
// Finish) land card by card. Only drawing: the table already shows the server's position when
// an animation starts (each card is animated from where it was to its place, set by render),
// so input never waits for one. A click or a key skips them all: the cards are at their places
// at once, and the click or key then does what it would have done.

const DEAL_STEP = 22; // ms between two cards of the deal
const DEAL_FLIGHT = 300;
const MOVE_STEP = 130; // ms between two cards sent home one after another
const MOVE_FLIGHT = 220;
const EASE = "cubic-bezier(0.25, 0.8, 0.35, 1)";

const running = new Map(); // Animation -> what to do when it ends (at once when skipped)
const skipHooks = new Set(); // other drawings that a click or key ends (the win's cascade)
const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

// Whether cards move at all: the player's setting, and the system's reduced-motion wish.
export function motionAllowed(settings) {
  return Boolean(settings.animate) && !(reduced && reduced.matches);
}

// Whether something is being drawn that a click or key would end.
export function animating() {
  return running.size > 0 || skipHooks.size > 0;
}

// Put every animated card at its place now, and end the other drawings.
export function skipAll() {
  for (const [a, done] of [...running]) {
    a.finish();
    done();
  }
  for (const end of [...skipHooks]) end();
}

// A promise that resolves once every card has landed (at once when a click skips them).
export function settled() {
  return Promise.all([...running.keys()].map((a) => a.finished.catch(() => {}))).then(() => {});
}

// A drawing of another module that skipAll ends: add returns the function that removes it.
export function onSkip(end) {
  skipHooks.add(end);
  return () => skipHooks.delete(end);
}

function translate(p) {
  return `translate(${p.x}px, ${p.y}px)`;
}

// Fly el from point `from` to where render put it, after `delay` ms, passing over the other
// cards on its way. Until then it waits at `from`, unseen (appear: it shows as it leaves, as
// a dealt card does; else it is seen waiting, as a card still on its pile is).
function fly(el, from, delay, duration, z, appear = false) {
  el.classList.add("in-flight");
  const to = { x: el._x, y: el._y };
  const start = { transform: translate(from), zIndex: z, offset: 0 };
  const frames = appear
    ? [{ ...start, opacity: 0 }, { opacity: 1, offset: 0.1 }, { transform: translate(to), zIndex: z }]
    : [start, { transform: translate(to), zIndex: z }];
  const a = el.animate(frames, {
    duration,
    delay,
    easing: EASE,
    fill: "backwards",
  });
  const done = () => {
    running.delete(a);
    if (![...running.keys()].some((b) => b.effect && b.effect.target === el)) el.classList.remove("in-flight");
  };
  running.set(a, done);
  a.addEventListener("finish", done);
  a.addEventListener("cancel", done);
  return a;
}

// The deal: every card not in the stock flies from the stock (or, with none, from the foot of
// the table) to its place, a round of the piles at a time as a dealer deals.
// cards: {pile: [{key}]}; els: key -> card element (placed by render); layout: computeLayout's.
export function animateDeal(cards, els, layout) {
  skipAll();
  const stock = layout.piles.stock;
  const origin = stock
    ? { x: stock.x, y: stock.y }
    : { x: Math.round((layout.width - layout.cw) / 2), y: Math.max(0, layout.height - layout.ch) };
  const piles = layout.order.filter((p) => p !== "stock" && (cards[p] || []).length);
  const depth = Math.max(0, ...piles.map((p) => cards[p].length));
  let k = 0;
  for (let i = 0; i < depth; i++) {
    for (const p of piles) {
      const card = cards[p][i];
      const el = card && els.get(card.key);
      if (!el) continue;
      fly(el, origin, k * DEAL_STEP, DEAL_FLIGHT, 500 + k, true);
      k++;
    }
  }
}

// The moves of one server reply ("t2>t3 t1>f3 w>f1", as the view's last_move lists them):
// each card sent to a foundation flies there from where it was (before: key -> {x, y}, the
// places before the reply), one after another; the first move starts at once.
// cards: the new {pile: [{key}]}; previous: the old one.
export function animateMoves(moves, before, previous, cards, els) {
  const added = {}; // foundation -> cards it gained, in order
  for (const [pile, list] of Object.entries(cards)) {
    if (pile[0] !== "f") continue;
    const had = (previous[pile] || []).length;
    added[pile] = list.slice(had);
  }
  let k = 0;
  for (const text of moves) {
    const m = /^\w+>(f\d+)/.exec(text);
    if (!m || !added[m[1]] || !added[m[1]].length) continue;
    const card = added[m[1]].shift();
    const el = els.get(card.key);
    const from = before.get(card.key);
    if (!el || !from || (from.x === el._x && from.y === el._y)) continue;
    fly(el, from, k * MOVE_STEP, MOVE_FLIGHT, 600 + k);
    k++;
  }
}

// Where each card is drawn now: key -> {x, y} (to animate from, before a render moves them).
export function placesOf(els) {
  const out = new Map();
  for (const [key, el] of els) if (el._x !== undefined) out.set(key, { x: el._x, y: el._y });
  return out;
}

// A click or a key during an animation ends it first. A card animation's click is then given
// to what is at its place now on the table (the card the player sees land there) and its key
// does what it does, so that no input is lost. The click or key that ends another drawing
// (the win's cascade, which the result follows) does only that.
export function installSkip(table) {
  let swallowClick = false;
  window.addEventListener(
    "pointerdown",
    (ev) => {
      swallowClick = false;
      if (!animating() || !ev.isTrusted) return;
      const other = skipHooks.size > 0;
      skipAll();
      if (other) {
        swallowClick = true;
        ev.stopPropagation();
        ev.preventDefault();
        return;
      }
      const now = document.elementFromPoint(ev.clientX, ev.clientY);
      if (!now || now === ev.target || !table.contains(now) || now.contains(ev.target)) return;
      ev.stopPropagation();
      ev.preventDefault();
      now.dispatchEvent(new PointerEvent("pointerdown", ev));
    },
    true,
  );
  window.addEventListener(
    "click",
    (ev) => {
      if (!swallowClick) return;
      swallowClick = false;
      ev.stopPropagation();
      ev.preventDefault();
    },
    true,
  );
  window.addEventListener(
    "keydown",
    (ev) => {
      if (!animating()) return;
      const other = skipHooks.size > 0;
      skipAll();
      if (other) {
        ev.stopPropagation();
        ev.preventDefault();
      }
    },
    true,
  );
}
