// The patience table: state, rendering, and the player's actions. The server decides every
// rule; this page shows the GameView it returns and sends it the player's moves.
import * as api from "./api.js";
import { backSVG, cardDefs, faceKey, faceSVG, rankLabel, rankLetter, rankName, rankOf } from "./cards.js";
import {
  closeDialogs,
  formatTime,
  openConfirm,
  openNewGame,
  openResult,
  openSettings,
  refreshDialogs,
} from "./dialogs.js";
import { dealLabel } from "./daily.js";
import { gameInfo, gameTitle, gameWithOptions, games, loadGames } from "./games.js";
import { mountLanguageMenu, openHelp } from "./help.js";
import { cardName, initI18n, pileName as pileLabel, t, tError, tn } from "./i18n.js";
import { installKeyboard, installPointer } from "./input.js";
import { computeLayout, moveName, pileOfToken, pilesOf, placeCards } from "./layout.js";
import { applyLooks, installFullscreen, isFullscreen, LOOK_CHOICES, LOOK_DEFAULTS, toggleFullscreen } from "./looks.js";
import { enableSound, playSound } from "./sound.js";
import { openStats } from "./stats.js";

const SETTINGS_KEY = "patience.settings";
const LAST_GAME_KEY = "patience.lastGame";

const state = {
  view: null,
  cards: {}, // pile -> [{text, up}]
  layout: null,
  positions: {},
  selected: null, // {pile, index}
  focus: null, // {pile, index}: the keyboard cursor
  hint: null, // {src, index, dst} to highlight
  busy: 0,
  receivedAt: performance.now(),
  showMe: null,
  winnable: null, // {verdict} for the optional indicator
  winnableAbort: null,
  winnableRequest: null, // {view, promise}: the indicator's hint request
  settings: loadSettings(),
};

const table = document.getElementById("table");
const tableWrap = document.getElementById("table-wrap");
const statusEl = document.getElementById("status");
const announceEl = document.getElementById("announce");
const cardEls = new Map(); // card text -> element (kept across renders so moves animate)
const slotEls = new Map(); // pile -> element
let ringEls = [];

function loadSettings() {
  const defaults = { showWinnable: false, winnableOnly: false, animate: true, oneClick: false, sound: false, ...LOOK_DEFAULTS };
  try {
    return { ...defaults, ...JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") };
  } catch {
    return defaults;
  }
}

function saveSetting(key, value) {
  state.settings[key] = value;
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(state.settings));
  if (key === "showWinnable") {
    state.winnable = null;
    checkWinnable();
    renderInfo();
  }
  document.body.classList.toggle("no-anim-pref", !state.settings.animate);
  applyLooks(state.settings);
  enableSound(state.settings.sound);
  if (key === "face") render({ animate: false });
}

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

