// What the player's taps, drags and keys mean on the table: pick up, drop, deal, send home.
import { autoFinish, deal, toFoundation, tryMove } from "./actions.js";
import { cancelShowMe } from "./hints.js";
import { cardName, t } from "./i18n.js";
import { legalTargets } from "./moves.js";
import { focusElement, render, restoreFocus } from "./render.js";
import { state } from "./state.js";
import { say } from "./status.js";

export function isDeal(pile, index) {
  if (pile !== "stock") return false;
  const list = state.cards.stock || [];
  return !(list.length && list[list.length - 1].up && index >= 0);
}

export function canPick(pile, index) {
  const list = state.cards[pile] || [];
  const card = list[index];
  if (!card || !card.up) return false;
  // Only a pile's top card moves, except in fanned tableau piles where a run moves.
  const kind = state.layout.piles[pile].kind;
  return kind === "tableau" || index === list.length - 1;
}

export function tap(pile, index) {
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

export function doubleTap(pile) {
  cancelShowMe();
  state.selected = null;
  const kind = state.layout.piles[pile].kind;
  if (kind === "foundation") autoFinish();
  else if (pile === "stock" && isDeal(pile, 0)) deal();
  else if ((state.cards[pile] || []).length) toFoundation(pile);
}

export function activate(pile, index) {
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

export function setFocus(pile, index) {
  state.focus = { pile, index };
  restoreFocus();
  const el = focusElement(pile, index);
  if (el) el.focus();
}
