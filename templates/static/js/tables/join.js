// A friend's invite: their name, then the first open human seat; on to the waiting room.

import { joinTable } from "../lib/api.js";
import { $ } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { load, save } from "../lib/store.js";

const invite = document.body.dataset.invite;

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
    $("#join-error").textContent = explain(err);
    button.disabled = false;
  }
}

$("#name").value = load("name", "");
$("#join-form").addEventListener("submit", submit);
document.body.dataset.ready = "1";
