// The page's strings (embedded by the server as a JSON data block) and an ICU-like formatter:
// "{name}" inserts a value, "{n, plural, =0 {…} one {…} other {# …}}" picks the plural form the
// language's rules ask for (Intl.PluralRules), "#" being the number, and
// "{end, select, low {…} other {…}}" picks by value.

const node = document.getElementById("strings");
const table = node ? JSON.parse(node.textContent) : {};

const lang = document.documentElement.lang || "de";
const LOCALES = { de: "de-DE", en: "en-GB", nl: "nl-NL" };
export const locale = LOCALES[lang] || LOCALES.de;
const plurals = new Intl.PluralRules(locale);

export function has(key) {
  return Object.prototype.hasOwnProperty.call(table, key);
}

// t("key", {n: 3}); an unknown key shows itself, a missing value keeps its placeholder (a test
// walks every page for those).
export function t(key, params = {}) {
  return format(has(key) ? table[key] : key, params);
}

export function formatNumber(n) {
  return Number(n).toLocaleString(locale);
}

function display(value) {
  return typeof value === "number" ? formatNumber(value) : String(value);
}

// The index of the "}" that closes the "{" at text[open], or -1.
function closing(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === "{") depth += 1;
    else if (text[i] === "}") {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

// "=0 {none} one {# card} other {# cards}" -> {"=0": "none", one: "# card", other: "# cards"}
function cases(text) {
  const found = {};
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("{", i);
    if (open < 0) break;
    const end = closing(text, open);
    if (end < 0) break;
    found[text.slice(i, open).trim()] = text.slice(open + 1, end);
    i = end + 1;
  }
  return found;
}

function argument(body, params) {
  const [name, type, ...rest] = body.split(",");
  const key = name.trim();
  if (!(key in params)) return `{${body}}`;
  if (type === undefined) return display(params[key]);
  const forms = cases(rest.join(","));
  if (type.trim() === "select") return format(forms[String(params[key])] ?? forms.other ?? "", params);
  if (type.trim() !== "plural") return `{${body}}`;
  const n = Number(params[key]);
  const chosen = forms[`=${n}`] ?? forms[plurals.select(n)] ?? forms.other ?? "";
  return format(chosen.replace(/#/g, formatNumber(n)), params);
}

export function format(text, params = {}) {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("{", i);
    if (open < 0) return out + text.slice(i);
    const end = closing(text, open);
    if (end < 0) return out + text.slice(i);
    out += text.slice(i, open) + argument(text.slice(open + 1, end), params);
    i = end + 1;
  }
  return out;
}

export function formatDate(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.toLocaleDateString(locale, {
    weekday: "long", year: "numeric", month: "long", day: "numeric", timeZone: "UTC",
  });
}

// A score with its sign: +85, −40, 0.
export function signed(n) {
  if (n > 0) return `+${formatNumber(n)}`;
  if (n < 0) return `−${formatNumber(-n)}`;
  return "0";
}
