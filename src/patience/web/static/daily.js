// The deal of the day: the same proven-winnable deal for everyone on a date. The date is
// the player's own (this browser's local date), sent to the server, which checks it.
import { language, t } from "./i18n.js";

// Today in this browser's time zone, as YYYY-MM-DD.
export function localDate(now = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

// A YYYY-MM-DD date in the player's language ("1 December 2026", "1 de diciembre de 2026";
// short: "1 Dec 2026", "1 dic 2026").
export function dateLabel(date, short = false) {
  const [y, m, d] = date.split("-").map(Number);
  const month = short ? "short" : "long";
  return new Date(y, m - 1, d).toLocaleDateString(language(), { day: "numeric", month, year: "numeric" });
}

// What the info bar says of the deal: its number, and its date for a deal of the day (the
// month short: the line must fit a phone on its side).
export function dealLabel(view) {
  if (view.daily) return t("Deal of the day, {date}", { date: dateLabel(view.daily, true) });
  return t("Deal {deal}", { deal: view.deal ?? "–" });
}

// The new game's body for today's deal of the day of a game and its options.
export function dailyBody(game, options, winnable) {
  return { game, options, deal: null, winnable, daily: localDate() };
}
