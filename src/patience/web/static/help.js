// The "How to play" panel and the language menu.
// A game's help and the picture of its table come from its declaration (GET /api/games):
// the help's texts are message ids, translated here with t(); the picture is the game's
// table laid out as declared, with the first position of a sample deal.
import { rankLabel, rankName } from "./cards.js";
import { gameInfo, gameTitle, games, loadGames } from "./games.js";
import { LANGUAGES, language, setLanguage, t } from "./i18n.js";
import { pilesOf } from "./layout.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const CW = 30; // card width in the diagram
const CH = 42; // card height
const GAP = 10;
const DOWN_STEP = 6; // the fan of face-down cards
const UP_STEP = 14; // the fan of face-up cards (their corners readable)
const SUIT_SIGNS = { C: "♣", D: "♦", H: "♥", S: "♠" };

// The name over each group of piles of one kind.
const KIND_LABELS = {
  stock: () => t("Stock"),
  waste: () => t("Waste"),
  foundation: () => t("Foundations"),
  tableau: () => t("Tableau"),
  reserve: (info) => t(info.reserve_names.group),
};

function svgEl(name, attrs = {}, text = null) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== null) el.textContent = text;
  return el;
}

// One pile as it lies: an outline when empty; fanned down, every card (backs for face-down
// ones); fanned right, the top `shown` cards; squared, its top card. Returns its bottom.
function drawPile(svg, x, y, cards, fan, shown) {
  const g = svgEl("g", { class: "help-pile" });
  svg.appendChild(g);
  if (!cards.length) {
    g.appendChild(svgEl("rect", { x, y, width: CW, height: CH, rx: 4, class: "help-slot" }));
    return y + CH;
  }
  const visible = fan === "down" ? cards : cards.slice(-(fan === "right" ? shown : 1));
  let cx = x;
  let cy = y;
  let top = y;
  for (const card of visible) {
    top = cy;
    g.appendChild(svgEl("rect", { x: cx, y: cy, width: CW, height: CH, rx: 4, class: card.up ? "help-face" : "help-back" }));
    if (card.up) {
      const red = card.text[1] === "D" || card.text[1] === "H";
      const text = rankLabel(card.text[0]) + SUIT_SIGNS[card.text[1]];
      g.appendChild(svgEl("text", { x: cx + 4, y: cy + 12, class: red ? "help-red" : "help-black" }, text));
    }
    if (fan === "down") cy += card.up ? UP_STEP : DOWN_STEP;
    if (fan === "right") cx += CW * 0.3;
  }
  return top + CH;
}

function label(svg, x, y, text, anchor = "start") {
  svg.appendChild(svgEl("text", { x, y, class: "help-label", "text-anchor": anchor }, text));
}

// A labelled picture of a game's table, laid out as the game declares it, with the first
// position of its sample deal.
function diagram(info) {
  const title = t("Layout of {game}", { game: gameTitle(info.name) });
  const svg = svgEl("svg", { role: "img", "aria-labelledby": "help-diagram-title", class: "help-diagram" });
  svg.appendChild(svgEl("title", { id: "help-diagram-title" }, title));
  const { position, marks } = info.sample;
  const cards = pilesOf({ position, marks });
  const arrangement = info.table.arrangements[0];
  const xOf = (col) => GAP + col * (CW + GAP);
  // Foundations that climb by other steps than one show their steps under them.
  const steps = marks.foundations.some((m) => m.step !== 1);
  let y = 18;
  for (const row of arrangement.rows) {
    let bottom = y + CH;
    let under = false;
    row.slots.forEach((slot, i) => {
      const x = xOf(slot.col);
      if (i === 0 || row.slots[i - 1].kind !== slot.kind) label(svg, x, y - 6, KIND_LABELS[slot.kind](info));
      bottom = Math.max(bottom, drawPile(svg, x, y, cards[slot.pile] || [], slot.fan, info.table.waste_shown));
      if (slot.kind !== "foundation") return;
      const k = Number(slot.pile.slice(1));
      if (steps) {
        label(svg, x + CW / 2, y + CH + 14, `+${marks.foundations[k - 1].step}`, "middle");
        under = true;
      } else if (k === 1 && position.base) {
        label(svg, x, y + CH + 12, t("Base rank: {rank}", { rank: rankName(position.base) }));
        under = true;
      }
    });
    y = bottom + (under ? 16 : 0) + 24;
  }
  const width = GAP + arrangement.cols * (CW + GAP);
  const height = y - 16;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", String(width * 1.5));
  svg.setAttribute("height", String(height * 1.5));
  return svg;
}

function ensureStyles() {
  if (document.getElementById("help-css")) return;
  const link = document.createElement("link");
  link.id = "help-css";
  link.rel = "stylesheet";
  link.href = new URL("./help.css", import.meta.url).href;
  document.head.appendChild(link);
}

let currentGame = null;
let opener = null;

function focusable(root) {
  return [...root.querySelectorAll(
    "button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])",
  )].filter((el) => !el.disabled && el.getClientRects().length);
}

