// Moves in the server's notation (`t6>t2/3`): read, written, described in words, and
// checked against the legal moves the server lists.
import { cardName, pileName as pileLabel, t, tn } from "./i18n.js";
import { moveName, pileOfToken } from "./layout.js";
import { state } from "./state.js";

export function parseMove(text) {
  if (text === "deal") return { deal: true };
  const m = /^(\w+)>(\w+)(?:\/(\d+))?$/.exec(text);
  if (!m) return null;
  return { src: pileOfToken(m[1]), dst: pileOfToken(m[2]), count: m[3] ? Number(m[3]) : 1 };
}

export function moveText(src, dst, count) {
  return `${moveName(src)}>${moveName(dst)}${count > 1 ? `/${count}` : ""}`;
}

export function describeMove(text, cards = state.cards) {
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

export function legalTargets(src, count) {
  return legalMoves()
    .filter((m) => !m.deal && m.src === src && m.count === count)
    .map((m) => m.dst);
}

// Whether the server lists this move among the position's legal moves.
export function isLegal(text) {
  const m = parseMove(text);
  return Boolean(m) && legalMoves().some((l) =>
    l.deal ? m.deal : !m.deal && l.src === m.src && l.dst === m.dst && l.count === m.count,
  );
}

// Whether a legal move sends a card to a foundation (from pile src, or from anywhere).
export function canGoUp(src = null) {
  return legalMoves().some((m) => !m.deal && m.dst[0] === "f" && (src === null || m.src === src));
}
