// The page's strings (embedded by the server as a JSON data block) and a formatter.

const node = document.getElementById("strings");
const table = node ? JSON.parse(node.textContent) : {};

export const lang = document.documentElement.lang || "de";
export const locale = lang === "en" ? "en-GB" : "de-DE";

// t("key", {n: 3}) replaces {n} in the string; an unknown key shows itself.
export function t(key, params = {}) {
  const text = Object.prototype.hasOwnProperty.call(table, key) ? table[key] : key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(table, key);
}

export function formatDate(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.toLocaleDateString(locale, {
    weekday: "long", year: "numeric", month: "long", day: "numeric", timeZone: "UTC",
  });
}

export function formatNumber(n) {
  return Number(n).toLocaleString(locale);
}

// A score with its sign: +85, −40, 0.
export function signed(n) {
  if (n > 0) return `+${formatNumber(n)}`;
  if (n < 0) return `−${formatNumber(-n)}`;
  return "0";
}
