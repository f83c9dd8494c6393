// Translations for the front end. Message ids are the English texts (gettext style),
// with {name} placeholders; the catalogs come from GET /api/messages/{lang}, compiled
// from the same gettext catalogs (src/patience/locales) the server uses.
// Contract other modules rely on: t, tn, initI18n, setLanguage, language; also
// LANGUAGES, cardName, pileName, tError, translatePage.

import { optionValueId } from "./games.js";

const STORAGE_KEY = "patience.lang";

// Each language with its name written in itself (what the language menu shows).
export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "es", name: "Español" },
  { code: "fr", name: "Français" },
];
const SUPPORTED = LANGUAGES.map((l) => l.code);

let lang = "en";
let messages = {};
let pluralRule = "(n != 1)";
let loaded = false; // a catalog came from the server (offline, every id shows in English)
const reported = new Set();

// The current language code ("en", "es" or "fr").
export function language() {
  return lang;
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
}

function lookup(id) {
  const text = messages[id];
  return typeof text === "string" && text ? text : null;
}

// A message the catalog lacks shows in English: say so in the console, once per id and
// language, for the developer (and the browser tests, which fail on any such warning).
function missing(id) {
  const key = `${lang}\u0000${id}`;
  if (!loaded || reported.has(key)) return;
  reported.add(key);
  console.warn(`patience: no ${lang} text for the message ${JSON.stringify(id)}`);
}

// Translate one message id; params fill its {placeholders}.
export function t(id, params = {}) {
  let text = lookup(id);
  if (text === null && typeof id === "string" && id.startsWith("{move}: ")) {
    // The server prefixes a refusal with the move; the catalog holds the bare reason.
    const reason = lookup(id.slice(8));
    if (reason !== null) text = "{move}: " + reason;
  }
  if (text === null) missing(id);
  return fill(text === null ? String(id) : text, params);
}

// Translate a message with plural forms; n picks the form and fills {n}.
export function tn(singular, plural, n, params = {}) {
  const forms = messages[singular + "\u0000" + plural];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms) && forms.length) {
    text = forms[pluralIndex(n)] || text;
  } else {
    missing(singular + "\u0000" + plural);
  }
  return fill(text, { n, ...params });
}

// Which plural form n takes. Only the two classic gettext rules occur in our catalogs:
// French counts 0 and 1 as singular ("n > 1"), English and Spanish only 1 ("n != 1").
function pluralIndex(n) {
  if (/n\s*>\s*1/.test(pluralRule)) return n > 1 ? 1 : 0;
  return n === 1 ? 0 : 1;
}

// The first supported language among the browser's preferences, or English.
export function browserLanguage() {
  const wanted = navigator.languages && navigator.languages.length
    ? navigator.languages
    : [navigator.language || "en"];
  for (const tag of wanted) {
    const code = String(tag).toLowerCase().split(/[-_]/)[0];
    if (SUPPORTED.includes(code)) return code;
  }
  return "en";
}

function savedLanguage() {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    return SUPPORTED.includes(saved) ? saved : null;
  } catch {
    return null; // storage blocked (private mode, file://): follow the browser
  }
}

// Load the saved or browser language; call once before the first render.
export async function initI18n() {
  await setLanguage(savedLanguage() || browserLanguage(), false);
}

let switching = 0; // the latest setLanguage call; an older one finishing later is dropped

// Switch language, remember it, and tell the page (event "patience:language").
export async function setLanguage(code, remember = true) {
  const ticket = ++switching;
  const next = SUPPORTED.includes(code) ? code : "en";
  let catalog = null;
  let rule = next === "fr" ? "(n > 1)" : "(n != 1)";
  try {
    const res = await fetch(`/api/messages/${next}`);
    if (res.ok) {
      const body = await res.json();
      catalog = body.messages || {};
      if (typeof body.plural === "string") rule = body.plural;
    }
  } catch {
    catalog = null; // offline: the English ids still read correctly
  }
  if (ticket !== switching) return;
  lang = next;
  messages = catalog || {};
  loaded = catalog !== null;
  pluralRule = rule;
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEY, lang);
    } catch {
      // storage blocked: the choice lasts for this page only
    }
  }
  document.documentElement.lang = lang;
  translatePage();
  window.dispatchEvent(new CustomEvent("patience:language", { detail: { lang } }));
}

// Fill every element that has a data-i18n attribute (and data-i18n-title,
// data-i18n-aria-label, data-i18n-placeholder for those attributes) under root.
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.getAttribute("data-i18n"));
  }
  for (const attr of ["title", "aria-label", "placeholder", "alt"]) {
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      el.setAttribute(attr, t(el.getAttribute(`data-i18n-${attr}`)));
    }
  }
}

