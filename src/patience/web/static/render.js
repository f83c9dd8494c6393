// Rendering: the page's texts and buttons, and the table drawn from the state (slots,
// cards, rings, badges, the info line). Cards keep their elements so moves animate.
import { backSVG, faceKey, faceSVG, indexAcross, indexFan, rankLabel, rankLetter, rankName, rankOf } from "./cards.js";
import { dealLabel } from "./daily.js";
import { formatTime } from "./dialogs.js";
import { chanceItem, gatePeeking, peeking } from "./fair.js";
import { gameInfo, gameTitle, optionsText } from "./games.js";
import { cardName, pileName as pileLabel, t, tn } from "./i18n.js";
import { fitLayout } from "./layout.js";
import { isFullscreen } from "./looks.js";
import { state, table, tableWrap } from "./state.js";

export const cardEls = new Map(); // card text -> element (kept across renders so moves animate)
const slotEls = new Map(); // pile -> element
let ringEls = [];

// ---------- text: every visible string goes through t() ----------

const BUTTONS = {
  "btn-game": () => t("Game"),
  "btn-new": () => t("New deal"),
  "btn-restart": () => t("Restart"),
  "btn-undo": () => t("Undo"),
  "btn-redo": () => t("Redo"),
  "btn-hint": () => t("Hint"),
  "btn-showme": () => (state.showMe ? t("Stop") : t("Show me")),
  "btn-stats": () => t("Statistics"),
  "btn-settings": () => t("Settings"),
  "btn-help": () => t("How to play"),
  "btn-fullscreen": () => (isFullscreen() ? t("Leave full screen") : t("Full screen")),
};

const SHORTCUTS = {
  "btn-new": "N",
  "btn-restart": "R",
  "btn-undo": "Ctrl+Z",
  "btn-redo": "Ctrl+Y",
  "btn-hint": "H",
  "btn-help": "F1",
};

export function applyTexts() {
  document.title = t("Patience");
  for (const [id, label] of Object.entries(BUTTONS)) {
    const b = document.getElementById(id);
    if (!b) continue;
    const text = label();
    b.querySelector(".label").textContent = text;
    b.setAttribute("aria-label", text);
    b.title = SHORTCUTS[id] ? `${text} (${SHORTCUTS[id]})` : text;
  }
  table.setAttribute("aria-label", t("Card table"));
  fitToolbar();
  document.getElementById("table-help").textContent = t(
    "Arrow keys or Tab move between piles, Enter picks up and drops cards, Escape cancels.",
  );
}

// Keep the toolbar on one line where it can be: drop the labels of the less used buttons
// first, then all labels (long languages, narrow windows). Phones use icons anyway.
export function fitToolbar() {
  const bar = document.getElementById("toolbar");
  const groups = bar.querySelectorAll(".group");
  const wraps = () => groups[groups.length - 1].offsetTop > groups[0].offsetTop + 4;
  bar.classList.remove("compact", "icons");
  if (wraps()) bar.classList.add("compact");
  if (wraps()) bar.classList.add("icons");
}

// What an empty pile shows: the rank a foundation starts with, the rank an empty tableau
// pile takes (nothing when it takes nothing), the stock's redeal sign.
function slotLabel(pile) {
  const v = state.view;
  const kind = state.layout.piles[pile].kind;
  const rank = (n) => (n ? rankLabel(rankLetter(n)) : "");
  if (kind === "foundation") return rank(v.marks.foundations[Number(pile.slice(1)) - 1].start);
  if (kind === "tableau") return rank(v.marks.empty_tableau_takes);
  if (kind === "stock") {
    if (!(v.position.waste || []).length) return "";
    return v.redeals_left === 0 ? "✕" : "↻";
  }
  return "";
}

function ensureSlot(pile) {
  let s = slotEls.get(pile);
  if (!s) {
    s = document.createElement("div");
    s.className = "slot";
    s._pile = pile;
    s._index = -1;
    s.tabIndex = -1;
    s.setAttribute("role", "button");
    const label = document.createElement("span");
    label.className = "slot-label";
    label.setAttribute("aria-hidden", "true");
    s.append(label);
    table.append(s);
    slotEls.set(pile, s);
  }
  return s;
}

