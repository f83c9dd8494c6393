// The page's state: the game view and what the player has picked, hinted and set, kept in
// one object the other modules share; the settings as stored in this browser.
import { FAIR_DEFAULTS } from "./fair.js";
import { LOOK_DEFAULTS } from "./looks.js";

export const SETTINGS_KEY = "patience.settings";
export const LAST_GAME_KEY = "patience.lastGame";

export const state = {
  view: null,
  cards: {}, // pile -> [{text, up}]
  layout: null,
  positions: {},
  selected: null, // {pile, index}
  focus: null, // {pile, index}: the keyboard cursor
  hint: null, // {src, index, dst} to highlight
  busy: 0,
  receivedAt: performance.now(),
  showMe: null,
  winnable: null, // {verdict} for the optional indicator
  winnableAbort: null,
  winnableRequest: null, // {view, promise}: the indicator's hint request
  settings: loadSettings(),
};

export const table = document.getElementById("table");
export const tableWrap = document.getElementById("table-wrap");

function loadSettings() {
  const defaults = { showWinnable: false, winnableOnly: false, animate: true, autoplay: false, oneClick: false, sound: false, ...FAIR_DEFAULTS, ...LOOK_DEFAULTS };
  try {
    return { ...defaults, ...JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") };
  } catch {
    return defaults;
  }
}