// Each card's full name as one message id (the same ids cards.js uses), so that every
// language words it naturally: "Queen of hearts", "Reina de corazones", "Dame de cœur".
const CARD_NAMES = {
  AC: () => t("Ace of clubs"),
  "2C": () => t("Two of clubs"),
  "3C": () => t("Three of clubs"),
  "4C": () => t("Four of clubs"),
  "5C": () => t("Five of clubs"),
  "6C": () => t("Six of clubs"),
  "7C": () => t("Seven of clubs"),
  "8C": () => t("Eight of clubs"),
  "9C": () => t("Nine of clubs"),
  TC: () => t("Ten of clubs"),
  JC: () => t("Jack of clubs"),
  QC: () => t("Queen of clubs"),
  KC: () => t("King of clubs"),
  AD: () => t("Ace of diamonds"),
  "2D": () => t("Two of diamonds"),
  "3D": () => t("Three of diamonds"),
  "4D": () => t("Four of diamonds"),
  "5D": () => t("Five of diamonds"),
  "6D": () => t("Six of diamonds"),
  "7D": () => t("Seven of diamonds"),
  "8D": () => t("Eight of diamonds"),
  "9D": () => t("Nine of diamonds"),
  TD: () => t("Ten of diamonds"),
  JD: () => t("Jack of diamonds"),
  QD: () => t("Queen of diamonds"),
  KD: () => t("King of diamonds"),
  AH: () => t("Ace of hearts"),
  "2H": () => t("Two of hearts"),
  "3H": () => t("Three of hearts"),
  "4H": () => t("Four of hearts"),
  "5H": () => t("Five of hearts"),
  "6H": () => t("Six of hearts"),
  "7H": () => t("Seven of hearts"),
  "8H": () => t("Eight of hearts"),
  "9H": () => t("Nine of hearts"),
  TH: () => t("Ten of hearts"),
  JH: () => t("Jack of hearts"),
  QH: () => t("Queen of hearts"),
  KH: () => t("King of hearts"),
  AS: () => t("Ace of spades"),
  "2S": () => t("Two of spades"),
  "3S": () => t("Three of spades"),
  "4S": () => t("Four of spades"),
  "5S": () => t("Five of spades"),
  "6S": () => t("Six of spades"),
  "7S": () => t("Seven of spades"),
  "8S": () => t("Eight of spades"),
  "9S": () => t("Nine of spades"),
  TS: () => t("Ten of spades"),
  JS: () => t("Jack of spades"),
  QS: () => t("Queen of spades"),
  KS: () => t("King of spades"),
};

// A card's full name in the current language, for screen readers and messages:
// cardName("QH") is "Queen of hearts", "Reina de corazones" or "Dame de cœur".
// Accepts "TH" and "10H" (any case); returns other text unchanged.
export function cardName(card) {
  const text = String(card).trim().toUpperCase().replace(/^10/, "T");
  const name = CARD_NAMES[text];
  return name ? name() : String(card);
}

// What the game being played calls its reserves (its reserve_names.pile, a message id):
// FreeCell's "r2" is "free cell 2".
let reserveName = null;
export function nameReserves(id) {
  reserveName = id || null;
}

// A pile's name in the current language: pileName("t3") is "tableau pile 3",
// "columna 3" or "colonne 3"; "s"/"stock", "w"/"waste", "f1", "r2" likewise.
export function pileName(pile) {
  const id = String(pile);
  if (id === "s" || id === "stock") return t("stock");
  if (id === "w" || id === "waste") return t("waste");
  const m = /^([ftr])(\d+)$/.exec(id);
  if (!m) return id;
  const n = Number(m[2]);
  if (m[1] === "f") return t("foundation {n}", { n });
  if (m[1] === "t") return t("tableau pile {n}", { n });
  return reserveName ? t(reserveName, { n }) : t("reserve {n}", { n });
}

const CARD_PARAMS = ["card", "below", "top"];
const PILE_PARAMS = ["pile"];

// The text of a server error in the current language: error is the reply's "error"
// object ({code, message, message_id, params}) or api.js's ApiError (messageId, params):
// the template is translated, cards and piles are named in words, and words the engine
// passes (game names, "Kings") are translated too. The "{move}: " prefix is dropped
// unless withMove is true: a player knows what they just tried.
export function tError(error, withMove = false) {
  if (!error) return "";
  const id = error.message_id || error.messageId || error.message || "";
  const params = { ...(error.params || {}) };
  let reasonId = id;
  let prefix = "";
  if (id.startsWith("{move}: ")) {
    reasonId = id.slice(8);
    if (withMove) prefix = `${params.move ?? ""}: `;
  }
  for (const [key, value] of Object.entries(params)) {
    if (typeof value !== "string") continue;
    if (CARD_PARAMS.includes(key)) params[key] = cardName(value);
    else if (PILE_PARAMS.includes(key)) params[key] = pileName(value);
    else if (key === "cards") params[key] = value.split(/\s+/).map(cardName).join(", ");
    // An option's value ({mode}), named as the new-game dialog names it.
    else if (optionValueId(key, value)) params[key] = quote(t(optionValueId(key, value)));
    else if (key !== "move") params[key] = lookup(value) ?? value; // a word, or data as sent
  }
  const text = lookup(reasonId);
  if (text === null) {
    // An id the catalog does not know (text the engine built in English): show it as sent.
    const sent = String(error.message || id);
    return /^\w+>/.test(sent) ? sent : capitalize(sent);
  }
  return prefix + capitalize(fill(text, params));
}

// A name in quotation marks, as each language writes them.
function quote(text) {
  return t("“{text}”", { text });
}

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
