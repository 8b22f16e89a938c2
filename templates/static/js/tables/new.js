// The "Spielen" page's table form: a table's game, seats (human for a friend or a bot with its
// level), house rules (R9), public or private, rated or casual; creating it leads to the waiting
// room with the invite. The lobby and the quick match above it are tables/lobby.js.

import { createTable } from "../lib/api.js";
import { submissions } from "../lib/once.js";
import { $, $$ } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { t } from "../lib/i18n.js";
import { playerName, save } from "../lib/store.js";

const form = $("#new-table");
// Each offered game's declaration (its adapter's, service/games/adapter.py form_facts): seat
// counts, bot levels with their names, hints, house rules, lead text, rules link.
const forms = Object.fromEntries(JSON.parse($("#table-forms").textContent).map((f) => [f.game, f]));

const game = () => form.querySelector("input[name=game]:checked").value;
const facts = () => forms[game()];
// The chosen seat count, when the game has it; else its most seats (a duel: two).
function players() {
  const { seats } = facts();
  const chosen = Number(form.querySelector("input[name=players]:checked")?.value);
  return seats.includes(chosen) ? chosen : seats[seats.length - 1];
}
const offers = (key) => facts().options.some((option) => option.key === key);

// Each level select offers the chosen game's levels (its default selected, or the level chosen
// before when the game has it too).
function offerLevels() {
  const { levels, default_level: preset } = facts();
  for (const select of $$(".seat-level")) {
    const before = select.value;
    const keep = levels.some((l) => l.level === before) ? before : preset;
    select.replaceChildren(...levels.map((l) => new Option(t(l.text), l.level, false, l.level === keep)));
  }
}

// The form of the chosen game: its lead, seat counts (none to choose for a single one), levels,
// house rules, hints and rules link; seats beyond the chosen count are hidden, a human seat has
// no level.
function refresh() {
  const f = facts();
  $("#table-lead").textContent = t(f.lead);
  $("#players-choice").hidden = f.seats.length < 2;
  for (const radio of $$("input[name=players]")) {
    radio.closest("label").hidden = !f.seats.includes(Number(radio.value));
  }
  const n = players();
  for (const row of $$(".seat-spec")) {
    const seat = Number(row.dataset.seat);
    row.hidden = seat >= n;
    const bot = row.querySelector(".seat-kind")?.value === "bot";
    const level = row.querySelector(".seat-level");
    if (level) level.hidden = !bot;
  }
  for (const box of $$("[data-house-rule]")) box.closest("label").hidden = !offers(box.name);
  $("#hints-option").hidden = !f.hints;
  $("#game-rules").hidden = !f.rules;
  if (f.rules) {
    $("#game-rules-link").href = f.rules.href;
    $("#game-rules-link").textContent = t(f.rules.text);
  }
  const rated = $("#table-rated").checked;
  $("#hints-allowed").disabled = rated;
  if (rated && $("#turn-timer").value === "0") $("#turn-timer").value = "60";
  $('#turn-timer option[value="0"]').disabled = rated;
}

export function tableSpec() {
  const f = facts();
  const seats = [{ kind: "human" }];
  for (let seat = 1; seat < players(); seat += 1) {
    const kind = $(`#kind-${seat}`).value;
    const level = $(`#level-${seat}`).value;
    seats.push(kind === "bot" ? { kind, level } : { kind });
  }
  const timer = Number($("#turn-timer").value);
  const rules = { turn_timer: timer || null };
  // the game's house rules only (Gin offers none: it stores R9's keys off)
  for (const box of $$("[data-house-rule]")) if (offers(box.name)) rules[box.name] = box.checked;
  if (f.hints) rules.hints = $("#hints-allowed").checked; // Gin shows its exact deadwood instead
  const spec = { game: game(), name: $("#name").value.trim(), seats, rules };
  // docs/LOBBY.md: public tables show in the lobby; rated ones are timed and have no hints.
  if ($("#table-public").checked) spec.public = true;
  if ($("#table-rated").checked) {
    spec.rated = true;
    if (f.hints) rules.hints = false;
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
// A game that offers the computer as the opponent first (Gin: the seed page's duel) sets the
// second seat to a bot, unless the player chose its kind; a friend is a choice away.
for (const radio of form.querySelectorAll("input[name=game]")) {
  radio.addEventListener("change", () => {
    offerLevels();
    if (facts().versus_bot && !$("#kind-1").dataset.touched) $("#kind-1").value = "bot";
  });
}
$("#kind-1").addEventListener("change", () => { $("#kind-1").dataset.touched = "1"; });
form.addEventListener("change", refresh);
form.addEventListener("submit", submit);
offerLevels();
refresh();
document.body.dataset.ready = "1";