function ensureCard(text) {
  let c = cardEls.get(text);
  if (!c) {
    c = document.createElement("div");
    c.className = "card";
    c.tabIndex = -1;
    c.setAttribute("role", "button");
    c._face = null;
    table.append(c);
    cardEls.set(text, c);
  }
  return c;
}

function tableSize() {
  const w = tableWrap.clientWidth;
  const h = tableWrap.clientHeight;
  return { w: Math.max(w, 240), h: Math.max(h, 200) };
}

// animate: cards glide to new places; moves: they got there by a move (not a relayout), so
// they let clicks through and pass over other piles while in flight.
export function render({ animate = true, moves = true } = {}) {
  const v = state.view;
  if (!v) return;
  const { w, h } = tableSize();
  const wasteShown = v.table.waste_shown;
  const { layout, placed } = fitLayout(v, w, h, state.cards, indexFan(), indexAcross());
  state.layout = layout;
  state.positions = placed.positions;
  const L = state.layout;
  table.style.setProperty("--cw", `${L.cw}px`);
  table.style.setProperty("--ch", `${L.ch}px`);
  table.style.height = `${placed.height}px`;
  const animating = animate && state.settings.animate;
  table.classList.toggle("no-anim", !animating);
  table.dataset.game = v.game;

  const usedSlots = new Set();
  for (const [pile, info] of Object.entries(L.piles)) {
    const s = ensureSlot(pile);
    usedSlots.add(pile);
    s.style.transform = `translate(${info.x}px, ${info.y}px)`;
    s.dataset.pile = pile;
    s.dataset.kind = info.kind;
    s.querySelector(".slot-label").textContent = slotLabel(pile);
    const n = (state.cards[pile] || []).length;
    s.setAttribute("aria-label", n ? pileLabel(pile) : t("{pile}, empty", { pile: pileLabel(pile) }));
  }
  for (const [pile, s] of slotEls) {
    if (!usedSlots.has(pile)) {
      s.remove();
      slotEls.delete(pile);
    }
  }

  const used = new Set();
  const faceDown = t("face-down card");
  for (const [pile, list] of Object.entries(state.cards)) {
    const pos = state.positions[pile];
    if (!pos) continue;
    list.forEach((card, i) => {
      const c = ensureCard(card.key);
      used.add(card.key);
      const face = card.up ? faceKey(card.text) : "back";
      if (c._face !== face) {
        c.innerHTML = card.up ? faceSVG(card.text) : backSVG();
        c._face = face;
      }
      c._pile = pile;
      c._index = i;
      const moved = c._x !== pos[i].x || c._y !== pos[i].y;
      c._x = pos[i].x;
      c._y = pos[i].y;
      c.classList.remove("dragging");
      c.style.transform = `translate(${pos[i].x}px, ${pos[i].y}px)`;
      c.style.zIndex = String(10 + i);
      // A card in flight lets clicks through to where it is going from (quick stock clicks),
      // and passes over the piles on its way instead of sliding beneath their cards.
      if (moved && animating && moves) {
        c.classList.add("flying");
        c.style.zIndex = String(500 + i);
        clearTimeout(c._landing);
        c._landing = setTimeout(() => {
          c.classList.remove("flying");
          c.style.zIndex = String(10 + c._index);
        }, 220);
      }
      c.classList.toggle("face-down", !card.up);
      // Cards deep in a squared pile are hidden: their shadows would pile up into a dark rim.
      const shown = state.layout.piles[pile].fan === "right" ? wasteShown : 1;
      const spread = ["down", "across"].includes(state.layout.piles[pile].fan);
      c.classList.toggle("buried", !spread && i < list.length - shown - 1);
      c.dataset.pile = pile;
      c.dataset.index = String(i);
      // Face-down cards carry no name, not even in the DOM.
      if (card.up) c.dataset.card = card.text;
      else delete c.dataset.card;
      const sel = state.selected && state.selected.pile === pile && i >= state.selected.index;
      c.classList.toggle("selected", Boolean(sel));
      c.setAttribute("aria-label", card.up ? cardName(card.text) : faceDown);
      // Where the keyboard cursor is: a screen reader says the pile after the card's name.
      c.setAttribute("aria-description", pileLabel(pile));
      if (sel) c.setAttribute("aria-pressed", "true");
      else c.removeAttribute("aria-pressed");
      const hinted = state.hint && state.hint.src === pile && i >= list.length - (state.hint.count || 1);
      c.classList.toggle("hinted", Boolean(hinted));
    });
  }
  for (const [text, c] of cardEls) {
    if (!used.has(text)) {
      c.remove();
      cardEls.delete(text);
    }
  }
  renderBadges();
  renderRings();
  renderInfo();
  renderButtons();
  restoreFocus();
}

