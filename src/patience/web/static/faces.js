// The three card faces, drawn as SVG by our own code in a 100x140 box:
//  - "standard": a big index along the top (what shows when cards are fanned), one large
//    suit in the middle, court cards as a framed letter;
//  - "traditional": small corner indices, the pips laid out as on printed cards, and
//    pictured, double-headed court cards;
//  - "large": the standard layout with the biggest index the fanned piles leave room for,
//    for low vision.
// Every face has both corner indices: the top one, and the same turned upside down at the
// bottom right. Colours come from classes the style sheet fills (light and dark themes).

export const FACE_STYLES = ["standard", "traditional", "large"];

const SANS = 'font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-weight="700"';
const SERIF = 'font-family="DejaVu Serif, Georgia, serif" font-weight="700"';
const COURTS = "JQK";

function suitUse(suit, x, y, size, flip = false) {
  const tr = flip ? ` transform="rotate(180 ${x + size / 2} ${y + size / 2})"` : "";
  return `<use href="#suit-${suit}" x="${x}" y="${y}" width="${size}" height="${size}"${tr}/>`;
}

// The card's markings turned half a turn: the bottom-right index.
function turned(markup) {
  return `<g transform="rotate(180 50 70)">${markup}</g>`;
}

// How deep the top corner's rank text reaches down the card, as a fraction of its height: its
// text box (the font's descent below the baseline included: DejaVu Sans's is 0.236 em, the
// others' less). A fanned card must show this much of itself (layout.js), or a J reads as I
// and a Q as O.
const DESCENT = 0.24;
// Large print's rank is 1.4 times the standard's; the traditional face's as big as the
// standard's (its 22 was about 8 px tall on a phone).
const INDEX = { standard: [30, 32], large: [37, 44], traditional: [28, 30] }; // baseline, size
export function indexDepth(style) {
  const [y, size] = INDEX[style] || INDEX.standard;
  return (y + DESCENT * size) / 140;
}

// How far right the top corner's rank text reaches across the card, as a fraction of its
// width: its widest label ("10" squeezed, or Q; DejaVu Sans Bold's digits are 0.696 em wide,
// its Q 0.85 em). A card fanned across must show this much of itself (layout.js).
const INDEX_WIDTH = { standard: 0.39, large: 0.48, traditional: 0.32 };
export function indexWidth(style) {
  return INDEX_WIDTH[style] || INDEX_WIDTH.standard;
}

// A rank label as text; "10" is squeezed to fit the width of one letter and a half.
function rankText(label, x, y, size, anchor = "start") {
  const wide = label.length > 1;
  const s = wide ? Math.round(size * 0.9) : size;
  const spacing = wide ? ` letter-spacing="${-Math.round(size / 10)}"` : "";
  return (
    `<text class="rank" x="${x}" y="${y}" font-size="${s}" text-anchor="${anchor}" ${SANS}${spacing}>` +
    `${label}</text>`
  );
}

// The top strip of the standard and large faces: rank at the left, suit at the right.
function strip(label, suit, big) {
  const wide = label.length > 1;
  const [y, size] = INDEX[big ? "large" : "standard"];
  if (big) return rankText(label, wide ? 1 : 5, y, wide ? 40 : size) + suitUse(suit, 66, 4, 30);
  return rankText(label, wide ? 4 : 7, y, size) + suitUse(suit, 68, 6, 25);
}

// A court card's middle in the plain faces: its letter in a frame (top at y, height h).
function framedLetter(rank, suit, size, y, h) {
  return (
    `<rect class="court-frame" x="16" y="${y}" width="68" height="${h}" rx="5" stroke-width="2"/>` +
    `<text x="50" y="${y + h / 2 + size * 0.36}" text-anchor="middle" font-size="${size}" ${SERIF}>${rank}</text>` +
    suitUse(suit, 19, y + 3, 14) +
    suitUse(suit, 67, y + h - 17, 14, true)
  );
}

function plainFace(rank, suit, label, big) {
  const index = strip(label, suit, big);
  let middle;
  // Large print's middle keeps clear of its deeper indices (down to y 48 and from y 92).
  if (COURTS.includes(rank)) middle = big ? framedLetter(rank, suit, 40, 48, 44) : framedLetter(rank, suit, 44, 38, 64);
  else if (rank === "A") middle = big ? suitUse(suit, 28, 48, 44) : suitUse(suit, 21, 41, 58);
  else middle = big ? suitUse(suit, 30, 49, 40) : suitUse(suit, 27, 45, 46);
  return index + middle + turned(index);
}

// Pip centres of the number cards, as printed cards place them (the lower half turned).
// (Clear of the corner indices, which reach x 32.)
const L = 38;
const C = 50;
const R = 62;
const ROW = (i) => 30 + (80 * i) / 6; // seven rows from y 30 to 110
const PIPS = {
  2: [[C, ROW(0)], [C, ROW(6)]],
  3: [[C, ROW(0)], [C, ROW(3)], [C, ROW(6)]],
  4: [[L, ROW(0)], [R, ROW(0)], [L, ROW(6)], [R, ROW(6)]],
  5: [[L, ROW(0)], [R, ROW(0)], [C, ROW(3)], [L, ROW(6)], [R, ROW(6)]],
  6: [[L, ROW(0)], [R, ROW(0)], [L, ROW(3)], [R, ROW(3)], [L, ROW(6)], [R, ROW(6)]],
  7: [[L, ROW(0)], [R, ROW(0)], [C, ROW(1.5)], [L, ROW(3)], [R, ROW(3)], [L, ROW(6)], [R, ROW(6)]],
  8: [[L, ROW(0)], [R, ROW(0)], [C, ROW(1.5)], [L, ROW(3)], [R, ROW(3)], [C, ROW(4.5)], [L, ROW(6)], [R, ROW(6)]],
  9: [[L, ROW(0)], [R, ROW(0)], [L, ROW(2)], [R, ROW(2)], [C, ROW(3)], [L, ROW(4)], [R, ROW(4)], [L, ROW(6)], [R, ROW(6)]],
  T: [[L, ROW(0)], [R, ROW(0)], [C, ROW(1)], [L, ROW(2)], [R, ROW(2)], [L, ROW(4)], [R, ROW(4)], [C, ROW(5)], [L, ROW(6)], [R, ROW(6)]],
};