function getDialog() {
  let dialog = document.getElementById("help-dialog");
  if (dialog) return dialog;
  dialog = document.createElement("dialog");
  dialog.id = "help-dialog";
  dialog.className = "help-dialog";
  dialog.setAttribute("aria-labelledby", "help-title");
  dialog.setAttribute("aria-describedby", "help-intro");
  dialog.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      closeHelp();
    } else if (event.key === "Tab") {
      // Keep Tab inside the panel (a modal dialog should not let focus reach the page).
      const items = focusable(dialog);
      if (!items.length) return;
      const first = items[0];
      const last = items[items.length - 1];
      if (event.shiftKey && (document.activeElement === first || !dialog.contains(document.activeElement))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  });
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    closeHelp();
  });
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) closeHelp(); // a click on the backdrop
  });
  document.body.appendChild(dialog);
  window.addEventListener("patience:language", () => {
    if (dialog.open && currentGame) render(dialog, currentGame, false);
  });
  return dialog;
}

function render(dialog, game, focusTitle = true) {
  const info = gameInfo(game);
  const content = info.help || { intro: "", sections: [] };
  dialog.textContent = "";
  dialog.dataset.game = game;
  dialog.lang = language();

  const header = document.createElement("header");
  header.className = "help-header";
  const h2 = document.createElement("h2");
  h2.id = "help-title";
  h2.tabIndex = -1;
  h2.textContent = t("How to play {game}", { game: gameTitle(game) });
  const close = document.createElement("button");
  close.type = "button";
  close.className = "help-close";
  close.setAttribute("aria-label", t("Close help"));
  close.title = t("Close help");
  close.textContent = "×";
  close.addEventListener("click", () => closeHelp());
  header.append(h2, close);

  const nav = document.createElement("nav");
  nav.className = "help-games";
  nav.setAttribute("aria-label", t("Rules of other games"));
  for (const { name } of games()) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = gameTitle(name);
    b.dataset.game = name;
    if (name === game) b.setAttribute("aria-current", "page");
    b.addEventListener("click", () => {
      currentGame = name;
      render(dialog, name);
    });
    nav.appendChild(b);
  }

  const body = document.createElement("div");
  body.className = "help-body";
  const intro = document.createElement("p");
  intro.id = "help-intro";
  intro.className = "help-intro";
  intro.textContent = content.intro ? t(content.intro) : "";
  const figure = document.createElement("figure");
  figure.className = "help-figure";
  figure.appendChild(diagram(info));
  body.append(intro, figure);

  // A section of options and what they do is a list of terms; one paragraph stands alone.
  for (const { title, items } of content.sections) {
    const section = document.createElement("section");
    const h3 = document.createElement("h3");
    h3.textContent = t(title);
    section.appendChild(h3);
    if (items.some((item) => item.term)) {
      const dl = document.createElement("dl");
      for (const item of items) {
        const dt = document.createElement("dt");
        dt.textContent = item.term ? t(item.term) : "";
        const dd = document.createElement("dd");
        dd.textContent = t(item.text);
        dl.append(dt, dd);
      }
      section.appendChild(dl);
    } else if (items.length === 1) {
      const p = document.createElement("p");
      p.textContent = t(items[0].text);
      section.appendChild(p);
    } else {
      const ul = document.createElement("ul");
      for (const item of items) {
        const li = document.createElement("li");
        li.textContent = t(item.text);
        ul.appendChild(li);
      }
      section.appendChild(ul);
    }
    body.appendChild(section);
  }
  dialog.append(header, nav, body);
  if (focusTitle) h2.focus();
}

// Open the rules help for a game name (the first game's for an unknown name).
export async function openHelp(game) {
  try {
    await loadGames();
  } catch {
    return; // the server cannot be reached: there is nothing to show
  }
  ensureStyles();
  const dialog = getDialog();
  currentGame = gameInfo(game) ? game : games()[0].name;
  if (!dialog.open) {
    opener = document.activeElement;
    dialog.showModal();
  }
  render(dialog, currentGame);
}

// Close the help panel and give focus back to what opened it.
export function closeHelp() {
  const dialog = document.getElementById("help-dialog");
  if (!dialog || !dialog.open) return;
  dialog.close();
  currentGame = null;
  if (opener && typeof opener.focus === "function" && document.contains(opener)) opener.focus();
  opener = null;
}

// Mount the language menu into the given element (the toolbar's #lang-menu).
export function mountLanguageMenu(element) {
  ensureStyles();
  element.textContent = "";
  element.classList.add("lang-menu");
  const labelEl = document.createElement("label");
  labelEl.htmlFor = "lang-select";
  labelEl.className = "lang-label";
  const select = document.createElement("select");
  select.id = "lang-select";
  for (const { code, name } of LANGUAGES) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    select.appendChild(option);
  }
  const sync = () => {
    labelEl.textContent = t("Language");
    select.value = language();
  };
  select.addEventListener("change", () => setLanguage(select.value, true));
  // Mounting again (a re-rendered toolbar) must not leave the old menu listening.
  if (element._syncLanguage) window.removeEventListener("patience:language", element._syncLanguage);
  element._syncLanguage = sync;
  window.addEventListener("patience:language", sync);
  element.append(labelEl, select);
  sync();
}
