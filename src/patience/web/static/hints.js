// Hints from the solver: Hint, "Show me" (playing its line) and the optional "winnable?"
// indicator.
import * as api from "./api.js";
import { checkChance, hintDetail, hintText, pauseChance, peeking } from "./fair.js";
import { t } from "./i18n.js";
import { describeMove, parseMove } from "./moves.js";
import { applyTexts, render, renderButtons, renderInfo } from "./render.js";
import { state } from "./state.js";
import { say, setStatus, showError } from "./status.js";

// The actions hints play: actions.js imports this module, so app.js hands them over at
// start (useActions) rather than this module importing them back.
const actions = { playMove: null, rewind: null };

export function useActions({ playMove, rewind }) {
  actions.playMove = playMove;
  actions.rewind = rewind;
}

// Stop "Show me" at once (the button, the table and the status line say so now, not when
// the solver's pending answer comes back); its loop ends at its next check.
export function cancelShowMe() {
  const run = state.showMe;
  if (!run) return;
  run.cancelled = true;
  state.showMe = null;
  state.hint = null;
  document.body.classList.remove("showing");
  applyTexts();
  renderButtons();
}

export async function showHint() {
  if (!state.view || state.view.status === "won") return;
  cancelShowMe();
  setStatus(t("Thinking…"));
  const v = state.view;
  const paused = pauseChance();
  let h;
  try {
    h = await hintFor(v);
  } catch (err) {
    if (state.view === v) showError(err);
    return;
  } finally {
    if (paused && state.view === v) checkChance(v, state.settings, renderInfo);
  }
  // A hint for a position the player has already left would point at the wrong cards.
  if (state.view !== v) return;
  if (state.settings.showWinnable && !h.fair) {
    state.winnable = { verdict: h.verdict };
    renderInfo();
  }
  presentHint(h);
}

// The answer for view v: fair (from what the player has seen) unless the solver may look
// at the face-down cards. Then the winnable indicator's request when it is asking about this
// very position (a second request would cancel it on the server), else a new one.
function hintFor(v) {
  const peek = peeking(state.settings);
  const w = state.winnableRequest;
  // If the indicator gives up its request (its setting turned off), ask on our own.
  if (peek && w && w.view === v) {
    return w.promise.catch((err) => (err && err.name === "AbortError" ? api.hint(v.id, undefined, true) : Promise.reject(err)));
  }
  return api.hint(v.id, undefined, peek);
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
    button.addEventListener("click", actions.rewind);
    const text = () =>
      h.verdict === "lost" ? t("This position cannot be won.") : t("No hint: there is no legal move.");
    setStatus(text, "warn", state.view.can_undo && peeking(state.settings) ? button : null);
    say(text());
    return;
  }
  const m = parseMove(h.move);
  state.hint = m && m.deal ? { src: "stock", index: -1, dst: null, move: h.move } : m ? { ...m, move: h.move } : null;
  const cards = state.cards;
  const text = () => hintText(h, describeMove(h.move, cards));
  setStatus(text, "hint", () => hintDetail(h)); // its detail, too, in the language of the moment
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
export async function showMe() {
  if (state.showMe) {
    cancelShowMe();
    setStatus(() => t("Stopped."));
    say(t("Stopped."));
    render();
    return;
  }
  if (!state.view || state.view.status !== "playing" || !peeking(state.settings)) return;
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
        if (!(await actions.playMove(move, { assisted: true }))) {
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
export async function checkWinnable() {
  if (state.winnableAbort) state.winnableAbort.abort();
  state.winnableAbort = null;
  const v = state.view;
  if (!v || !state.settings.showWinnable || !peeking(state.settings) || v.status !== "playing") {
    state.winnable = null;
    return;
  }
  const controller = new AbortController();
  state.winnableAbort = controller;
  state.winnable = { verdict: "checking" };
  renderInfo();
  const promise = api.hint(v.id, controller.signal, true);
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
