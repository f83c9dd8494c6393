// The statistics dialog: per game and options, the daily streak, and resetting them (one
// game's, or every game's) after a confirmation. The game in progress is never touched.
import * as api from "./api.js";
import { localDate } from "./daily.js";
import { el, formatTime, openConfirm, showDialog } from "./dialogs.js";
import { gameWithOptions } from "./games.js";
import { t } from "./i18n.js";

// Statistics of this browser's today (the daily streak runs up to the player's date).
const fetchStats = () => api.stats(localDate());

function section(s, onReset) {
  const pct = s.played ? Math.round((s.win_rate ?? s.won / s.played) * 100) : 0;
  const item = (label, value) => [el("dt", { text: label }), el("dd", { text: String(value) })];
  const name = gameWithOptions(s.game, s.options);
  return el(
    "section",
    { class: "stat", "data-game": s.game },
    el("h3", { text: name }),
    el(
      "dl",
      {},
      item(t("Played"), s.played),
      item(t("Won"), s.won),
      // Play assisted by "Show me"; a server without that count sends no field.
      s.assisted === undefined ? [] : item(t("Assisted"), s.assisted),
      item(t("Win rate"), t("{percent}%", { percent: pct })), // "50 %" in es and fr
      item(t("Current streak"), s.current_streak),
      item(t("Longest streak"), s.longest_streak),
      item(t("Deal of the day streak"), s.daily_streak ?? 0),
      item(t("Longest deal of the day streak"), s.daily_longest ?? 0),
      item(t("Best time"), formatTime(s.best_time)),
      item(t("Average time"), formatTime(s.average_time)),
      item(t("Best score"), s.best_score ?? "–"),
    ),
    el("button", {
      type: "button",
      class: "stat-reset",
      text: t("Reset"),
      "aria-label": t("Reset the statistics of {game}", { game: name }),
      onclick: () => onReset(s),
    }),
  );
}

function fill(data, onError) {
  const reset = (body, text) =>
    openConfirm({
      title: () => t("Reset the statistics?"),
      text,
      confirmLabel: () => t("Reset"),
      onConfirm: async () => {
        try {
          await api.resetStats(body);
          fill(await fetchStats(), onError);
        } catch (err) {
          onError(err);
        }
      },
    });
  const one = (s) =>
    reset({ game: s.game, options: s.options }, () =>
      t("The statistics of {game} will be forgotten. The game in progress is kept.", {
        game: gameWithOptions(s.game, s.options),
      }),
    );
  const all = () => reset({}, () => t("The statistics of every game will be forgotten. The game in progress is kept."));
  showDialog("stats-dialog", (dialog) => {
    const rows = (data && data.stats) || [];
    const body = rows.length ? rows.map((s) => section(s, one)) : [el("p", { text: t("No games finished yet.") })];
    return [
      el("h2", { text: t("Statistics") }),
      el("div", { class: "stats-list" }, body),
      el(
        "div",
        { class: "buttons" },
        rows.length ? el("button", { type: "button", id: "stats-reset-all", text: t("Reset all"), onclick: all }) : null,
        el("button", { type: "button", text: t("Close"), onclick: () => dialog.close() }),
      ),
    ];
  });
}

// Open the statistics; onError(err) shows a failure (the server's named error).
export async function openStats(onError) {
  try {
    fill(await fetchStats(), onError);
  } catch (err) {
    onError(err);
  }
}
