// Translations for the front end. Message ids are the English texts (gettext style),
// with {name} placeholders; the catalogs come from GET /api/messages/{lang}.
// This is the contract other modules rely on: t, tn, initI18n, setLanguage, language.

let lang = "en";
let messages = {};

export function language() {
  return lang;
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
}

// Translate one message id; params fill its {placeholders}.
export function t(id, params = {}) {
  const text = messages[id];
  return fill(typeof text === "string" && text ? text : id, params);
}

// Translate a message with plural forms; n picks the form and fills {n}.
export function tn(singular, plural, n, params = {}) {
  const forms = messages[singular + "\u0000" + plural];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms) && forms.length) {
    text = forms[pluralIndex(n)] || text;
  }
  return fill(text, { n, ...params });
}

function pluralIndex(n) {
  if (lang === "fr") return n > 1 ? 1 : 0;
  return n === 1 ? 0 : 1;
}

// Load the saved or browser language; call once before the first render.
export async function initI18n() {
  const saved = localStorage.getItem("patience.lang");
  const wanted = saved || (navigator.language || "en").slice(0, 2);
  await setLanguage(wanted, false);
}

// Switch language, remember it, and tell the page (event "patience:language").
export async function setLanguage(code, remember = true) {
  const supported = ["en", "es", "fr"];
  lang = supported.includes(code) ? code : "en";
  try {
    const res = await fetch(`/api/messages/${lang}`);
    messages = res.ok ? (await res.json()).messages || {} : {};
  } catch {
    messages = {};
  }
  if (remember) localStorage.setItem("patience.lang", lang);
  document.documentElement.lang = lang;
  window.dispatchEvent(new CustomEvent("patience:language", { detail: { lang } }));
}
