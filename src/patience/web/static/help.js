// The "How to play" panel (owned by the translations work; this is its contract).
import { t } from "./i18n.js";

// Open the rules help for a game name such as "klondike".
export function openHelp(game) {
  let dialog = document.getElementById("help-dialog");
  if (!dialog) {
    dialog = document.createElement("dialog");
    dialog.id = "help-dialog";
    document.body.appendChild(dialog);
  }
  dialog.textContent = t("How to play") + ": " + game;
  dialog.showModal();
}

// Mount the language menu into the given element.
export function mountLanguageMenu(element) {
  element.textContent = "";
}