function renderBadges() {
  for (const b of table.querySelectorAll(".badge")) b.remove();
  const v = state.view;
  const L = state.layout;
  const add = (pile, text, cls) => {
    const info = L.piles[pile];
    if (!info) return;
    const b = document.createElement("div");
    b.className = `badge ${cls}`;
    const inner = document.createElement("span");
    inner.textContent = text;
    b.append(inner);
    b.setAttribute("aria-hidden", "true");
    // The stock count sits on the stock; a foundation's step sits on its foot.
    const dy = cls === "count" ? 0 : L.ch;
    b.style.transform = `translate(${info.x}px, ${info.y + dy}px)`;
    table.append(b);
  };
  const stock = state.cards.stock || [];
  // No count on Lady Jane's last, face-up stock card: it would hide the card's corner.
  if (stock.length && !stock[stock.length - 1].up) add("stock", String(stock.length), "count");
  // Foundations that climb by other steps than one (Hopscotch) show their step and next rank.
  const marks = v.marks.foundations;
  if (marks.some((m) => m.step !== 1)) {
    // "+1 → 2" is about 44 px wide at its smallest type: beside narrower cards (a long
    // reserve on a phone held sideways) the labels would overlap, and keep the next rank only.
    const short = L.cw + L.gap < 48;
    (v.position.foundations || []).forEach((f, i) => {
      const { start, step } = marks[i];
      const next = f.length ? rankOf(f[f.length - 1]) + step : start;
      const text = f.length >= 13
        ? (short ? "✓" : `+${step} ✓`)
        : (short ? "" : `+${step}\u2009`) + `→\u2009${rankLabel(rankLetter(next))}`;
      add(`f${i + 1}`, text, "step");
    });
  }
}

function rect(pile, fromIndex = null) {
  const L = state.layout;
  const info = L.piles[pile];
  const pos = state.positions[pile] || [];
  if (!pos.length || fromIndex === -1) return { x: info.x, y: info.y, w: L.cw, h: L.ch };
  const i0 = fromIndex === null ? pos.length - 1 : Math.max(0, fromIndex);
  const first = pos[i0];
  const last = pos[pos.length - 1];
  return { x: first.x, y: first.y, w: last.x - first.x + L.cw, h: last.y - first.y + L.ch };
}

function placeRing(r, cls) {
  const ring = document.createElement("div");
  ring.className = `ring ${cls}`;
  ring.style.transform = `translate(${r.x}px, ${r.y}px)`;
  ring.style.width = `${r.w}px`;
  ring.style.height = `${r.h}px`;
  ring.setAttribute("aria-hidden", "true");
  table.append(ring);
  ringEls.push(ring);
  return ring;
}

let targetPiles = [];
let hoverPile = null;

function renderRings() {
  for (const r of ringEls) r.remove();
  ringEls = [];
  if (state.hint && state.hint.dst) placeRing(rect(state.hint.dst), "hint-target");
  if (state.hint && state.hint.src === "stock") placeRing(rect("stock"), "hint-target");
  for (const pile of targetPiles) {
    const ring = placeRing(rect(pile), "drop-target");
    ring.dataset.pile = pile;
    if (pile === hoverPile) ring.classList.add("hover");
  }
  // The keyboard cursor on an empty pile or a face-down stock has no card to outline.
  for (const s of slotEls.values()) s.classList.toggle("drop-ok", targetPiles.includes(s._pile));
}

