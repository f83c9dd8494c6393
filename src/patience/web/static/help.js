// The "How to play" panel and the language menu.
// Every text is an English message id passed to t() where it is used, so Babel finds
// it and the catalogs (src/patience/locales) translate it.
import { LANGUAGES, language, setLanguage, t } from "./i18n.js";

const GAMES = ["klondike", "lady-jane", "bakers-dozen", "hopscotch"];

function gameTitle(game) {
  switch (game) {
    case "klondike":
      return t("Klondike");
    case "lady-jane":
      return t("Lady Jane");
    case "bakers-dozen":
      return t("Baker's Dozen");
    case "hopscotch":
      return t("Hopscotch");
    default:
      return game;
  }
}

// The help of each game: intro, then sections; an item is a paragraph (string) or
// a {term, text} pair (an option and what it does). Built on demand so t() sees the
// current language.
function helpContent(game) {
  switch (game) {
    case "klondike":
      return {
        intro: t(
          "Klondike is the best known patience: turn up the hidden cards of seven piles and build the four suits from Ace to King.",
        ),
        sections: [
          [t("Setup"), [
            t("Seven tableau piles are dealt in rows from left to right: the first pile gets one card, the seventh gets seven. Only the top card of each pile lies face up."),
            t("The other 24 cards wait face down in the stock, at the top left. The waste, beside it, starts empty, and so do the four foundations at the top right."),
          ]],
          [t("Goal"), [
            t("Move all 52 cards onto the foundations, one suit on each, from Ace up to King."),
          ]],
          [t("Rules"), [
            t("On the tableau, build downwards in alternating colours: a red 6 on a black 7, a black Jack on a red Queen."),
            t("A face-up run that already follows that pattern moves as one unit."),
            t("Only a King, or a run led by a King, may fill an empty tableau pile."),
            t("When a face-down card is left on top of a pile, it turns face up at once."),
            t("Deal turns cards from the stock onto the waste. Only the top card of the waste can be played."),
            t("When the stock is empty, dealing again turns the whole waste back into the stock, in the same order: that is a redeal."),
            t("The top card of a foundation may come back down onto the tableau when it fits there."),
          ]],
          [t("Scoring"), [
            t("The score is the number of cards on the foundations: 52 is a won game. Taking a card back from a foundation costs a point."),
          ]],
          [t("Options"), [
            { term: t("Draw one, two redeals"), text: t("One card per deal and two redeals, so three passes through the stock. This is the usual game and the default.") },
            { term: t("Draw three, unlimited redeals"), text: t("Three cards per deal, as many redeals as you like. Only the last card turned can be played.") },
            { term: t("Draw one, no redeal"), text: t("One card per deal and a single pass through the stock.") },
            { term: t("Draw one, unlimited redeals"), text: t("One card per deal, as many redeals as you like.") },
          ]],
          [t("Tips"), [
            t("Free the hidden cards first: the piles on the right hold the most."),
            t("Do not empty a pile until a King is ready to fill it."),
            t("Do not rush every card to the foundations: a 5 left on the tableau may be the only place for a 4 of the other colour."),
            t("Double-click a card to send it to its foundation; double-click a foundation to play up every card that can go."),
          ]],
        ],
      };
    case "lady-jane":
      return {
        intro: t(
          "Lady Jane is a cousin of Klondike with a twist: the foundations start from a rank chosen by the deal and wrap round from King to Ace, and seven reserve piles feed the game.",
        ),
        sections: [
          [t("Setup"), [
            t("The tableau is dealt as in Klondike: seven piles of one to seven cards, only the top card face up."),
            t("Then one card goes face up onto each of the seven reserve piles, and one onto the first foundation. That card's rank is the base rank of the deal."),
            t("The last 16 cards make the stock."),
          ]],
          [t("Goal"), [
            t("Complete the four foundations, thirteen cards each, every one starting from the base rank."),
          ]],
          [t("Rules"), [
            t("A foundation starts with any card of the base rank and climbs in its suit, going on from King to Ace: with a base of 9, it runs 9, 10, J, Q, K, A, 2 and so on up to 8."),
            t("On the tableau, build downwards in alternating colours, also round the corner: a King may go on an Ace."),
            t("A card of the base rank closes a sequence: nothing may be put on it."),
            t("Runs in sequence move as one unit."),
            t("An empty tableau pile takes only a card one rank below the base rank (a King when the base is an Ace), or a run led by such a card."),
            t("Only the top card of a reserve can be played, to the tableau or to a foundation. Nothing is ever put on a reserve: an emptied one waits for the next deal."),
            t("Each deal puts one card on every reserve, empty or not; there are two such deals. The last two cards then come out one at a time: one goes to the waste, the other stays face up on the stock, and both are in play."),
            t("There is no redeal. The top card of a foundation may come back down onto the tableau."),
          ]],
          [t("Scoring"), [
            t("The score counts the cards on the foundations. It starts at 1, for the base card, and reaches 52 when you win."),
          ]],
          [t("Options"), [t("This game has no options.")]],
          [t("Tips"), [
            t("Note the base rank first: it tells you which cards start the foundations and which cards can fill an empty pile."),
            t("Before you deal, use what the reserves offer: every deal covers their top cards."),
            t("An empty tableau pile is precious here: keep it for a long run."),
          ]],
        ],
      };
    case "bakers-dozen":
      return {
        intro: t(
          "Baker's Dozen deals every card face up into thirteen piles: nothing is hidden, so careful planning wins most games.",
        ),
        sections: [
          [t("Setup"), [
            t("All 52 cards are dealt face up in rows into 13 tableau piles of four."),
            t("In every pile, Kings are moved underneath the other cards, so that no King covers a lower card."),
            t("The four foundations start empty. There is no stock and no waste."),
          ]],
          [t("Goal"), [t("Build the four foundations up in suit, from Ace to King.")]],
          [t("Rules"), [
            t("Only the top card of a pile moves, one card at a time."),
            t("On the tableau, a card goes onto a card one rank higher, whatever the suit or colour."),
            t("An emptied tableau pile stays empty for the rest of the game."),
            t("A card placed on a foundation stays there."),
          ]],
          [t("Scoring"), [t("One point for each card on the foundations; 52 means you have won.")]],
          [t("Options"), [
            { term: t("Kings dealt to the bottom"), text: t("The default: Kings start at the bottom of their piles, and empty piles stay empty.") },
            { term: t("Kings fill empty piles"), text: t("Kings are left where the deal puts them, and an empty pile accepts a King and nothing else.") },
            { term: t("Build down regardless of suit"), text: t("The default: any card one rank lower may be placed, whatever its suit.") },
            { term: t("Build down on another suit"), text: t("The card placed must differ in suit from the card it covers.") },
          ]],
          [t("Tips"), [
            t("Every card is in view: plan several moves ahead before you start."),
            t("Find the Aces and 2s and clear the cards lying on them."),
            t("Avoid piling many cards on one that a foundation will need soon."),
          ]],
        ],
      };
    case "hopscotch":
      return {
        intro: t(
          "Hopscotch is a counting game: each foundation climbs by its own step, and four reserve piles hold the cards that cannot go up yet.",
        ),
        sections: [
          [t("Setup"), [
            t("The Ace, 2, 3 and 4 of clubs start on the four foundations, in that order."),
            t("The other 48 cards form the stock, face down. The waste and the four reserves start empty."),
          ]],
          [t("Goal"), [t("Bring every card up onto the foundations; each one ends on a King.")]],
          [t("Rules"), [
            t("The first foundation climbs by one rank at a time, the second by two, the third by three and the fourth by four. Suits do not matter."),
            t("Counting goes on past the King: the second foundation runs 2, 4, 6, 8, 10, Q, A, 3, 5, 7, 9, J, K."),
            t("A foundation is finished after thirteen cards, with a King on top."),
            t("Deal turns one card onto the waste. The waste holds a single card: play it to a foundation or onto any reserve before the next deal."),
            t("Only the top card of a reserve can be played, and only to a foundation. A reserve card never moves to another reserve."),
            t("There is no redeal."),
          ]],
          [t("Scoring"), [t("One point for each card moved to a foundation; the best score is 48.")]],
          [t("Options"), [t("This game has no options.")]],
          [t("Tips"), [
            t("Give each reserve a job, for instance one reserve per foundation."),
            t("Do not cover a card needed soon with one that is needed much later."),
            t("Every foundation ends on a King: keeping the Kings together in one reserve is often safe."),
          ]],
        ],
      };
    default:
      return { intro: "", sections: [] };
  }
}

