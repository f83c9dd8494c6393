// How the page looks, as the player chose in the settings: light or dark (or the system's
// choice), the table's colour, the card back and face; and the fullscreen button.
import { BACK_NAMES, setCardStyle } from "./cards.js";
import { FACE_STYLES } from "./faces.js";
import { t } from "./i18n.js";

export const THEMES = ["system", "light", "dark"];
export const TABLE_COLOURS = ["green", "blue", "red", "grey"];

// The settings this module owns, with their first-visit values.
export const LOOK_DEFAULTS = { theme: "system", table: "green", back: "blue", face: "standard" };

// The choices the settings dialog offers: setting key -> [value, label()].
export const LOOK_CHOICES = {
  theme: [
    ["system", () => t("As the system")],
    ["light", () => t("Light")],
    ["dark", () => t("Dark")],
  ],
  table: [
    ["green", () => t("Green")],
    ["blue", () => t("Blue")],
    ["red", () => t("Red")],
    ["grey", () => t("Grey")],
  ],
  back: [
    ["blue", () => t("Blue")],
    ["red", () => t("Red")],
    ["green", () => t("Green")],
    ["black", () => t("Black")],
  ],
  face: [
    ["standard", () => t("Standard")],
    ["traditional", () => t("Traditional, with pictured courts")],
    ["large", () => t("Large print")],
  ],
};

const darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
let current = { ...LOOK_DEFAULTS };

function pick(value, allowed, fallback) {
  return allowed.includes(value) ? value : fallback;
}

function applyScheme() {
  const theme = pick(current.theme, THEMES, "system");
  const dark = theme === "dark" || (theme === "system" && Boolean(darkQuery && darkQuery.matches));
  const root = document.documentElement;
  root.dataset.scheme = dark ? "dark" : "light";
  // Form controls and scroll bars follow too.
  const meta = document.querySelector('meta[name="color-scheme"]');
  if (meta) meta.content = dark ? "dark" : "light";
  const colour = getComputedStyle(root).getPropertyValue("--bar").trim();
  const themeColour = document.querySelector('meta[name="theme-color"]');
  if (themeColour && colour) themeColour.content = colour;
}

// Put the settings' looks on the page (html data attributes the style sheet follows, and
// the cards' style). Unknown values (an old or edited localStorage) fall back to defaults.
export function applyLooks(settings) {
  current = { ...LOOK_DEFAULTS, ...settings };
  document.documentElement.dataset.table = pick(current.table, TABLE_COLOURS, LOOK_DEFAULTS.table);
  document.documentElement.dataset.face = pick(current.face, FACE_STYLES, LOOK_DEFAULTS.face);
  setCardStyle(pick(current.face, FACE_STYLES, LOOK_DEFAULTS.face), pick(current.back, BACK_NAMES, LOOK_DEFAULTS.back));
  applyScheme();
}

// "As the system": follow the system when it switches between light and dark.
if (darkQuery) darkQuery.addEventListener("change", applyScheme);

// ---------- fullscreen ----------

function fullscreenElement() {
  return document.fullscreenElement || document.webkitFullscreenElement || null;
}

// Whether this browser can show the page full screen (iPhones cannot: the button hides).
export function canFullscreen() {
  return Boolean(document.fullscreenEnabled || document.webkitFullscreenEnabled);
}

export function isFullscreen() {
  return Boolean(fullscreenElement());
}

// Enter full screen, or leave it.
export function toggleFullscreen() {
  const root = document.documentElement;
  if (isFullscreen()) {
    const exit = document.exitFullscreen || document.webkitExitFullscreen;
    if (exit) Promise.resolve(exit.call(document)).catch(() => {});
    return;
  }
  const request = root.requestFullscreen || root.webkitRequestFullscreen;
  if (request) Promise.resolve(request.call(root)).catch(() => {});
}

// Show the fullscreen button where it works; onChange runs now and whenever the page enters
// or leaves full screen (the button's label says which it does next).
export function installFullscreen(button, onChange) {
  button.hidden = !canFullscreen();
  document.addEventListener("fullscreenchange", onChange);
  document.addEventListener("webkitfullscreenchange", onChange);
  onChange(); // the toolbar has one button more (or not): its labels fit again
}
