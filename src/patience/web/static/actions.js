// The player's actions: each asks the server, which decides every rule, and the page
// shows the GameView it returns (setView); a new game, undo, restart, the statistics.
import * as api from "./api.js";
import { closeDialogs, openConfirm, openNewGame, openResult } from "./dialogs.js";
import { checkChance, peeking } from "./fair.js";
import { gameInfo, gameWithOptions, games } from "./games.js";
import { cancelShowMe, checkWinnable } from "./hints.js";
import { cardName, nameReserves, pileName as pileLabel, t, tn } from "./i18n.js";
import { pilesOf } from "./layout.js";
import { applyLooks } from "./looks.js";
import { canGoUp, describeMove, isLegal, moveText } from "./moves.js";
import { applyTexts, cardEls, render, renderInfo } from "./render.js";
import { enableSound, playSound } from "./sound.js";
import { playCascade } from "./cascade.js";
import { animateDeal, animateMoves, motionAllowed, placesOf, settled } from "./motion.js";
import { LAST_GAME_KEY, SETTINGS_KEY, state, table } from "./state.js";
import { openStats } from "./stats.js";
import { say, setStatus, showError } from "./status.js";

export function saveSetting(key, value) {
  state.settings[key] = value;
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(state.settings));
  if (key === "showWinnable" || key === "peek") {
    state.winnable = null;
    checkWinnable();
    render();
    applyTexts(); // the toolbar gains or loses "Show me": fit it again
  }
  if (key === "showChance") checkChance(state.view, state.settings, renderInfo);
  document.body.classList.toggle("no-anim-pref", !state.settings.animate);
  applyLooks(state.settings);
  enableSound(state.settings.sound);
  if (key === "face") render({ animate: false });
}

