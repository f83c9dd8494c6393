// The page's first requests, sent while the rest of its modules still load: index.html
// runs this module ahead of app.js, and it needs only the modules that ask (preloaded
// with every other), so the translations, the games and the game in progress travel
// while the browser fetches the table's modules. app.js waits for these, not asking again.
import { currentGame } from "./api.js";
import { loadGames } from "./games.js";
import { initI18n } from "./i18n.js";

// A failure is reported where the reply is awaited (app.js), not as an unhandled rejection.
function later(promise) {
  promise.catch(() => {});
  return promise;
}

export const translations = later(initI18n());
export const gamesLoaded = later(loadGames());
export const current = later(currentGame());
