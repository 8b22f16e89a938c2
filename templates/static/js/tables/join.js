// A friend's invite: which game, its house rules and who sits where (the server's preview of the
// invite's table), then their name and the first open human seat; on to the waiting room. A table
// no one can join any more comes from the server without the form, saying why.

import { joinTable } from "../lib/api.js";
import { $, h } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { t } from "../lib/i18n.js";
import { playerName, save } from "../lib/store.js";
import { gameOptions, rulesSummary, seatText } from "../lib/table/summary.js";

const invite = document.body.dataset.invite;
const CLOSED = ["table_full", "already_started", "already_seated"];

async function submit(e) {
  e.preventDefault();
  const name = $("#name").value.trim();
  const button = $("#join-button");
  $("#join-error").textContent = "";
  button.disabled = true;
  try {
    const joined = await joinTable(invite, name);
    save("name", name);
    window.location.assign(`/tables/${joined.table.id}`);
  } catch (err) {
    if (err.status === 409 && CLOSED.includes(err.code)) {
      window.location.reload(); // taken meanwhile: the server's page says why (or seats you)
      return;
    }
    $("#join-error").textContent = explain(err);
    button.disabled = false;
  }
}

// The invite's table before joining: game and rules, then the seats.
async function showPreview() {
  const node = $("#table-preview");
  if (!node) return;
  const preview = JSON.parse(node.textContent);
  const offered = await gameOptions(preview.game);
  $("#join-table").append(
    rulesSummary(preview.game, preview.rules, offered),
    h("h2", { text: t("tables.seats") }),
    h("ol", { class: "waiting-seats", id: "join-seats" }, preview.seats.map((s, seat) => h("li", {
      class: `waiting-seat${s.kind === "human" && !s.name ? " open" : ""}`, dataset: { seat: String(seat) },
    }, h("span", { class: "seat-no", text: String(seat + 1) }), h("span", { text: seatText(s) })))),
  );
}

if ($("#join-form")) {
  $("#name").value = playerName();
  $("#join-form").addEventListener("submit", submit);
}
showPreview().finally(() => { document.body.dataset.ready = "1"; });