// A success message, unless the move ended the game (its own message stays); with a
// "Finish" button once sending every card home wins (the server's marks say so), whatever
// brought the game there: a move, an undo, or the page opened again on it.
export function reportDone(text) {
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

// Run one server call that returns a GameView; keep the page consistent whatever happens.
async function perform(call, { announce = null, deal = false } = {}) {
  state.busy++;
  document.body.classList.add("busy");
  try {
    const view = await call();
    setView(view, { announce, deal, moves: true });
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

// assisted: "Show me" plays the move (the game then counts as assisted).
export async function playMove(text, { assisted = false } = {}) {
  if (!state.view) return false;
  const before = state.cards;
  const description = () => describeMove(text, before);
  state.selected = null;
  state.hint = null;
  const options = { legal: isLegal(text), assisted, autoplay: state.settings.autoplay && !assisted };
  const ok = await perform(() => api.move(state.view.id, text, options), { announce: description() });
  if (ok) playSound(text === "deal" ? "deal" : "move");
  if (ok) reportDone(description);
  return ok;
}

export async function tryMove(src, index, dst) {
  const pile = state.cards[src] || [];
  const count = pile.length - index;
  if (count < 1) return false;
  return playMove(moveText(src, dst, count));
}

export async function deal() {
  if (!state.view) return;
  cancelShowMe();
  await playMove("deal");
}

// The server would refuse these with a 409 (an error in the console): say why here.
function refuseLocally(text) {
  playSound("refusal");
  setStatus(text, "error");
  say(text());
  render();
}

export async function toFoundation(pile) {
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
  const ok = await perform(() => api.toFoundation(state.view.id, pile, state.settings.autoplay), {
    announce: description(),
  });
  if (ok) playSound("move");
  if (ok) reportDone(description);
}

export async function autoFinish() {
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
    reportDone(notice ? () => t(notice) : doneText);
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
export const undo = () => queued(() => state.view && state.view.can_undo && simpleAction("undo", () => t("Move undone")));
export const redo = () => queued(() => state.view && state.view.can_redo && simpleAction("redo", () => t("Move redone")));
const restartNow = () => simpleAction("restart", () => t("Deal restarted"));

// A game with moves in it is only thrown away after the player says so: restarting clears
// the undo history, and a stray key press must not cost a game.
function inProgress() {
  const v = state.view;
  return Boolean(v && v.status === "playing" && v.moves_made > 0);
}

export function restart() {
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

export function newDealAsked() {
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
export const rewind = () => {
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
  const ok = await perform(() => api.newGame(body), { deal: true });
  if (ok) playSound("deal");
  if (ok) {
    const v = state.view;
    const text = () => t("{game}, deal {deal}", { game: gameWithOptions(v.game, v.options), deal: v.deal ?? "–" });
    reportDone(v.notice ? () => t(v.notice) : text);
    say(v.notice ? t(v.notice) : text());
  }
}

export function newDeal() {
  const v = state.view;
  // The game played last, while the server still deals it; else the first game.
  let last = JSON.parse(localStorage.getItem(LAST_GAME_KEY) || "null");
  if (!last || !gameInfo(last.game)) last = { game: games()[0].name, options: {} };
  const game = v ? v.game : last.game;
  const options = v ? v.options : last.options || {};
  return startGame({ game, options, deal: null, winnable: state.settings.winnableOnly });
}

export function openNewGameDialog() {
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

export const showStats = () => openStats(showError);

// deal: a new deal, drawn flying from the stock; moves: the reply to the player's action,
// whose moves to the foundations land one after another.
export function setView(view, { announce = null, deal = false, moves = false } = {}) {
  const previous = state.view;
  const fresh = !previous || previous.id !== view.id;
  const before = placesOf(cardEls);
  const previousCards = state.cards;
  state.fresh = fresh;
  state.view = view;
  const info = gameInfo(view.game);
  nameReserves(info && info.reserve_names.pile);
  state.receivedAt = performance.now();
  state.cards = pilesOf(view);
  if (fresh) {
    state.selected = null;
    state.hint = null;
  }
  if (state.selected && !(state.cards[state.selected.pile] || [])[state.selected.index]) state.selected = null;
  render({ animate: !fresh });
  const motion = motionAllowed(state.settings);
  if (motion && fresh && deal) animateDeal(state.cards, cardEls, state.layout);
  else if (motion && !fresh && moves && view.last_move) {
    animateMoves(view.last_move.split(" "), before, previousCards, state.cards, cardEls);
  }
  const auto = (view.autoplayed || []).length;
  const homed = auto ? tn("{n} card moved to the foundations", "{n} cards moved to the foundations", auto) : "";
  if (announce || auto) say([announce, homed].filter(Boolean).join(" "));
  if (view.status === "won" && (!previous || previous.status !== "won" || fresh)) {
    cancelShowMe();
    playSound("win");
    setStatus(() => t("You won!"), "won");
    say(t("You won!"));
    celebrate();
  } else if (view.status === "stuck" && (!previous || previous.status !== "stuck" || fresh)) {
    cancelShowMe();
    setStatus(() => t("No moves left"), "warn");
    say(t("No moves left"));
    openResult("stuck", view, resultActions());
  }
  checkWinnable();
  checkChance(view, state.settings, renderInfo);
}

// The win: the cards cascade off the foundations (a click or a key ends it), then the result;
// with no motion, a short hop of the foundations' cards.
function celebrate() {
  const result = () => openResult("won", state.view, resultActions());
  if (!motionAllowed(state.settings)) {
    document.body.classList.add("celebrate");
    setTimeout(() => document.body.classList.remove("celebrate"), 1600);
    setTimeout(result, 450);
    return;
  }
  const L = state.layout;
  const founds = L.order.filter((p) => L.piles[p].kind === "foundation");
  const leaving = [];
  for (let depth = 1; depth <= 13; depth++) {
    for (const f of founds) {
      const list = state.cards[f] || [];
      const card = list[list.length - depth];
      const pos = (state.positions[f] || [])[list.length - depth];
      if (card && pos) leaving.push({ text: card.text, el: cardEls.get(card.key), x: pos.x, y: pos.y });
    }
  }
  // The last cards land first (Finish sends them home one by one).
  settled().then(() => playCascade(table, leaving, { cw: L.cw, ch: L.ch }, result));
}

// Rewinding looks at the face-down cards: offered only when the player lets the solver.
const resultActions = () => ({
  newGame: () => newDeal(),
  undo: () => undo(),
  rewind: peeking(state.settings) ? () => rewind() : null,
  stats: () => showStats(),
});
