// The games the server deals, each as it declares itself (GET /api/games): its title, its
// options with their labels, its table, its help. Every text is a message id, translated
// here with t() when shown; the page names no game in its logic.
import * as api from "./api.js";
import { t } from "./i18n.js";

let list = [];
let loading = null;

// Load the games once; every later call returns the same promise.
export function loadGames() {
  if (!loading) {
    loading = api.listGames().then((games) => (list = games));
    loading.catch(() => (loading = null)); // a failed load may be tried again
  }
  return loading;
}

// Every game, in menu order (empty until loaded).
export function games() {
  return list;
}

// The declaration of a game name, or undefined.
export function gameInfo(name) {
  return list.find((g) => g.name === name);
}

// The translated title of a game name.
export function gameTitle(name, fallback) {
  const info = gameInfo(name);
  return info ? t(info.title) : fallback || name;
}

function option(key, name) {
  const infos = name ? [gameInfo(name)] : list;
  for (const info of infos) {
    const found = ((info && info.choices) || []).find((o) => o.key === key);
    if (found) return found;
  }
  return undefined;
}

// The message id of an option value's label (of game name, or of any game), or null.
export function optionValueId(key, value, name) {
  const v = ((option(key, name) || {}).values || []).find((x) => x.value === value);
  return v ? v.label : null;
}

// The translated label of an option value.
function optionLabel(key, value, name) {
  const id = optionValueId(key, value, name);
  return id ? t(id) : value;
}

// "Draw three, unlimited redeals": a game's non-empty options, translated ("" without).
export function optionsText(name, options) {
  return Object.entries(options || {}).map(([k, v]) => optionLabel(k, v, name)).join(", ");
}

// "Klondike (Draw three, unlimited redeals)": a game with its non-empty options.
export function gameWithOptions(name, options) {
  const opts = optionsText(name, options);
  return opts ? `${gameTitle(name)} (${opts})` : gameTitle(name);
}
