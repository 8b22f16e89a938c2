// The player's settings of the pages: the deck's colours (four: ♠ black, ♥ red, ♦ blue,
// ♣ green), the cards' size, high contrast, the tone on the player's turn and the language.
// Remembered per device (localStorage, lib/store.js; the language in the server's "lang" cookie)
// and, when signed in, per account (GET/PUT /api/account/settings): a device that signs in takes
// the account's, a change made signed in goes to both. They are drawn as attributes of <html>
// (data-deck, data-size, data-contrast) that css/cards.css and css/site.css read.

import { accountSettings, saveAccountSettings } from "./api.js";
import { load, save } from "./store.js";

export const CHOICES = { deck: ["two", "four"], size: ["normal", "large", "larger"] };
const KEY = "settings";
// The tone on the player's turn (lib/table/notice.js reads it), per device, off by default.
export const SOUND_KEY = "notice.sound";
const LANG_COOKIE = "lang";
const YEAR = 365 * 24 * 3600;

const signedIn = () => Boolean(document.body && document.body.dataset.accountName);

// The settings as this device has them.
export function current() {
  const kept = load(KEY, {}) || {};
  return {
    deck: CHOICES.deck.includes(kept.deck) ? kept.deck : "two",
    size: CHOICES.size.includes(kept.size) ? kept.size : "normal",
    contrast: kept.contrast === true,
    sound: load(SOUND_KEY, false) === true,
    lang: document.documentElement.lang,
  };
}

// The look of the page from the settings.
export function apply(settings = current()) {
  const root = document.documentElement.dataset;
  root.deck = settings.deck;
  root.size = settings.size;
  root.contrast = settings.contrast ? "high" : "normal";
}

function keep(changes) {
  const kept = { ...(load(KEY, {}) || {}) };
  for (const name of ["deck", "size", "contrast"]) if (name in changes) kept[name] = changes[name];
  save(KEY, kept);
  if ("sound" in changes) save(SOUND_KEY, changes.sound === true);
  if ("lang" in changes) {
    document.cookie = `${LANG_COOKIE}=${changes.lang}; max-age=${YEAR}; path=/; samesite=lax`;
  }
}

// Change some settings on this device (and the account's, when signed in); answers whether
// the account took them (false when signed out or it failed: the device keeps them anyway).
export async function change(changes) {
  keep(changes);
  apply();
  if (!signedIn()) return false;
  try {
    await saveAccountSettings(changes);
    return true;
  } catch (e) {
    return false;
  }
}

// A signed-in page: the account's settings become the device's. A language chosen on this page
// (?lang=) is the player's newest choice and goes to the account instead.
export async function syncAccount() {
  if (!signedIn()) return;
  const chosen = new URLSearchParams(window.location.search).get("lang");
  let stored;
  try {
    stored = await accountSettings();
  } catch (e) {
    return;
  }
  const taken = {};
  for (const [name, value] of Object.entries(stored)) {
    if (value !== null && !(name === "lang" && chosen)) taken[name] = value;
  }
  keep(taken);
  apply();
  if (chosen && chosen === document.documentElement.lang && stored.lang !== chosen) {
    saveAccountSettings({ lang: chosen }).catch(() => {});
  }
}
