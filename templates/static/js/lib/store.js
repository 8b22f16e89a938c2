// What the browser remembers between page loads (never a card: only ids and settings).

const PREFIX = "pikdame.";

export function load(key, fallback = null) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch (e) {
    return fallback;
  }
}

export function save(key, value) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch (e) {
    // private mode or full storage: the page still works, it only forgets
  }
}

export function forget(key) {
  try {
    localStorage.removeItem(PREFIX + key);
  } catch (e) {
    // nothing to do
  }
}

// The name a form starts with: a signed-in account's own (service.pages.pages puts it on the page),
// else the last name this browser played under.
export function playerName() {
  return document.body.dataset.accountName || load("name", "");
}

// The day's attempt of the unmarked daily (game null), or of another daily game (one per player,
// day and game: docs/GIN_DAILY.md).
export const attemptKey = (date, game = null) => (game ? `attempt.${date}.${game}` : `attempt.${date}`);