function applyTexts() {
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

function say(text) {
  // Clearing first makes screen readers repeat a message identical to the last one.
  announceEl.textContent = "";
  setTimeout(() => (announceEl.textContent = text), 30);
}

// Show a message; text may be a function, called again when the language changes.
function setStatus(text, kind = "info", extra = null) {
  state.status = { text, kind, extra };
  statusEl.replaceChildren();
  const span = document.createElement("span");
  span.textContent = typeof text === "function" ? text() : text;
  statusEl.append(span);
  if (extra) statusEl.append(extra);
  statusEl.dataset.kind = kind;
}

// A success message, unless the move ended the game (its own message stays); with a
// "Finish" button once sending every card home wins (the server's marks say so).
function reportDone(text) {
  if (state.view && state.view.status === "playing") setStatus(text, "info", finishButton());
}

function finishButton() {
  if (!state.view.marks.finishes) return null;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "inline";
  button.id = "status-finish";
  button.textContent = t("Finish");
  button.addEventListener("click", autoFinish);
  return button;
}


function errorText(err) {
  if (err instanceof api.ApiError) return tError(err);
  return t("The server cannot be reached. Is patience still running?");
}

function showError(err) {
  playSound("refusal");
  setStatus(() => errorText(err), "error");
  say(errorText(err));
}

// Keep the toolbar on one line where it can be: drop the labels of the less used buttons
// first, then all labels (long languages, narrow windows). Phones use icons anyway.
function fitToolbar() {
  const bar = document.getElementById("toolbar");
  const groups = bar.querySelectorAll(".group");
  const wraps = () => groups[groups.length - 1].offsetTop > groups[0].offsetTop + 4;
  bar.classList.remove("compact", "icons");
  if (wraps()) bar.classList.add("compact");
  if (wraps()) bar.classList.add("icons");
}

// ---------- moves ----------

function parseMove(text) {
  if (text === "deal") return { deal: true };
  const m = /^(\w+)>(\w+)(?:\/(\d+))?$/.exec(text);
  if (!m) return null;
  return { src: pileOfToken(m[1]), dst: pileOfToken(m[2]), count: m[3] ? Number(m[3]) : 1 };
}

function moveText(src, dst, count) {
  return `${moveName(src)}>${moveName(dst)}${count > 1 ? `/${count}` : ""}`;
}

function describeMove(text, cards = state.cards) {
  const m = parseMove(text);
  if (!m) return text;
  if (m.deal) return t("Deal from the stock");
  const pile = cards[m.src] || [];
  const card = pile[pile.length - m.count];
  const name = card ? cardName(card.text) : pileLabel(m.src);
  const params = { card: name, pile: pileLabel(m.dst) };
  return m.count > 1
    ? tn("{card} and the card on it to {pile}", "{card} and the {n} cards on it to {pile}", m.count - 1, params)
    : t("{card} to {pile}", params);
}

// The position's legal moves, as the server lists them, parsed.
function legalMoves() {
  return state.view ? (state.view.legal_moves || []).map(parseMove).filter(Boolean) : [];
}

function legalTargets(src, count) {
  return legalMoves()
    .filter((m) => !m.deal && m.src === src && m.count === count)
    .map((m) => m.dst);
}

// Stop "Show me" at once (the button, the table and the status line say so now, not when
// the solver's pending answer comes back); its loop ends at its next check.
function cancelShowMe() {
  const run = state.showMe;
  if (!run) return;
  run.cancelled = true;
  state.showMe = null;
  state.hint = null;
  document.body.classList.remove("showing");
  applyTexts();
  renderButtons();
}

// Run one server call that returns a GameView; keep the page consistent whatever happens.
async function perform(call, { announce = null } = {}) {
  state.busy++;
  document.body.classList.add("busy");
  try {
    const view = await call();
    setView(view, { announce });
    return true;
  } catch (err) {
    showError(err);
    if (err instanceof api.ApiError && err.status === 404 && state.view) {
      // The game is gone (stale id): pick up whatever the server has now.
      const current = await api.currentGame().catch(() => null);
      if (current && current.id !== state.view.id) setView(current);
      else if (!current) await newDeal();
    }
    render();
    return false;
  } finally {
    state.busy--;
    if (!state.busy) document.body.classList.remove("busy");
  }
}

// Whether the server lists this move among the position's legal moves.
function isLegal(text) {
  const m = parseMove(text);
  return Boolean(m) && legalMoves().some((l) =>
    l.deal ? m.deal : !m.deal && l.src === m.src && l.dst === m.dst && l.count === m.count,
  );
}

// assisted: "Show me" plays the move (the game then counts as assisted).
async function playMove(text, { assisted = false } = {}) {
  if (!state.view) return false;
  const before = state.cards;
  const description = () => describeMove(text, before);
  state.selected = null;
  state.hint = null;
  const options = { legal: isLegal(text), assisted };
  const ok = await perform(() => api.move(state.view.id, text, options), { announce: description() });
  if (ok) playSound(text === "deal" ? "deal" : "move");
  if (ok) reportDone(description);
  return ok;
}

async function tryMove(src, index, dst) {
  const pile = state.cards[src] || [];
  const count = pile.length - index;
  if (count < 1) return false;
  return playMove(moveText(src, dst, count));
}

async function deal() {
  if (!state.view) return;
  cancelShowMe();
  await playMove("deal");
}

// Whether a legal move sends a card to a foundation (from pile src, or from anywhere).
function canGoUp(src = null) {
  return legalMoves().some((m) => !m.deal && m.dst[0] === "f" && (src === null || m.src === src));
}

// The server would refuse these with a 409 (an error in the console): say why here.
function refuseLocally(text) {
  playSound("refusal");
  setStatus(text, "error");
  say(text());
  render();
}

async function toFoundation(pile) {
  if (!state.view) return;
  const cards = state.cards[pile] || [];
  const top = cards[cards.length - 1];
  state.selected = null;
  state.hint = null;
  if (!canGoUp(pile)) {
    refuseLocally(() => t("The top card of {pile} cannot go to a foundation", { pile: pileLabel(pile) }));
    return;
  }
  const description = () => (top ? t("{card} to its foundation", { card: cardName(top.text) }) : "");
  const ok = await perform(() => api.toFoundation(state.view.id, pile), { announce: description() });
  if (ok) playSound("move");
  if (ok) reportDone(description);
}

async function autoFinish() {
  if (!state.view) return;
  state.selected = null;
  if (!canGoUp()) {
    refuseLocally(() => t("No card can go to the foundations."));
    return;
  }
  const before = state.view.moves_made;
  const ok = await perform(() => api.action(state.view.id, "autofinish"));
  if (ok) playSound("move");
  if (ok) {
    const n = state.view.moves_made - before;
    const text = n ? tn("{n} card moved to the foundations", "{n} cards moved to the foundations", n) : t("No card can go to the foundations.");
    reportDone(text);
    if (state.view.status === "playing") say(text);
  }
}

async function simpleAction(name, doneText) {
  if (!state.view) return;
  cancelShowMe();
  state.selected = null;
  state.hint = null;
  const ok = await perform(() => api.action(state.view.id, name));
  if (ok && state.view.status === "playing") {
    const notice = state.view.notice;
    setStatus(notice ? () => t(notice) : doneText);
    say(notice ? t(notice) : doneText());
  }
}

// Undo and redo run one after another, each checking it still has something to do: a held
// Ctrl+Z (key repeat) walks back to the start and stops there, with no refused requests.
let actionQueue = Promise.resolve();
function queued(fn) {
  const run = actionQueue.then(fn);
  actionQueue = run.catch(() => {});
  return run;
}
const undo = () => queued(() => state.view && state.view.can_undo && simpleAction("undo", () => t("Move undone")));
const redo = () => queued(() => state.view && state.view.can_redo && simpleAction("redo", () => t("Move redone")));
const restartNow = () => simpleAction("restart", () => t("Deal restarted"));

// A game with moves in it is only thrown away after the player says so: restarting clears
// the undo history, and a stray key press must not cost a game.
function inProgress() {
  const v = state.view;
  return Boolean(v && v.status === "playing" && v.moves_made > 0);
}

function restart() {
  if (!state.view || !(state.view.can_undo || state.view.can_redo)) return;
  if (!inProgress()) return restartNow();
  cancelShowMe();
  openConfirm({
    title: () => t("Restart this deal?"),
    text: () => t("Every move will be taken back, and the undo history cleared."),
    confirmLabel: () => t("Restart"),
    onConfirm: restartNow,
  });
}

function newDealAsked() {
  if (!inProgress()) return newDeal();
  cancelShowMe();
  openConfirm({
    title: () => t("Start a new deal?"),
    text: () => t("The game in progress will count as lost."),
    confirmLabel: () => t("New deal"),
    onConfirm: newDeal,
  });
}
// The solver may search for seconds: say so at once, or the click seems lost.
const rewind = () => {
  setStatus(t("Thinking…"));
  return simpleAction("rewind", () => t("Rewound to the last winnable position"));
};

async function startGame(body) {
  cancelShowMe();
  closeDialogs();
  state.selected = null;
  state.hint = null;
  state.focus = null;
  localStorage.setItem(LAST_GAME_KEY, JSON.stringify({ game: body.game, options: body.options }));
  if (body.daily) {
    setStatus(() => t("Finding the deal of the day…"));
    say(t("Finding the deal of the day…"));
  } else if (body.winnable) {
    setStatus(() => t("Looking for a winnable deal…"));
    say(t("Looking for a winnable deal…"));
  }
  const ok = await perform(() => api.newGame(body));
  if (ok) playSound("deal");
  if (ok) {
    const v = state.view;
    const text = () => t("{game}, deal {deal}", { game: gameWithOptions(v.game, v.options), deal: v.deal ?? "–" });
    setStatus(v.notice ? () => t(v.notice) : text);
    say(v.notice ? t(v.notice) : text());
  }
}

function newDeal() {
  const v = state.view;
  // The game played last, while the server still deals it; else the first game.
  let last = JSON.parse(localStorage.getItem(LAST_GAME_KEY) || "null");
  if (!last || !gameInfo(last.game)) last = { game: games()[0].name, options: {} };
  const game = v ? v.game : last.game;
  const options = v ? v.options : last.options || {};
  return startGame({ game, options, deal: null, winnable: state.settings.winnableOnly });
}

function openNewGameDialog() {
  cancelShowMe();
  const v = state.view;
  openNewGame({
    game: v ? v.game : games()[0].name,
    options: v ? v.options : {},
    winnableOnly: state.settings.winnableOnly,
    onStart: (body) => {
      saveSetting("winnableOnly", body.winnable || (state.settings.winnableOnly && body.deal !== null));
      // Leaving a game in progress counts as a loss: ask, as the New deal button does.
      if (!inProgress()) return startGame(body);
      openConfirm({
        title: () => t("Start a new deal?"),
        text: () => t("The game in progress will count as lost."),
        confirmLabel: () => t("New deal"),
        onConfirm: () => startGame(body),
      });
    },
  });
}

const showStats = () => openStats(showError);

// ---------- hints ----------

async function showHint() {
  if (!state.view || state.view.status === "won") return;
  cancelShowMe();
  setStatus(t("Thinking…"));
  const v = state.view;
  let h;
  try {
    h = await hintFor(v);
  } catch (err) {
    if (state.view === v) showError(err);
    return;
  }
  // A hint for a position the player has already left would point at the wrong cards.
  if (state.view !== v) return;
  if (state.settings.showWinnable) {
    state.winnable = { verdict: h.verdict };
    renderInfo();
  }
  presentHint(h);
}

// The solver's answer for view v: the winnable indicator's request when it is asking about
// this very position (a second request would cancel it on the server), else a new one.
function hintFor(v) {
  const w = state.winnableRequest;
  // If the indicator gives up its request (its setting turned off), ask on our own.
  if (w && w.view === v) return w.promise.catch((err) => (err && err.name === "AbortError" ? api.hint(v.id) : Promise.reject(err)));
  return api.hint(v.id);
}

function presentHint(h) {
  if (h.verdict === "lost" || !h.move) {
    state.hint = null;
    render();
    const button = document.createElement("button");
    button.type = "button";
    button.className = "inline";
    button.id = "status-rewind";
    button.textContent = t("Rewind to the last winnable position");
    button.addEventListener("click", rewind);
    const text = () =>
      h.verdict === "lost" ? t("This position cannot be won.") : t("No hint: there is no legal move.");
    setStatus(text, "warn", state.view.can_undo ? button : null);
    say(text());
    return;
  }
  const m = parseMove(h.move);
  state.hint = m && m.deal ? { src: "stock", index: -1, dst: null, move: h.move } : m ? { ...m, move: h.move } : null;
  const cards = state.cards;
  const text = () =>
    h.verdict === "winnable"
      ? t("Hint: {move}", { move: describeMove(h.move, cards) })
      : t("Best guess (not proven): {move}", { move: describeMove(h.move, cards) });
  setStatus(text, "hint");
  say(text());
  render();
}

function delay(ms, run) {
  return new Promise((resolve) => {
    const start = performance.now();
    const tick = () => {
      if ((run && run.cancelled) || performance.now() - start >= ms) resolve();
      else setTimeout(tick, 40);
    };
    tick();
  });
}

// "Show me": play the solver's line one move at a time until won, stopped, or it gives up.
async function showMe() {
  if (state.showMe) {
    cancelShowMe();
    setStatus(() => t("Stopped."));
    say(t("Stopped."));
    render();
    return;
  }
  if (!state.view || state.view.status !== "playing") return;
  const run = { cancelled: false };
  state.showMe = run;
  applyTexts();
  document.body.classList.add("showing");
  try {
    let steps = 0;
    while (!run.cancelled && state.view.status === "playing" && steps < 600) {
      setStatus(t("Thinking…"));
      const h = await hintFor(state.view);
      if (run.cancelled) break;
      if (h.verdict === "lost" || !h.move) {
        presentHint(h);
        break;
      }
      const line = h.line && h.line.length ? h.line : [h.move];
      for (const move of line) {
        if (run.cancelled || state.view.status !== "playing") break;
        presentHint({ ...h, move });
        await delay(420, run);
        if (run.cancelled) break;
        if (!(await playMove(move, { assisted: true }))) {
          run.cancelled = true;
          break;
        }
        steps++;
        await delay(180, run);
      }
    }
  } catch (err) {
    if (!run.cancelled) showError(err);
  } finally {
    // Whoever cancelled the run has already tidied up (and may have started another).
    if (state.showMe === run) {
      cancelShowMe();
      render();
    }
  }
}

// The optional "winnable?" indicator: ask the solver after every change.
async function checkWinnable() {
  if (state.winnableAbort) state.winnableAbort.abort();
  state.winnableAbort = null;
  const v = state.view;
  if (!v || !state.settings.showWinnable || v.status !== "playing") {
    state.winnable = null;
    return;
  }
  const controller = new AbortController();
  state.winnableAbort = controller;
  state.winnable = { verdict: "checking" };
  renderInfo();
  const promise = api.hint(v.id, controller.signal);
  state.winnableRequest = { view: v, promise };
  try {
    const h = await promise;
    if (state.view && state.view.id === v.id && state.view.moves_made === v.moves_made) {
      state.winnable = { verdict: h.verdict };
      renderInfo();
    }
  } catch {
    /* aborted by a newer move, or the server is busy: the indicator just waits */
  }
}

// ---------- state updates ----------

function setView(view, { announce = null } = {}) {
  const previous = state.view;
  const fresh = !previous || previous.id !== view.id;
  state.fresh = fresh;
  state.view = view;
  state.receivedAt = performance.now();
  state.cards = pilesOf(view);
  if (fresh) {
    state.selected = null;
    state.hint = null;
  }
  if (state.selected && !(state.cards[state.selected.pile] || [])[state.selected.index]) state.selected = null;
  render({ animate: !fresh });
  if (announce) say(announce);
  if (view.status === "won" && (!previous || previous.status !== "won" || fresh)) {
    cancelShowMe();
    playSound("win");
    setStatus(() => t("You won!"), "won");
    say(t("You won!"));
    document.body.classList.add("celebrate");
    setTimeout(() => document.body.classList.remove("celebrate"), 1600);
    setTimeout(() => openResult("won", state.view, resultActions), 450);
  } else if (view.status === "stuck" && (!previous || previous.status !== "stuck" || fresh)) {
    cancelShowMe();
    setStatus(() => t("No moves left"), "warn");
    say(t("No moves left"));
    openResult("stuck", view, resultActions);
  }
  checkWinnable();
}

const resultActions = {
  newGame: () => newDeal(),
  undo: () => undo(),
  rewind: () => rewind(),
  stats: () => showStats(),
};

// ---------- rendering ----------

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
  return { w: Math.max(w, 240), h: Math.max(h, 300) };
}