const SVG_NS = "http://www.w3.org/2000/svg";
const CW = 30; // card width in the diagram
const CH = 42; // card height

function svgEl(name, attrs = {}, text = null) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== null) el.textContent = text;
  return el;
}

// One pile: an outline when empty, else backs for face-down cards, then face-up cards.
function drawPile(svg, x, y, { down = 0, up = [], fan = 6, cls = "" } = {}) {
  const g = svgEl("g", { class: `help-pile ${cls}`.trim() });
  if (!down && !up.length) {
    g.appendChild(svgEl("rect", { x, y, width: CW, height: CH, rx: 4, class: "help-slot" }));
  }
  let cy = y;
  for (let i = 0; i < down; i++, cy += fan) {
    g.appendChild(svgEl("rect", { x, y: cy, width: CW, height: CH, rx: 4, class: "help-back" }));
  }
  for (const card of up) {
    g.appendChild(svgEl("rect", { x, y: cy, width: CW, height: CH, rx: 4, class: "help-face" }));
    if (card) {
      const red = /[♥♦]/.test(card);
      g.appendChild(
        svgEl("text", { x: x + 4, y: cy + 12, class: red ? "help-red" : "help-black" }, card),
      );
    }
    cy += fan * 2;
  }
  svg.appendChild(g);
}

