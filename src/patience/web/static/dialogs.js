// Dialogs: new game, settings, confirmations, and the won / no-moves-left messages (the
// statistics are in stats.js).
import { dailyBody, dateLabel, localDate } from "./daily.js";
import { gameTitle, gameWithOptions, games as allGames } from "./games.js";
import { t, tn } from "./i18n.js";

// Seconds as m:ss or h:mm:ss.
export function formatTime(seconds) {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "–";
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c) e.append(c);
  return e;
}

let refreshOpen = null;

// Show the dialog ``id`` (made once) filled by build(dialog); a second call refills it.
export function showDialog(id, build) {
  let dialog = document.getElementById(id);
  if (!dialog) {
    dialog = el("dialog", { id, class: "panel" });
    document.body.append(dialog);
    dialog.addEventListener("close", () => {
      if (refreshOpen && refreshOpen.dialog === dialog) refreshOpen = null;
    });
    // A click on the backdrop (outside the panel box) closes it, as players expect.
    dialog.addEventListener("click", (ev) => {
      if (ev.target !== dialog) return;
      const r = dialog.getBoundingClientRect();
      const inside = ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom;
      if (!inside) dialog.close();
    });
  }
  // A builder leaves out what does not apply as null (the won dialog's "assisted" line):
  // replaceChildren would write it as the text "null".
  const fill = () => {
    dialog.replaceChildren(...build(dialog).flat().filter((c) => c !== null && c !== undefined && c !== false));
  };
  fill();
  refreshOpen = { dialog, fill };
  if (!dialog.open) dialog.showModal();
  const first = dialog.querySelector("[autofocus]") || dialog.querySelector("button.primary");
  if (first) first.focus();
  return dialog;
}

// Rebuild the open dialog in the new language.
export function refreshDialogs() {
  if (refreshOpen && refreshOpen.dialog.open) refreshOpen.fill();
}

// Close every dialog of ours.
export function closeDialogs() {
  for (const d of document.querySelectorAll("dialog.panel[open]")) d.close();
}

function closeButton(dialog, label) {
  return el("button", { type: "button", text: label || t("Close"), onclick: () => dialog.close() });
}

// The new-game dialog: game, its options, a deal number, winnable deals only.
export function openNewGame({ game, options, winnableOnly, onStart }) {
  const games = allGames();
  // What the player has chosen: kept while the dialog is built again (another game, or
  // another language).
  const choice = { game, options: { ...(options || {}) }, dealText: "", winnable: winnableOnly };
  showDialog("new-game-dialog", (dialog) => {
    const info = games.find((g) => g.name === choice.game) || games[0];
    const error = el("p", { class: "form-error", role: "alert" });
    const form = el(
      "form",
      {
        method: "dialog",
        // Our own message, in the player's language, instead of the browser's vague bubble
        // (which also refused " 42 " with spaces around it).
        novalidate: true,
        onsubmit: (ev) => {
          ev.preventDefault();
          startDeal(dialog, info, choice, error, onStart);
        },
      },
      el("h2", { text: t("New game") }),
      gameField(games, choice),
      optionFields(info, choice),
      dealField(choice),
      winnableField(choice),
      error,
      newGameButtons(dialog, info, choice, onStart),
    );
    return [form];
  });
}

// The game chosen: choosing another builds the dialog again, with that game's options.
function gameField(games, choice) {
  const select = el(
    "select",
    {
      id: "new-game-game",
      onchange: (ev) => {
        choice.game = ev.target.value;
        refreshDialogs();
        document.getElementById("new-game-game").focus();
      },
    },
    games.map((g) => el("option", { value: g.name, selected: g.name === choice.game, text: gameTitle(g.name) })),
  );
  return el("label", { class: "field" }, el("span", { text: t("Game") }), select);
}

// A select for each option of the game, on the value chosen before if the game has it.
function optionFields(info, choice) {
  const values = choice.options;
  return (info.choices || []).map(({ key, label, default: byDefault, values: offered }) => {
    const current = offered.some((v) => v.value === values[key]) ? values[key] : byDefault;
    values[key] = current;
    const select = el(
      "select",
      { id: `new-game-option-${key}`, "data-option": key, onchange: (ev) => (values[key] = ev.target.value) },
      offered.map((v) => el("option", { value: v.value, selected: v.value === current, text: t(v.label) })),
    );
    return el("label", { class: "field" }, el("span", { text: t(label) }), select);
  });
}

function dealField(choice) {
  const input = el("input", {
    id: "new-game-deal",
    type: "text",
    inputmode: "numeric",
    autocomplete: "off",
    placeholder: t("random"),
    value: choice.dealText,
    oninput: (ev) => (choice.dealText = ev.target.value),
  });
  return el("label", { class: "field" }, el("span", { text: t("Deal number") }), input);
}

function winnableField(choice) {
  const box = el("input", {
    id: "new-game-winnable",
    type: "checkbox",
    checked: choice.winnable,
    onchange: (ev) => (choice.winnable = ev.target.checked),
  });
  return el("label", { class: "check" }, box, el("span", { text: t("Winnable deals only") }));
}

// The chosen values of the game's own options (not those left from another game).
function chosenOptions(info, choice) {
  const opts = {};
  for (const { key } of info.choices || []) opts[key] = choice.options[key];
  return opts;
}

// Deal: the number typed (checked here for its form only), or a random deal.
function startDeal(dialog, info, choice, error, onStart) {
  const text = choice.dealText.trim();
  if (text && !/^\d+$/.test(text)) {
    error.textContent = t("A deal number is a whole number, 0 or more.");
    return;
  }
  dialog.close();
  // The digits as text: exact past 2**53, where a JavaScript number is not. The
  // server holds the one bound of every deal number and names it when refusing.
  const winnable = choice.winnable && !text;
  onStart({ game: choice.game, options: chosenOptions(info, choice), deal: text || null, winnable });
}