// animate: cards glide to new places; moves: they got there by a move (not a relayout), so
// they let clicks through and pass over other piles while in flight.
function render({ animate = true, moves = true } = {}) {
  const v = state.view;
  if (!v) return;
  const { w, h } = tableSize();
  const wasteShown = v.table.waste_shown;
  // Smaller cards when a long pile would not fit even with its fan squeezed, as AisleRiot does.
  let placed = null;
  for (let scale = 1; ; scale *= 0.93) {
    state.layout = computeLayout(v, w, h, scale);
    placed = placeCards(state.layout, state.cards, { wasteShown });
    if (placed.height <= h + 1 || scale < 0.5) break;
  }
  // A very long pile (a Hopscotch reserve of 20 cards and more): overlap its cards more
  // rather than push the last one off the table.
  if (placed.height > h + 1) {
    placed = placeCards(state.layout, state.cards, { wasteShown, minUpFan: 0.1 });
  }
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
      c.classList.toggle("buried", state.layout.piles[pile].fan !== "down" && i < list.length - shown - 1);
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
    (v.position.foundations || []).forEach((f, i) => {
      const { start, step } = marks[i];
      const next = f.length ? rankOf(f[f.length - 1]) + step : start;
      add(`f${i + 1}`, f.length >= 13 ? `+${step} ✓` : `+${step} → ${rankLabel(rankLetter(next))}`, "step");
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

function renderInfo() {
  const v = state.view;
  const info = document.getElementById("info");
  if (!v) return;
  const items = [];
  const item = (cls, text) => {
    const s = document.createElement("span");
    s.className = cls;
    s.textContent = text;
    items.push(s);
  };
  item("game-title", gameTitle(v.game, v.title));
  item("deal", dealLabel(v));
  item("score", t("Score {score}/{max}", { score: v.score, max: v.max_score }));
  item("moves", tn("{n} move", "{n} moves", v.moves_made));
  item("clock", formatTime(elapsedNow()));
  const declared = gameInfo(v.game) || {};
  if (declared.has_stock) item("stock", t("Stock {n}", { n: v.stock_count }));
  if (declared.has_redeals) {
    item("redeals", v.redeals_left === null ? t("Redeals: unlimited") : t("Redeals left: {n}", { n: v.redeals_left }));
  }
  if (v.base) item("base", t("Base rank: {rank}", { rank: rankName(v.base) }));
  if (state.settings.showWinnable && state.winnable) {
    const verdict = state.winnable.verdict;
    const text = {
      checking: t("Checking…"),
      winnable: t("Winnable"),
      lost: t("Not winnable"),
      unknown: t("Unknown"),
    }[verdict];
    item(`winnable winnable-${verdict}`, text);
  }
  info.replaceChildren(...items);
}

// The server counts at most this many seconds of a pause (service.IDLE_CAP): the clock on
// screen stops there too, instead of running on and jumping back at the next move.
const IDLE_CAP = 30;

function elapsedNow() {
  const v = state.view;
  if (!v) return 0;
  const running = v.status === "playing" && v.moves_made > 0;
  const since = Math.min((performance.now() - state.receivedAt) / 1000, IDLE_CAP);
  return v.elapsed + (running ? since : 0);
}

function renderButtons() {
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
}

function restoreFocus() {
  if (!state.focus) return;
  const el = focusElement(state.focus.pile, state.focus.index);
  const inTable = table.contains(document.activeElement);
  for (const c of table.querySelectorAll(".kbd-focus")) c.classList.remove("kbd-focus");
  if (el) {
    el.classList.add("kbd-focus");
    if (inTable && document.activeElement !== el) el.focus({ preventScroll: false });
  }
}

function focusElement(pile, index) {
  const list = state.cards[pile] || [];
  if (!list.length || index < 0) return slotEls.get(pile);
  const card = list[Math.min(index, list.length - 1)];
  return cardEls.get(card.key);
}

// ---------- input callbacks ----------

function isDeal(pile, index) {
  if (pile !== "stock") return false;
  const list = state.cards.stock || [];
  return !(list.length && list[list.length - 1].up && index >= 0);
}

function canPick(pile, index) {
  const list = state.cards[pile] || [];
  const card = list[index];
  if (!card || !card.up) return false;
  // Only a pile's top card moves, except in fanned tableau piles where a run moves.
  const kind = state.layout.piles[pile].kind;
  return kind === "tableau" || index === list.length - 1;
}

function tap(pile, index) {
  cancelShowMe();
  if (isDeal(pile, index)) {
    state.selected = null;
    deal();
    return true;
  }
  const sel = state.selected;
  if (sel && sel.pile !== pile) {
    tryMove(sel.pile, sel.index, pile);
    return true;
  }
  if (sel && sel.pile === pile && sel.index === index) {
    state.selected = null;
    render();
    return false;
  }
  if (canPick(pile, index) && state.settings.oneClick) {
    const best = bestTarget(pile, state.cards[pile].length - index);
    if (best) {
      state.selected = null;
      tryMove(pile, index, best);
      return true;
    }
  }
  if (canPick(pile, index)) {
    state.selected = { pile, index };
    const card = state.cards[pile][index];
    say(t("{card} selected", { card: cardName(card.text) }));
  } else {
    state.selected = null;
  }
  render();
  return false;
}

// Where one click sends a card (the one-click setting): a foundation, then a card to build
// on, then an empty tableau pile. Never off a foundation, never to a reserve (in Hopscotch
// the choice of reserve is the game): those still take two clicks.
function bestTarget(pile, count) {
  if (state.layout.piles[pile].kind === "foundation") return null;
  const rank = (dst) => {
    const kind = state.layout.piles[dst].kind;
    if (kind === "foundation") return 0;
    if (kind !== "tableau") return 9;
    return (state.cards[dst] || []).length ? 1 : 2;
  };
  const targets = legalTargets(pile, count).filter((dst) => rank(dst) < 9);
  return targets.sort((a, b) => rank(a) - rank(b))[0] || null;
}

function doubleTap(pile) {
  cancelShowMe();
  state.selected = null;
  const kind = state.layout.piles[pile].kind;
  if (kind === "foundation") autoFinish();
  else if (pile === "stock" && isDeal(pile, 0)) deal();
  else if ((state.cards[pile] || []).length) toFoundation(pile);
}

function activate(pile, index) {
  cancelShowMe();
  const sel = state.selected;
  if (sel && sel.pile !== pile) {
    state.focus = { pile, index };
    tryMove(sel.pile, sel.index, pile).then(() => {
      const n = (state.cards[pile] || []).length;
      state.focus = { pile, index: n - 1 };
      restoreFocus();
    });
    return;
  }
  if (isDeal(pile, index)) {
    deal();
    return;
  }
  if (sel) {
    state.selected = null;
    say(t("Selection cancelled"));
    render();
    return;
  }
  if (canPick(pile, index)) {
    state.selected = { pile, index };
    const n = state.cards[pile].length - index;
    say(
      n > 1
        ? t("Picked up {card} and {n} more; choose a pile and press Enter", { card: cardName(state.cards[pile][index].text), n: n - 1 })
        : t("Picked up {card}; choose a pile and press Enter", { card: cardName(state.cards[pile][index].text) }),
    );
  } else {
    say(t("Nothing to pick up here"));
  }
  render();
}

function setFocus(pile, index) {
  state.focus = { pile, index };
  restoreFocus();
  const el = focusElement(pile, index);
  if (el) el.focus();
}

const pointerCtx = {
  busy: () => state.busy > 0 && !state.showMe,
  canDrag: (pile, index) => !isDeal(pile, index) && canPick(pile, index),
  cardElements: (pile, index) => (state.cards[pile] || []).slice(index).map((c) => cardEls.get(c.key)),
  targets: legalTargets,
  showTargets: (piles) => {
    targetPiles = piles;
    renderRings();
  },
  hover: (pile) => {
    if (pile === hoverPile) return;
    hoverPile = pile;
    for (const r of ringEls) r.classList.toggle("hover", r.dataset.pile === pile);
  },
  layout: () => state.layout,
  positions: () => state.positions,
  cancelShowMe,
  drop: (src, index, dst) => {
    state.selected = null;
    tryMove(src, index, dst);
  },
  springBack: () => render(),
  tap,
  doubleTap,
  backgroundTap: () => {
    if (state.selected) {
      state.selected = null;
      render();
    }
  },
};

const keyboardCtx = {
  layout: () => state.layout,
  focus: () => state.focus,
  pileCards: (pile) => state.cards[pile] || [],
  setFocus,
  activate,
};

// ---------- global shortcuts ----------

function onKey(ev) {
  if (ev.defaultPrevented) return; // the table's keyboard play took it
  const tag = (ev.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea") return;
  // Space and Enter press a focused button; they are not shortcuts there.
  if (tag === "button" && (ev.key === " " || ev.key === "Enter")) return;
  if (document.querySelector("dialog[open]")) return;
  const ctrl = ev.ctrlKey || ev.metaKey;
  const key = ev.key;
  let handled = true;
  if (ctrl && (key === "z" || key === "Z")) ev.shiftKey ? redo() : undo();
  else if (ctrl && (key === "y" || key === "Y")) redo();
  else if (ctrl || ev.altKey) handled = false;
  else if (key === "n" || key === "N") newDealAsked();
  else if (key === "r" || key === "R") restart();
  else if (key === "u" || key === "U") undo();
  else if (key === "h" || key === "H") showHint();
  else if (key === "d" || key === "D" || key === " ") deal();
  else if (key === "?" || key === "F1") openHelp(state.view ? state.view.game : games()[0].name);
  else if (key === "Escape") {
    const had = state.selected || state.hint || state.showMe;
    cancelShowMe();
    state.selected = null;
    state.hint = null;
    // The hint's words go with its highlight.
    if (state.status && state.status.kind === "hint") setStatus("");
    if (had) {
      say(t("Cancelled"));
      render();
    } else handled = false;
  } else handled = false;
  if (handled) ev.preventDefault();
}

// ---------- start ----------

function wireButtons() {
  const on = (id, fn) => document.getElementById(id).addEventListener("click", fn);
  on("btn-game", openNewGameDialog);
  on("btn-new", newDealAsked);
  on("btn-restart", restart);
  on("btn-undo", undo);
  on("btn-redo", redo);
  on("btn-hint", showHint);
  on("btn-showme", showMe);
  on("btn-stats", showStats);
  on("btn-settings", () => openSettings(state.settings, saveSetting, LOOK_CHOICES));
  on("btn-help", () => openHelp(state.view ? state.view.game : games()[0].name));
  on("btn-fullscreen", toggleFullscreen);
  installFullscreen(document.getElementById("btn-fullscreen"), applyTexts);
}

async function main() {
  applyLooks(state.settings);
  enableSound(state.settings.sound);
  document.body.insertAdjacentHTML("afterbegin", cardDefs());
  // Ask for the games and the current game while the translations load.
  const gamesReply = loadGames();
  const currentReply = api.currentGame();
  gamesReply.catch(() => {});
  currentReply.catch(() => {});
  await initI18n();
  applyTexts();
  document.body.classList.toggle("no-anim-pref", !state.settings.animate);
  mountLanguageMenu(document.getElementById("lang-menu"));
  wireButtons();
  installPointer(table, pointerCtx);
  installKeyboard(table, keyboardCtx);
  // Focus on the table itself passes to the cursor's card (later: focus() is ignored
  // while the browser is still handing focus to the table).
  table.addEventListener("focus", () => {
    setTimeout(() => {
      // Only keyboard focus starts the cursor; a click on the felt must not jump anywhere.
      if (document.activeElement !== table || !state.layout || !table.matches(":focus-visible")) return;
      if (state.focus && state.layout.piles[state.focus.pile]) {
        setFocus(state.focus.pile, state.focus.index);
        return;
      }
      const first = state.layout.order.find((p) => p[0] === "t") || state.layout.order[0];
      setFocus(first, (state.cards[first] || []).length - 1);
    }, 0);
  });
  document.addEventListener("keydown", onKey);
  // Back to this tab: the game may have moved on in another tab; show it as it is now.
  document.addEventListener("visibilitychange", async () => {
    const v = state.view;
    if (document.visibilityState !== "visible" || !v || state.busy || state.showMe) return;
    const now = await api.getGame(v.id).catch(() => null);
    const changed = (a, b) =>
      a.moves_made !== b.moves_made || a.can_redo !== b.can_redo || JSON.stringify(a.position) !== JSON.stringify(b.position);
    if (now && state.view === v && changed(now, v)) setView(now);
  });
  window.addEventListener("patience:language", () => {
    applyTexts();
    if (state.status) setStatus(state.status.text, state.status.kind, state.status.extra);
    render({ animate: false });
    refreshDialogs();
  });
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      fitToolbar();
      render({ animate: false });
    }, 60);
  });
  // The table follows its box, not only the window: the info and status lines above it
  // change height (a first render, a message wrapping to two lines on a phone).
  let rendered = { w: 0, h: 0 };
  new ResizeObserver(() => {
    const size = { w: tableWrap.clientWidth, h: tableWrap.clientHeight };
    if (size.w === rendered.w && size.h === rendered.h) return;
    rendered = size;
    if (state.view && !table.classList.contains("is-dragging")) render({ moves: false, animate: !state.fresh }); // a new deal settles, no glide
  }).observe(tableWrap);
  setInterval(() => {
    const clock = document.querySelector("#info .clock");
    if (clock) clock.textContent = formatTime(elapsedNow());
  }, 1000);
  try {
    await gamesReply;
    const current = await currentReply;
    if (current) {
      setView(current);
      const welcome = () =>
        t("Welcome back: {game}, deal {deal}", {
          game: gameWithOptions(current.game, current.options),
          deal: current.deal ?? "–",
        });
      setStatus(welcome);
      say(welcome());
    } else {
      await newDeal();
    }
  } catch (err) {
    showError(err);
  }
  document.body.dataset.ready = "true";
}

main();
