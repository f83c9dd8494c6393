// Playing cards drawn as SVG by our own code: a big corner index (readable when fanned
// and at phone size), a large suit in the middle, framed court cards, a patterned back.
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

// The symbol definitions every card refers to; inserted once into the page.
export function cardDefs() {
  const symbols = Object.entries(SUIT_SHAPES)
    .map(([s, shape]) => `<symbol id="suit-${s}" viewBox="0 0 100 100">${shape}</symbol>`)
    .join("");
  return (
    '<svg class="card-defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>' +
    symbols +
    '<pattern id="card-back-pattern" width="12" height="12" patternUnits="userSpaceOnUse"' +
    ' patternTransform="rotate(45)"><rect width="12" height="12" fill="#1f4e8c"/>' +
    '<rect width="6" height="6" fill="#2a64ad"/><circle cx="9" cy="9" r="1.6" fill="#8fb3e6"/>' +
    "</pattern></defs></svg>"
  );
}

function suitUse(suit, x, y, size, flip = false) {
  const tr = flip ? ` transform="rotate(180 ${x + size / 2} ${y + size / 2})"` : "";
  return `<use href="#suit-${suit}" x="${x}" y="${y}" width="${size}" height="${size}"${tr}/>`;
}

const faceCache = new Map();

// The SVG markup of a face-up card (viewBox 100x140).
export function faceSVG(text) {
  let svg = faceCache.get(text);
  if (svg) return svg;
  const r = text[0];
  const s = text[1];
  if (!RANKS.includes(r) || !SUITS.includes(s)) return backSVG();
  const colour = RED[s] ? "#c8102e" : "#161616";
  const label = rankLabel(r);
  const wide = label.length > 1;
  const parts = [];
  parts.push('<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf7" stroke="#8a8a8a" stroke-width="1.5"/>');
  // Top strip: rank left, suit right; it is what shows when the card is fanned.
  parts.push(
    `<text x="${wide ? 4 : 7}" y="30" font-size="${wide ? 29 : 32}" font-weight="700" ` +
      `font-family="DejaVu Sans, Verdana, Arial, sans-serif" letter-spacing="${wide ? -3 : 0}"` +
      ` fill="${colour}">${label}</text>`,
  );
  parts.push(suitUse(s, 68, 6, 25));
  if (r === "J" || r === "Q" || r === "K") {
    const tint = RED[s] ? "#fbe3e3" : "#e4e9f3";
    parts.push(`<rect x="14" y="44" width="72" height="86" rx="5" fill="${tint}" stroke="${colour}" stroke-width="2"/>`);
    parts.push(
      `<text x="50" y="108" text-anchor="middle" font-size="46" font-weight="700" ` +
        `font-family="DejaVu Serif, Georgia, serif" fill="${colour}">${r}</text>`,
    );
    parts.push(suitUse(s, 18, 48, 17));
    parts.push(suitUse(s, 65, 109, 17, true));
  } else if (r === "A") {
    parts.push(suitUse(s, 20, 54, 60));
  } else {
    parts.push(suitUse(s, 25, 56, 50));
    parts.push(
      `<text x="93" y="132" text-anchor="end" font-size="20" font-weight="700" ` +
        `font-family="DejaVu Sans, Verdana, Arial, sans-serif" fill="${colour}" opacity="0.85">${label}</text>`,
    );
  }
  svg =
    `<svg viewBox="0 0 100 140" class="card-svg" aria-hidden="true" focusable="false" fill="${colour}">` +
    parts.join("") +
    "</svg>";
  faceCache.set(text, svg);
  return svg;
}

// The SVG markup of a face-down card.
export function backSVG() {
  return (
    '<svg viewBox="0 0 100 140" class="card-svg" aria-hidden="true" focusable="false">' +
    '<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf7" stroke="#6b6b6b" stroke-width="1.5"/>' +
    '<rect x="7" y="7" width="86" height="126" rx="5" fill="url(#card-back-pattern)" stroke="#173b6b" stroke-width="2"/>' +
    "</svg>"
  );
}
