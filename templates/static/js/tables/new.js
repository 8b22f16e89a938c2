// The "Spielen" page: a table's game, seats (human for a friend or a bot with its level) and house
// rules (R9); creating it leads to the waiting room with the invite.

import { createTable } from "../lib/api.js";
import { $, $$ } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { load, save } from "../lib/store.js";

const form = $("#new-table");

const players = () => Number(form.querySelector("input[name=players]:checked").value);

const game = () => form.querySelector("input[name=game]:checked").value;

// Seats beyond the chosen count are hidden; a human seat has no level. Tausende (R12) has its
// R12.8 options and no hand-out doubling (R12.7).
function refresh() {
  const tausende = game() === "tausende";
  $("#tausende-options").hidden = !tausende;
  $("#hand-out-double-option").hidden = tausende;
  const n = players();
  for (const row of $$(".seat-spec")) {
    const seat = Number(row.dataset.seat);
    row.hidden = seat >= n;
    const level = row.querySelector(".seat-level");
    if (level) level.hidden = row.querySelector(".seat-kind").value !== "bot";
  }
}

export function tableSpec() {
  const seats = [{ kind: "human" }];
  for (let seat = 1; seat < players(); seat += 1) {
    const kind = $(`#kind-${seat}`).value;
    seats.push(kind === "bot" ? { kind, level: $(`#level-${seat}`).value } : { kind });
  }
  const timer = Number($("#turn-timer").value);
  const rules = { turn_timer: timer || null, strict_1000: $("#strict-1000").checked };
  if (game() === "tausende") {
    for (const box of $$("[data-tausende-option]")) rules[box.name] = box.checked;
  } else {
    rules.hand_out_double = $("#hand-out-double").checked;
  }
  return { game: game(), name: $("#name").value.trim(), seats, rules };
}

async function submit(e) {
  e.preventDefault();
  const button = $("#create-button");
  const spec = tableSpec();
  $("#create-error").textContent = "";
  button.disabled = true;
  try {
    const made = await createTable(spec);
    save("name", spec.name);
    window.location.assign(`/tables/${made.table.id}`);
  } catch (err) {
    $("#create-error").textContent = explain(err);
    button.disabled = false;
  }
}

$("#name").value = load("name", "");
form.addEventListener("change", refresh);
form.addEventListener("submit", submit);
refresh();
document.body.dataset.ready = "1";
