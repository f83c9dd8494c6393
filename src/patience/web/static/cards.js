// Playing cards drawn as SVG by our own code (the faces in faces.js), and their backs.
import { FACE_STYLES, faceParts, indexDepth, indexWidth } from "./faces.js";
import { t } from "./i18n.js";

const RANKS = "A23456789TJQK";
const SUITS = "CDHS";
const RED = { D: true, H: true };

// Suit shapes in a 100x100 box; paths (not font glyphs) so every browser draws them alike.
const SUIT_SHAPES = {
  H: '<path d="M50 92C24 70 2 52 2 29C2 13 14 3 28 3C38 3 46 9 50 18C54 9 62 3 72 3C86 3 98 13 98 29C98 52 76 70 50 92Z"/>',
  D: '<path d="M50 2L88 50L50 98L12 50Z"/>',
  S: '<path d="M50 2C40 20 4 38 4 62C4 78 16 88 30 88C38 88 44 85 47 80C46 89 41 95 33 98L67 98C59 95 54 89 53 80C56 85 62 88 70 88C84 88 96 78 96 62C96 38 60 20 50 2Z"/>',
  C: '<circle cx="50" cy="27" r="22"/><circle cx="25" cy="60" r="22"/><circle cx="75" cy="60" r="22"/><circle cx="50" cy="52" r="12"/>' +
    '<path d="M46 50L54 50C54 76 58 88 68 98L32 98C42 88 46 76 46 50Z"/>',
};

// The rank names, for things like "base rank" that name a rank without a suit.
const RANK_NAMES = {
  A: () => t("Ace"), 2: () => t("Two"), 3: () => t("Three"), 4: () => t("Four"),
  5: () => t("Five"), 6: () => t("Six"), 7: () => t("Seven"), 8: () => t("Eight"),
  9: () => t("Nine"), T: () => t("Ten"), J: () => t("Jack"), Q: () => t("Queen"),
  K: () => t("King"),
};

// The readable name of a rank letter such as "7" or "K" (translated).
export function rankName(letter) {
  const f = RANK_NAMES[letter];
  return f ? f() : letter;
}

// The short rank label drawn on a card face ("10" for T).
export function rankLabel(letter) {
  return letter === "T" ? "10" : letter;
}

// Rank 1..13 of a card text.
export function rankOf(text) {
  return RANKS.indexOf(text[0]) + 1;
}

// The rank letter of a rank number 1..13 (cyclic: 0 means King, 14 means Ace).
export function rankLetter(n) {
  return RANKS[(((n - 1) % 13) + 13) % 13];
}

// True for hearts and diamonds.
export function isRed(text) {
  return Boolean(RED[text[1]]);
}

// The card backs: one pattern each, in the page's defs under one id (setLooks swaps it).
const BACKS = {
  blue:
    '<rect width="12" height="12" fill="#1f4e8c"/><rect width="6" height="6" fill="#2a64ad"/>' +
    '<circle cx="9" cy="9" r="1.6" fill="#8fb3e6"/>',
  red:
    '<rect width="12" height="12" fill="#8c1f2b"/><rect width="6" height="6" fill="#a8303e"/>' +
    '<circle cx="9" cy="9" r="1.6" fill="#f0a3ab"/>',
  green:
    '<rect width="12" height="12" fill="#1e5b36"/><path d="M0 6h12M6 0v12" stroke="#2f7d4d" stroke-width="2"/>' +
    '<circle cx="6" cy="6" r="2.2" fill="#a9dcb8"/>',
  black:
    '<rect width="12" height="12" fill="#1d1d22"/><path d="M0 0L12 12M12 0L0 12" stroke="#3a3a44" stroke-width="1.4"/>' +
    '<circle cx="6" cy="6" r="1.5" fill="#d9b55a"/>',
};
export const BACK_NAMES = Object.keys(BACKS);

let faceStyle = "standard";
let backName = "blue";

// Choose the face style (one of FACE_STYLES) and the back (one of BACK_NAMES) cards are drawn
// with; the back changes on every card at once (they share the pattern).
export function setCardStyle(face, back) {
  faceStyle = FACE_STYLES.includes(face) ? face : "standard";
  backName = BACKS[back] ? back : "blue";
  const pattern = document.getElementById("card-back-pattern");
  if (pattern && pattern.dataset.back !== backName) {
    pattern.innerHTML = BACKS[backName];
    pattern.dataset.back = backName;
  }
  document.documentElement.dataset.back = backName;
}

// The symbol definitions every card refers to; inserted once into the page.
export function cardDefs() {
  const symbols = Object.entries(SUIT_SHAPES)
    .map(([s, shape]) => `<symbol id="suit-${s}" viewBox="0 0 100 100">${shape}</symbol>`)
    .join("");
  return (
    '<svg class="card-defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>' +
    symbols +
    `<pattern id="card-back-pattern" data-back="${backName}" width="12" height="12" patternUnits="userSpaceOnUse"` +
    ` patternTransform="rotate(45)">${BACKS[backName]}</pattern></defs></svg>`
  );
}

// The least fan of a face-up card that keeps its corner rank in view, in the chosen face.
export function indexFan() {
  return indexDepth(faceStyle) + 0.01; // and a pixel or so for rounding
}

// The least step of a card fanned across that keeps its corner rank in view.
export function indexAcross() {
  return indexWidth(faceStyle) + 0.02;
}

// What identifies a face's drawing: it changes when the card or the face style does.
export function faceKey(text) {
  return `${faceStyle}:${text}`;
}

const faceCache = new Map();

// The SVG markup of a face-up card (viewBox 100x140) in the chosen face style.
export function faceSVG(text) {
  const key = faceKey(text);
  let svg = faceCache.get(key);
  if (svg) return svg;
  const r = text[0];
  const s = text[1];
  if (!RANKS.includes(r) || !SUITS.includes(s)) return backSVG();
  svg =
    `<svg viewBox="0 0 100 140" class="card-svg face-${faceStyle} ${RED[s] ? "red" : "black"}"` +
    ' aria-hidden="true" focusable="false">' +
    '<rect class="card-edge" x="1" y="1" width="98" height="138" rx="8" stroke-width="1.5"/>' +
    faceParts(faceStyle, r, s, rankLabel(r)) +
    "</svg>";
  faceCache.set(key, svg);
  return svg;
}

// The SVG markup of a face-down card.
export function backSVG() {
  return (
    '<svg viewBox="0 0 100 140" class="card-svg back" aria-hidden="true" focusable="false">' +
    '<rect class="card-edge" x="1" y="1" width="98" height="138" rx="8" stroke-width="1.5"/>' +
    '<rect class="back-field" x="7" y="7" width="86" height="126" rx="5" fill="url(#card-back-pattern)" stroke-width="2"/>' +
    "</svg>"
  );
}

// The suit's shape as a canvas path in the same 100x100 box (the win's cascade draws cards on
// a canvas): built from the SVG shapes above, so both draw the same suit.
export function suitPath(s) {
  const path = new Path2D();
  const shape = SUIT_SHAPES[s] || "";
  for (const [, d] of shape.matchAll(/ d="([^"]+)"/g)) path.addPath(new Path2D(d));
  for (const [, cx, cy, r] of shape.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"/g)) {
    path.moveTo(Number(cx) + Number(r), Number(cy));
    path.arc(Number(cx), Number(cy), Number(r), 0, 2 * Math.PI);
  }
  return path;
}