function newGameButtons(dialog, info, choice, onStart) {
  return el(
    "div",
    { class: "buttons" },
    el("button", { type: "button", text: t("Cancel"), onclick: () => dialog.close() }),
    // The same deal for everyone today: the deal number box does not apply.
    el("button", {
      type: "button",
      id: "new-game-daily",
      text: t("Deal of the day"),
      title: dateLabel(localDate()),
      onclick: () => {
        dialog.close();
        onStart(dailyBody(choice.game, chosenOptions(info, choice), choice.winnable));
      },
    }),
    el("button", { type: "submit", class: "primary", id: "new-game-start", text: t("Deal") }),
  );
}

// The settings dialog; settings is {key: value}, onChange(key, value) stores one. choices
// is {key: [[value, label()], ...]}: the settings picked from a list (the looks).
// A setting that is not offered now has why(): the reason, as the box's title (the
// winnable indicator waits for the solver to be allowed to look at face-down cards).
export function openSettings(settings, onChange, choices, why = {}) {
  showDialog("settings-dialog", (dialog) => {
    const box = (key, label) => {
      const reason = why[key] ? why[key](settings) : null;
      return el(
        "label",
        { class: "check", title: reason || undefined },
        el("input", {
          type: "checkbox",
          id: `setting-${key}`,
          checked: settings[key] && !reason,
          disabled: Boolean(reason),
          onchange: (ev) => {
            onChange(key, ev.target.checked);
            refreshDialogs(); // a box that depends on this one may change
            document.getElementById(`setting-${key}`).focus();
          },
        }),
        el("span", { text: label }),
      );
    };
    const choice = (key, label) =>
      el(
        "label",
        { class: "field" },
        el("span", { text: label }),
        el(
          "select",
          { id: `setting-${key}`, onchange: (ev) => onChange(key, ev.target.value) },
          choices[key].map(([value, text]) => el("option", { value, selected: value === settings[key], text: text() })),
        ),
      );
    return [
      el("h2", { text: t("Settings") }),
      el("h3", { text: t("Play") }),
      box("showChance", t("Show the chance to win from what I have seen")),
      box("peek", t("The solver may look at the face-down cards")),
      el("p", { class: "setting-note", text: t("Then Hint is proven, and Show me, the winnable indicator and Rewind are offered; a game where they are used counts apart in the statistics.") }),
      box("showWinnable", t("Show whether the position can still be won")),
      box("winnableOnly", t("Winnable deals only")),
      box("animate", t("Animate card moves")),
      box("autoplay", t("Send cards to the foundations by themselves when it is safe")),
      box("oneClick", t("One click moves a card to the best place")),
      box("sound", t("Sounds")),
      el("h3", { text: t("Looks") }),
      choice("theme", t("Theme")),
      choice("table", t("Table colour")),
      choice("back", t("Card back")),
      choice("face", t("Card face")),
      el("div", { class: "buttons" }, closeButton(dialog)),
    ];
  });
}

// The end-of-game message: "won" or "stuck", with the choices that make sense.
export function openResult(kind, view, actions) {
  return showDialog("result-dialog", (dialog) => {
    const act = (label, fn, primary = false, id = undefined) =>
      el("button", {
        type: "button",
        id,
        class: primary ? "primary" : undefined,
        text: label,
        onclick: () => {
          dialog.close();
          fn();
        },
      });
    if (kind === "won") {
      return [
        el("h2", { class: "won-title", text: t("You won!") }),
        el("p", {
          text: t("{game}, deal {deal}: {moves} in {time}.", {
            // The deal mode too: deal 5 of draw one is not deal 5 of draw three.
            game: gameWithOptions(view.game, view.options),
            deal: view.deal ?? "–",
            moves: tn("{n} move", "{n} moves", view.moves_made),
            time: formatTime(view.elapsed),
          }),
        }),
        // A proven hint, Show me or Rewind was used: the win is not the player's alone.
        view.assisted ? el("p", { class: "won-assisted", text: t("The solver helped: this win counts apart in the statistics, as assisted.") }) : null,
        el("div", { class: "buttons" },
          act(t("Statistics"), actions.stats),
          act(t("Undo"), actions.undo),
          act(t("New game"), actions.newGame, true, "result-new-game")),
      ];
    }
    return [
      el("h2", { text: t("No moves left") }),
      el("p", { text: t("There is no legal move in this position. Undo some moves, or start a new game.") }),
      el("div", { class: "buttons" },
        act(t("Undo"), actions.undo, false, "result-undo"),
        // Rewinding looks at the face-down cards: offered only when the player allows it.
        actions.rewind ? act(t("Rewind to a winnable position"), actions.rewind) : null,
        act(t("New game"), actions.newGame, true, "result-new-game")),
    ];
  });
}

// Ask before something that cannot be undone; onConfirm runs on the primary button.
export function openConfirm({ title, text, confirmLabel, onConfirm }) {
  return showDialog("confirm-dialog", (dialog) => [
    el("h2", { text: title() }),
    el("p", { text: text() }),
    el(
      "div",
      { class: "buttons" },
      el("button", { type: "button", text: t("Cancel"), onclick: () => dialog.close() }),
      el("button", {
        type: "button",
        class: "primary",
        id: "confirm-ok",
        text: confirmLabel(),
        onclick: () => {
          dialog.close();
          onConfirm();
        },
      }),
    ),
  ]);
}
