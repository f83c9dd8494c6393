// The JSON API of the local server (see the web API contract). The server decides every rule.

// An error reply: code, English message, and the message id + params used to translate it.
export class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.message || `HTTP ${status}`);
    this.status = status;
    this.code = e.code || "error";
    this.messageId = e.message_id || e.message || null;
    this.params = e.params || {};
  }
}

// Deal numbers go up to 10^20, past the 2^53 up to which a JavaScript number holds every
// integer: an integer that a number would round is kept as its digits (the server takes a
// deal number as digits too). Where the browser does not give the source text, the
// number is kept as it is.
function exactIntegers(key, value, context) {
  const digits = context && context.source;
  return typeof value === "number" && !Number.isSafeInteger(value) && /^\d+$/.test(digits || "")
    ? digits
    : value;
}

async function request(method, path, body, signal) {
  const init = { method, headers: { Accept: "application/json" }, signal };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(`/api${path}`, init);
  if (res.status === 204) return null; // No Content
  let data = null;
  try {
    data = JSON.parse(await res.text(), exactIntegers);
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

// The games and their options: [{name, title, options, defaults}].
export const listGames = () => request("GET", "/games");
// Start a game; body {game, options, deal, winnable} (and optionally position, or daily:
// the date of the deal of the day).
export const newGame = (body) => request("POST", "/games", body);
// The unfinished game last played, or null when there is none: the server answers 204
// No Content then (a 404 from older servers means the same).
export async function currentGame() {
  try {
    return await request("GET", "/current");
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
// One game by id.
export const getGame = (id) => request("GET", `/games/${encodeURIComponent(id)}`);
// Play a move in the FORMATS.md notation ("t6>t2/3", "deal"). A move the page knows is
// illegal (legal: false) is not sent: a refused request would log an error in the
// browser's console. Its reason comes from /why, which answers 200, and is thrown as the
// move's 409 would be. assisted: "Show me" played it (counted apart in the statistics).
// autoplay: the server then sends home the cards it is proven safe to (view.autoplayed).
export async function move(id, text, { legal = true, assisted = false, autoplay = false } = {}) {
  const game = `/games/${encodeURIComponent(id)}`;
  if (!legal) {
    const why = await request("GET", `${game}/why?move=${encodeURIComponent(text)}`);
    if (!why.legal) throw new ApiError(409, why);
  }
  const body = { move: text };
  if (assisted) body.assisted = true;
  if (autoplay) body.autoplay = true;
  return request("POST", `${game}/move`, body);
}
// Undo, redo, restart, autofinish, rewind: actions without a body.
export const action = (id, name) => request("POST", `/games/${encodeURIComponent(id)}/${name}`);
// Send the top card of a pile to its foundation (autoplay: as for a move).
export const toFoundation = (id, pile, autoplay = false) =>
  request("POST", `/games/${encodeURIComponent(id)}/foundation`, autoplay ? { pile, autoplay } : { pile });
// A hint: {verdict, move, line, fair, chance, interval, samples, ...}. Fair (from what the
// player has seen) unless peek: then the solver looks at every card, and the server records
// the game as assisted.
export const hint = (id, signal, peek = false) =>
  request("GET", `/games/${encodeURIComponent(id)}/hint${peek ? "?peek=true" : ""}`, undefined, signal);
// The chance to win from what the player has seen: {chance, interval, samples, undecided, exact}.
export const chance = (id, signal) => request("GET", `/games/${encodeURIComponent(id)}/chance`, undefined, signal);
// Statistics per game and options; the daily streaks run up to date (YYYY-MM-DD).
export const stats = (date) => request("GET", `/stats?date=${encodeURIComponent(date)}`);
// Forget statistics: body {game, options} (one game's), {game} (all its options), {} (all).
export const resetStats = (body) => request("POST", "/stats/reset", body);