function cornerIndex(label, suit) {
  const [y, size] = INDEX.traditional;
  return rankText(label, 16, y, label.length > 1 ? 27 : size, "middle") + suitUse(suit, 9.5, 31, 13);
}

// Half of a court figure (the top half of the card; the bottom half is the same, turned).
// Each rank has its own headwear and emblem; the robe's colours alternate with the suit.
function courtHalf(rank, suit) {
  const robe = suit === "H" || suit === "C" ? ["court-red", "court-blue"] : ["court-blue", "court-red"];
  const parts = [];
  // Shoulders and robe, with a trim down the front and a collar.
  parts.push(`<path class="${robe[0]} court-line" d="M24 70 L25 58 Q27 51 37 49 L63 49 Q73 51 75 58 L76 70 Z"/>`);
  parts.push(`<path class="${robe[1]} court-line" d="M45 49 L55 49 L58 70 L42 70 Z"/>`);
  parts.push('<path class="court-gold court-line" d="M39 49 Q50 56 61 49 L58 46 Q50 51 42 46 Z"/>');
  if (rank === "Q") {
    // Long hair falling to the shoulders, behind the face.
    parts.push('<path class="court-hair court-line" d="M40 36 Q38 48 35 52 L44 50 L56 50 L65 52 Q62 48 60 36 Z"/>');
  }
  parts.push('<circle class="court-skin court-line" cx="50" cy="38" r="8.5"/>');
  parts.push('<path class="court-line" fill="none" d="M47 36.5 h1 M52 36.5 h1 M48 41.5 q2 1.2 4 0"/>');
  if (rank === "K") {
    parts.push('<path class="court-hair court-line" d="M42 40 Q43 50 50 52 Q57 50 58 40 Q55 45 50 45 Q45 45 42 40 Z"/>');
    parts.push('<path class="court-gold court-line" d="M41 31 L40 21 L45 26 L50 18 L55 26 L60 21 L59 31 Z"/>');
    // A sword held upright.
    parts.push('<path class="court-steel court-line" d="M68 26 L70 26 L70 58 L68 58 Z"/>');
    parts.push('<path class="court-gold court-line" d="M64 58 L74 58 L74 61 L64 61 Z M67.5 61 L70.5 61 L70.5 68 L67.5 68 Z"/>');
  } else if (rank === "Q") {
    parts.push('<path class="court-gold court-line" d="M42 31 L42 25 Q46 28 50 22 Q54 28 58 25 L58 31 Z"/>');
    parts.push('<circle class="court-red court-line" cx="50" cy="22" r="2"/>');
    // A flower held up.
    parts.push('<path class="court-green court-line" fill="none" d="M32 66 Q30 52 33 40"/>');
    parts.push('<circle class="court-red court-line" cx="33" cy="38" r="4"/>');
    parts.push('<circle class="court-gold" cx="33" cy="38" r="1.5"/>');
  } else {
    // A feathered cap and a short halberd.
    parts.push('<path class="court-hair court-line" d="M41.5 37 Q41 44 44 46 L44 36 Z M58.5 37 Q59 44 56 46 L56 36 Z"/>');
    parts.push(`<path class="${robe[1]} court-line" d="M40 33 Q41 24 50 24 Q60 24 61 33 Q50 30 40 33 Z"/>`);
    parts.push('<path class="court-gold court-line" d="M58 27 Q66 16 70 20 Q64 22 60 29 Z"/>');
    parts.push('<path class="court-steel court-line" d="M30 68 L30 37 L32 37 L32 68 Z M31 38 L27 33 L31 28 L35 33 Z"/>');
  }
  return parts.join("");
}

function traditionalFace(rank, suit, label) {
  const index = cornerIndex(label, suit);
  const parts = [index, turned(index)];
  if (COURTS.includes(rank)) {
    const half = courtHalf(rank, suit);
    // The frame keeps clear of the corner indices (x 0-32): the figure drawn narrower.
    parts.push('<rect class="court-bg court-frame" x="33" y="15" width="34" height="110" rx="3" stroke-width="1.2"/>');
    parts.push('<svg x="33" y="15" width="34" height="110" viewBox="21 15 58 110" preserveAspectRatio="none">');
    parts.push(half + turned(half));
    parts.push("</svg>");
    parts.push('<path class="court-frame" stroke-width="0.8" d="M33 70 H67"/>');
    parts.push(suitUse(suit, 35, 17, 8) + suitUse(suit, 57, 115, 8, true));
  } else if (rank === "A") {
    parts.push(suitUse(suit, 28, 48, 44));
  } else {
    const size = 14;
    for (const [x, y] of PIPS[rank]) parts.push(suitUse(suit, x - size / 2, y - size / 2, size, y > 70));
  }
  return parts.join("");
}

// The inner markup of a face (everything but the card's outline) in one of FACE_STYLES.
export function faceParts(style, rank, suit, label) {
  if (style === "traditional") return traditionalFace(rank, suit, label);
  return plainFace(rank, suit, label, style === "large");
}