function label(svg, x, y, text, anchor = "start") {
  svg.appendChild(svgEl("text", { x, y, class: "help-label", "text-anchor": anchor }, text));
}

// A labelled sketch of the game's piles at the start of a deal.
function diagram(game) {
  const title = t("Layout of {game}", { game: gameTitle(game) });
  const svg = svgEl("svg", { role: "img", "aria-labelledby": "help-diagram-title", class: "help-diagram" });
  svg.appendChild(svgEl("title", { id: "help-diagram-title" }, title));
  const gap = 10;
  const step = CW + gap;
  let width = 0;
  let height = 0;
  if (game === "klondike" || game === "lady-jane") {
    const top = 18;
    drawPile(svg, 10, top, { down: 1 });
    label(svg, 10, 12, t("Stock"));
    drawPile(svg, 10 + step, top, {});
    label(svg, 10 + step, 12, t("Waste"));
    const fx = 10 + 3 * step;
    for (let i = 0; i < 4; i++) {
      drawPile(svg, fx + i * step, top, i === 0 && game === "lady-jane" ? { up: ["9♠"] } : {});
    }
    label(svg, fx, 12, t("Foundations"));
    if (game === "lady-jane") {
      label(svg, fx, top + CH + 12, t("Base rank: {rank}", { rank: t("Nine") }));
    }
    let ty = top + CH + 24;
    if (game === "lady-jane") {
      const cards = ["3♥", "Q♣", "7♦", "J♠", "5♣", "K♥", "8♦"];
      for (let i = 0; i < 7; i++) drawPile(svg, 10 + i * step, ty, { up: [cards[i]] });
      label(svg, 10, ty - 6, t("Reserves"));
      ty += CH + 24;
    }
    const tops = ["6♣", "10♥", "2♠", "Q♦", "4♣", "9♥", "A♦"];
    for (let i = 0; i < 7; i++) drawPile(svg, 10 + i * step, ty, { down: i, up: [tops[i]] });
    label(svg, 10, ty - 6, t("Tableau"));
    width = 10 + 7 * step;
    height = ty + 6 * 6 + CH + 8;
  } else if (game === "bakers-dozen") {
    for (let i = 0; i < 4; i++) drawPile(svg, 10 + (4.5 + i) * step, 18, {});
    label(svg, 10 + 4.5 * step, 12, t("Foundations"));
    const ty = 18 + CH + 24;
    // A sample deal (every card once), Kings at the bottom of their piles as dealt.
    const sample = [
      ["K♠", "7♦", "Q♥", "2♣"], ["9♣", "J♦", "4♠", "A♥"], ["K♦", "3♣", "8♥", "5♠"],
      ["6♦", "10♣", "J♠", "9♥"], ["Q♣", "2♦", "7♠", "4♥"], ["K♥", "K♣", "A♠", "8♦"],
      ["5♣", "10♥", "3♦", "J♣"], ["8♠", "6♥", "A♣", "Q♦"], ["2♠", "9♦", "5♥", "10♠"],
      ["4♦", "7♣", "3♥", "6♠"], ["Q♠", "A♦", "9♠", "J♥"], ["10♦", "2♥", "6♣", "3♠"],
      ["7♥", "8♣", "5♦", "4♣"],
    ];
    for (let i = 0; i < 13; i++) drawPile(svg, 10 + i * step, ty, { up: sample[i], fan: 7 });
    label(svg, 10, ty - 6, t("Tableau"));
    width = 10 + 13 * step;
    height = ty + 3 * 14 + CH + 16;
  } else if (game === "hopscotch") {
    drawPile(svg, 10, 18, { down: 1 });
    label(svg, 10, 12, t("Stock"));
    drawPile(svg, 10 + step, 18, {});
    label(svg, 10 + step, 12, t("Waste"));
    const fx = 10 + 3 * step;
    const starts = ["A♣", "2♣", "3♣", "4♣"];
    for (let i = 0; i < 4; i++) {
      drawPile(svg, fx + i * step, 18, { up: [starts[i]] });
      label(svg, fx + i * step + CW / 2, 18 + CH + 14, `+${i + 1}`, "middle");
    }
    label(svg, fx, 12, t("Foundations"));
    const ry = 18 + CH + 40;
    for (let i = 0; i < 4; i++) drawPile(svg, fx + i * step, ry, {});
    label(svg, fx, ry - 6, t("Reserves"));
    width = fx + 4 * step;
    height = ry + CH + 10;
  }
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
  const content = helpContent(game);
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
  for (const name of GAMES) {
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
  intro.textContent = content.intro;
  const figure = document.createElement("figure");
  figure.className = "help-figure";
  figure.appendChild(diagram(game));
  body.append(intro, figure);

  for (const [heading, items] of content.sections) {
    const section = document.createElement("section");
    const h3 = document.createElement("h3");
    h3.textContent = heading;
    section.appendChild(h3);
    if (items.some((item) => typeof item === "object")) {
      const dl = document.createElement("dl");
      for (const item of items) {
        const dt = document.createElement("dt");
        dt.textContent = item.term;
        const dd = document.createElement("dd");
        dd.textContent = item.text;
        dl.append(dt, dd);
      }
      section.appendChild(dl);
    } else if (items.length === 1) {
      const p = document.createElement("p");
      p.textContent = items[0];
      section.appendChild(p);
    } else {
      const ul = document.createElement("ul");
      for (const item of items) {
        const li = document.createElement("li");
        li.textContent = item;
        ul.appendChild(li);
      }
      section.appendChild(ul);
    }
    body.appendChild(section);
  }
  dialog.append(header, nav, body);
  if (focusTitle) h2.focus();
}

// Open the rules help for a game name such as "klondike".
export function openHelp(game) {
  ensureStyles();
  const dialog = getDialog();
  currentGame = GAMES.includes(game) ? game : GAMES[0];
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