// The piles a dragged card may drop on, ringed; the one under the pointer highlighted.
export function showTargets(piles) {
  targetPiles = piles;
  renderRings();
}

export function hoverTarget(pile) {
  if (pile === hoverPile) return;
  hoverPile = pile;
  for (const r of ringEls) r.classList.toggle("hover", r.dataset.pile === pile);
}

export function renderInfo() {
  const v = state.view;
  const info = document.getElementById("info");
  if (!v) return;
  const items = [];
  const item = (cls, text) => {
    const s = document.createElement("span");
    s.className = cls;
    s.textContent = text;
    items.push(s);
    return s;
  };
  item("game-title", gameTitle(v.game, v.title));
  // The deal mode or build rule chosen (Klondike's draw count is nowhere else on screen).
  const variant = optionsText(v.game, v.options);
  // On a phone on its side the deal mode may end in "…" (style.css): its words stay here.
  if (variant) item("variant", variant).title = variant;
  item("deal", dealLabel(v));
  item("score", t("Score {score}/{max}", { score: v.score, max: v.max_score }));
  item("moves", tn("{n} move", "{n} moves", v.moves_made));
  item("clock", formatTime(elapsedNow()));
  const declared = gameInfo(v.game) || {};
  if (declared.has_stock) item("stock", t("Stock {n}", { n: v.stock_count }));
  if (declared.has_redeals) {
    // On a phone on its side, "↻ 2" (or "↻ ∞") stands for the words, kept as its title.
    const words = v.redeals_left === null ? t("Redeals: unlimited") : t("Redeals left: {n}", { n: v.redeals_left });
    const s = item("redeals", "");
    s.title = words;
    const long = document.createElement("span");
    long.className = "long";
    long.textContent = words;
    const short = document.createElement("span");
    short.className = "short";
    short.setAttribute("aria-hidden", "true");
    short.textContent = `↻\u2009${v.redeals_left === null ? "∞" : v.redeals_left}`;
    s.append(long, short);
  }
  if (v.base) item("base", t("Base rank: {rank}", { rank: rankName(v.base) }));
  if (state.settings.showWinnable && peeking(state.settings) && state.winnable) {
    const verdict = state.winnable.verdict;
    const text = {
      checking: t("Checking…"),
      winnable: t("Winnable"),
      lost: t("Not winnable"),
      unknown: t("Unknown"),
    }[verdict];
    item(`winnable winnable-${verdict}`, text);
  }
  const chance = chanceItem(v, state.settings);
  if (chance) item("chance", chance.text).title = chance.title;
  info.replaceChildren(...items);
}

// The server counts at most this many seconds of a pause (service.IDLE_CAP): the clock on
// screen stops there too, instead of running on and jumping back at the next move.
const IDLE_CAP = 30;

export function elapsedNow() {
  const v = state.view;
  if (!v) return 0;
  const running = v.status === "playing" && v.moves_made > 0;
  const since = Math.min((performance.now() - state.receivedAt) / 1000, IDLE_CAP);
  return v.elapsed + (running ? since : 0);
}

export function renderButtons() {
  const v = state.view;
  const set = (id, enabled) => {
    const b = document.getElementById(id);
    if (b) b.disabled = !enabled;
  };
  set("btn-undo", v && v.can_undo);
  set("btn-redo", v && v.can_redo);
  set("btn-restart", v && (v.can_undo || v.can_redo));
  set("btn-hint", v && v.status !== "won");
  set("btn-showme", v && (v.status === "playing" || state.showMe));
  gatePeeking(state.settings);
}

export function restoreFocus() {
  if (!state.focus) return;
  const el = focusElement(state.focus.pile, state.focus.index);
  const inTable = table.contains(document.activeElement);
  for (const c of table.querySelectorAll(".kbd-focus")) c.classList.remove("kbd-focus");
  if (el) {
    el.classList.add("kbd-focus");
    if (inTable && document.activeElement !== el) el.focus({ preventScroll: false });
  }
}

export function focusElement(pile, index) {
  const list = state.cards[pile] || [];
  if (!list.length || index < 0) return slotEls.get(pile);
  const card = list[Math.min(index, list.length - 1)];
  return cardEls.get(card.key);
}
