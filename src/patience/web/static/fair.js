// Fair play (issue 16): the hint and the chance to win come from what the player has seen;
// the tools that let the solver look at the face-down cards (the proven hint, "Show me",
// the winnable indicator, rewind) wait for the setting "The solver may look at the
// face-down cards", off by default. The server records a game where they were used as
// assisted: this page only decides what to offer.
import * as api from "./api.js";
import { t } from "./i18n.js";

export const FAIR_DEFAULTS = { peek: false, showChance: false };

// Whether the player lets the solver look at the face-down cards.
export const peeking = (settings) => Boolean(settings.peek);

// Why a peeking tool is not offered (a button's or a setting's title).
export const whyNoPeeking = () => t("Needs the setting “The solver may look at the face-down cards”");

const percent = (x) => Math.round(100 * x);

// An estimate's detail: its 95% interval and what it rests on. Its kind says whose
// chance it is (issue 55): "advice-playouts" is the chance of a player who follows this
// very advice from here (games of the advice played out over orders of the unseen
// cards, weighed with the advice's record in its own past games: Hopscotch);
// "clairvoyant" is what a player who could see every card would win, never the
// player's own chance (Klondike, Lady Jane); "proven" has nothing left to guess. An
// arrangement the solver could not decide within the search limit is left out, and
// said so.
export function chanceDetail(c) {
  if (c.chance === null || c.chance === undefined) return "";
  if (c.exact) return t("No card is left unseen: this is certain.");
  const [low, high] = c.interval;
  const undecided = c.undecided || 0;
  const params = { low: percent(low), high: percent(high), n: c.samples - undecided, undecided };
  if (c.kind === "advice-playouts") {
    return t(
      "95% interval {low}–{high}%, from {n} games of this advice played out over orders of the unseen cards, weighed with its record in past games",
      params,
    );
  }
  const detail = undecided
    ? t(
        "95% interval {low}–{high}%, from {n} arrangements of the unseen cards ({undecided} more not decided within the search limit, left out)",
        params,
      )
    : t("95% interval {low}–{high}%, from {n} arrangements of the unseen cards", params);
  if (c.kind !== "clairvoyant") return detail;
  return `${detail}. ${t("What a player who could see every card would win: an upper bound, your own chance may be lower.")}`;
}

// The hint's words: a fair hint says its chance as the estimate it is ("about 41% from
// here" where it is the chance of following the advice; "a player who could see every
// card: 83%" where it is the clairvoyant's); a proven one says the move alone.
export function hintText(h, move) {
  if (h.verdict === "winnable") return t("Hint: {move}", { move });
  if (!h.fair || h.chance === null || h.chance === undefined) {
    return t("Best guess (not proven): {move}", { move });
  }
  if (h.kind === "clairvoyant") {
    return t("Hint: {move} (a player who could see every card: {percent}%)", { move, percent: percent(h.chance) });
  }
  return t("Hint: {move}, about {percent}% from here", { move, percent: percent(h.chance) });
}

// The hint's detail beside the status line: the interval and sample count, or nothing.
export function hintDetail(h) {
  const text = h.fair ? chanceDetail(h) : "";
  if (!text) return null;
  const span = document.createElement("span");
  span.className = "chance-detail";
  span.textContent = text;
  return span;
}

// ---------- the optional "Chance to win" indicator ----------

const indicator = { abort: null, value: null };

// Ask for the chance of view v (after every change); onChange() redraws the info bar.
export async function checkChance(v, settings, onChange) {
  if (indicator.abort) indicator.abort.abort();
  indicator.abort = null;
  if (!v || !settings.showChance || v.status !== "playing") {
    indicator.value = null;
    return;
  }
  const controller = new AbortController();
  indicator.abort = controller;
  indicator.value = { checking: true, view: v };
  onChange();
  try {
    const c = await api.chance(v.id, controller.signal);
    if (indicator.abort === controller) {
      indicator.value = { ...c, view: v };
      onChange();
    }
  } catch {
    /* a newer move asked again, or the server is busy: the indicator just waits */
  }
}

// A hint goes first: the indicator's search would hold the solver's slot (one on a
// two-core machine) and leave the hint waiting. Stop it; true when one was stopped (ask
// again once the hint is in).
export function pauseChance() {
  if (!indicator.abort) return false;
  indicator.abort.abort();
  indicator.abort = null;
  indicator.value = null;
  return true;
}

// The indicator's item for the info bar, {text, title}, or null when it is off.
export function chanceItem(v, settings) {
  const c = indicator.value;
  if (!settings.showChance || !c || !v || c.view.id !== v.id) return null;
  if (c.checking) return { text: t("Chance to win: …"), title: "" };
  if (c.chance === null) return { text: t("Chance to win: unknown"), title: t("No arrangement was decided within the search limit.") };
  const p = { percent: percent(c.chance) };
  let text = t("Chance to win: about {percent}%", p);
  if (c.exact) text = t("Chance to win: {percent}%", p);
  // Short on the info bar (it keeps to one line on a phone on its side); its tooltip says
  // in full that this is what a player who could see every card would win.
  else if (c.kind === "clairvoyant") text = t("Seeing every card: {percent}%", p);
  // "advice-playouts" (Hopscotch) is the player's own chance, following the advice.
  return { text, title: chanceDetail(c) };
}

// Offer or hide the peeking tools of the toolbar ("Show me") as the setting says.
export function gatePeeking(settings) {
  const showMe = document.getElementById("btn-showme");
  if (showMe) showMe.hidden = !peeking(settings);
}
