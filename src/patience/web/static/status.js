// The status line and the screen reader's announcements: messages and errors, in the
// player's language.
import * as api from "./api.js";
import { t, tError } from "./i18n.js";
import { playSound } from "./sound.js";
import { state } from "./state.js";

const statusEl = document.getElementById("status");
const announceEl = document.getElementById("announce");

export function say(text) {
  // Clearing first makes screen readers repeat a message identical to the last one.
  announceEl.textContent = "";
  setTimeout(() => (announceEl.textContent = text), 30);
}

// Show a message; text may be a function, called again when the language changes, and
// so may extra (an element after it, or a function making it, such as a hint's detail).
export function setStatus(text, kind = "info", extra = null) {
  state.status = { text, kind, extra };
  statusEl.replaceChildren();
  const span = document.createElement("span");
  span.textContent = typeof text === "function" ? text() : text;
  statusEl.append(span);
  const node = typeof extra === "function" ? extra() : extra;
  if (node) statusEl.append(node);
  statusEl.dataset.kind = kind;
}

function errorText(err) {
  if (err instanceof api.ApiError) return tError(err);
  return t("The server cannot be reached. Is patience still running?");
}

export function showError(err) {
  playSound("refusal");
  setStatus(() => errorText(err), "error");
  say(errorText(err));
}
