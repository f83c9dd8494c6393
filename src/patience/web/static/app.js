// The patience table: the entry point that wires the modules to the page (buttons, the
// pointer and the keyboard, the page's events) and shows the game. The server decides
// every rule; this page shows the GameView it returns and sends it the player's moves.
import {
  deal,
  newDeal,
  newDealAsked,
  openNewGameDialog,
  playMove,
  redo,
  reportDone,
  restart,
  rewind,
  saveSetting,
  setView,
  showStats,
  tryMove,
  undo,
} from "./actions.js";
import * as api from "./api.js";
import { cardDefs } from "./cards.js";
import { formatTime, openSettings, refreshDialogs } from "./dialogs.js";
import { current as currentReply, gamesLoaded, translations } from "./early.js";
import { gameWithOptions, games } from "./games.js";
import { mountLanguageMenu, openHelp } from "./help.js";
import { peeking, whyNoPeeking } from "./fair.js";
import { cancelShowMe, showHint, showMe, useActions } from "./hints.js";
import { t } from "./i18n.js";
import { installKeyboard, installPointer } from "./input.js";
import { applyLooks, installFullscreen, LOOK_CHOICES, toggleFullscreen } from "./looks.js";
import { installSkip } from "./motion.js";
import { legalTargets } from "./moves.js";
import { activate, canPick, doubleTap, isDeal, setFocus, tap } from "./play.js";
import { applyTexts, cardEls, elapsedNow, fitToolbar, hoverTarget, render, showTargets } from "./render.js";
import { enableSound } from "./sound.js";
import { state, table, tableWrap } from "./state.js";
import { say, setStatus, showError } from "./status.js";

const pointerCtx = {
  busy: () => state.busy > 0 && !state.showMe,
  canDrag: (pile, index) => !isDeal(pile, index) && canPick(pile, index),
  cardElements: (pile, index) => (state.cards[pile] || []).slice(index).map((c) => cardEls.get(c.key)),
  targets: legalTargets,
  showTargets,
  hover: hoverTarget,
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
    if (state.status && state.status.kind === "hint") reportDone("");
    if (had) {
      say(t("Cancelled"));
      render();
    } else handled = false;
  } else handled = false;
  if (handled) ev.preventDefault();
}

// ---------- start ----------

// The settings offered only when the solver may look at the face-down cards, with why not.
const PEEKING_SETTINGS = { showWinnable: (settings) => (peeking(settings) ? null : whyNoPeeking()) };

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
  on("btn-settings", () => openSettings(state.settings, saveSetting, LOOK_CHOICES, PEEKING_SETTINGS));
  on("btn-help", () => openHelp(state.view ? state.view.game : games()[0].name));
  on("btn-fullscreen", toggleFullscreen);
  installFullscreen(document.getElementById("btn-fullscreen"), applyTexts);
}

async function main() {
  useActions({ playMove, rewind });
  applyLooks(state.settings);
  enableSound(state.settings.sound);
  document.body.insertAdjacentHTML("afterbegin", cardDefs());
  await translations; // asked for by early.js, with the games and the current game
  applyTexts();
  document.body.classList.toggle("no-anim-pref", !state.settings.animate);
  mountLanguageMenu(document.getElementById("lang-menu"));
  wireButtons();
  installPointer(table, pointerCtx);
  installKeyboard(table, keyboardCtx);
  installSkip(table);
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
    await gamesLoaded;
    const current = await currentReply;
    if (current) {
      setView(current);
      const welcome = () =>
        t("Welcome back: {game}, deal {deal}", {
          game: gameWithOptions(current.game, current.options),
          deal: current.deal ?? "–",
        });
      reportDone(welcome); // with Finish, when sending every card home wins
      say(welcome());
    } else {
      await newDeal();
    }
  } catch (err) {
    showError(err);
  }
  document.body.dataset.ready = "true";
  performance.mark("playable"); // the first board takes input (bench/web.py reads it)
}

main();
