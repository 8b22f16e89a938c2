// The settings page: the deck's colours, the cards' size, high contrast, the tone on the
// player's turn and the language (lib/settings.js keeps them on the device and, signed in, with
// the account); a preview of the four suits shows each change at once.

import { cardList } from "./lib/cards.js";
import { $, $$, clear } from "./lib/dom.js";
import { t } from "./lib/i18n.js";
import { change, current } from "./lib/settings.js";

const form = $("#settings-form");

function show() {
  const now = current();
  for (const input of $$("input[type=radio]", form)) {
    if (input.name !== "lang") input.checked = now[input.name] === input.value;
  }
  $("#setting-contrast").checked = now.contrast;
  $("#setting-sound").checked = now.sound;
  clear($("#settings-preview")).append(cardList(["QS", "AH", "TD", "7C", "X"], { size: "", label: t("settings.preview") }));
}

async function changed(event) {
  const input = event.target;
  const value = input.type === "checkbox" ? input.checked : input.value;
  const saved = await change({ [input.name]: value });
  if (input.name === "lang") {
    const url = new URL(window.location.href);
    url.searchParams.set("lang", value);
    window.location.assign(url.toString());
    return;
  }
  $("#settings-saved").textContent = t(saved ? "settings.savedAccount" : "settings.saved");
  show();
}

form.addEventListener("change", changed);
form.addEventListener("submit", (e) => e.preventDefault());
show();
document.body.dataset.ready = "1";
