// The "Spielen" page's table form: a table's game, seats (human for a friend or a bot with its
// level), house rules (R9), public or private, rated or casual; creating it leads to the waiting
// room with the invite. The lobby and the quick match above it are tables/lobby.js.

import { createTable } from "../lib/api.js";
import { submissions } from "../lib/once.js";
import { $, $$ } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { playerName, save } from "../lib/store.js";

const form = $("#new-table");

const game = () => form.querySelector("input[name=game]:checked").value;
// Gin Rommé is a duel (GIN.md G2): two seats, its own bot levels, no Pik Dame house rules.
const isGin = () => game() === "gin";
const players = () => (isGin() ? 2 : Number(form.querySelector("input[name=players]:checked").value));

// Seats beyond the chosen count are hidden; a human seat has no level. Tausende (R12) has its
// R12.8 options and no hand-out doubling (R12.7).
function refresh() {
  const tausende = game() === "tausende";
  $("#tausende-options").hidden = !tausende;
  const n = players();
  for (const row of $$(".seat-spec")) {
    const seat = Number(row.dataset.seat);
    row.hidden = seat >= n;
    const bot = row.querySelector(".seat-kind")?.value === "bot";
    const level = row.querySelector(".seat-level");
    if (level) level.hidden = !bot || isGin();
    const ginLevel = row.querySelector(".gin-level");
    if (ginLevel) ginLevel.hidden = !bot || !isGin();
  }
  for (const el of $$(".pikdame-only")) el.hidden = isGin();
  $("#hand-out-double-option").hidden = tausende || isGin();
  $("#lead-pikdame").hidden = isGin();
  $("#lead-gin").hidden = !isGin();
  const rated = $("#table-rated").checked;
  $("#hints-allowed").disabled = rated;
  if (rated && $("#turn-timer").value === "0") $("#turn-timer").value = "60";
  $('#turn-timer option[value="0"]').disabled = rated;
}

export function tableSpec() {
  const seats = [{ kind: "human" }];
  for (let seat = 1; seat < players(); seat += 1) {
    const kind = $(`#kind-${seat}`).value;
    const level = isGin() ? $(`#gin-level-${seat}`).value : $(`#level-${seat}`).value;
    seats.push(kind === "bot" ? { kind, level } : { kind });
  }
  const timer = Number($("#turn-timer").value);
  const rules = { turn_timer: timer || null };
  if (!isGin()) rules.strict_1000 = $("#strict-1000").checked; // no Pik Dame house rules in Gin
  if (!isGin()) rules.hints = $("#hints-allowed").checked; // Gin shows its exact deadwood instead
  if (game() === "tausende") {
    for (const box of $$("[data-tausende-option]")) rules[box.name] = box.checked;
  } else if (!isGin()) {
    rules.hand_out_double = $("#hand-out-double").checked;
  }
  const spec = { game: game(), name: $("#name").value.trim(), seats, rules };
  // docs/LOBBY.md: public tables show in the lobby; rated ones are timed and have no hints.
  if ($("#table-public").checked) spec.public = true;
  if ($("#table-rated").checked) {
    spec.rated = true;
    if (!isGin()) rules.hints = false;
  }
  return spec;
}

const createOnce = submissions(); // one Idempotency-Key per submission, kept for its retries

async function submit(e) {
  e.preventDefault();
  const button = $("#create-button");
  const spec = tableSpec();
  $("#create-error").textContent = "";
  button.disabled = true;
  try {
    const made = await createOnce(spec, (key) => createTable(spec, key));
    save("name", spec.name);
    window.location.assign(`/tables/${made.table.id}`);
  } catch (err) {
    $("#create-error").textContent = explain(err);
    button.disabled = false;
  }
}

$("#name").value = playerName();
// Choosing Gin offers the computer as the opponent first (the seed page's duel); a friend is a
// choice away.
for (const radio of form.querySelectorAll("input[name=game]")) {
  radio.addEventListener("change", () => {
    if (isGin() && !$("#kind-1").dataset.touched) $("#kind-1").value = "bot";
  });
}
$("#kind-1").addEventListener("change", () => { $("#kind-1").dataset.touched = "1"; });
form.addEventListener("change", refresh);
form.addEventListener("submit", submit);
refresh();
document.body.dataset.ready = "1";
