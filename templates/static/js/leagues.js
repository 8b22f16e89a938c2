// Leagues: the caller's leagues, create one, join one by its invite code.

import { createLeague, joinLeague, myLeagues } from "./lib/api.js";
import { $, clear, h } from "./lib/dom.js";
import { explain } from "./lib/explain.js";
import { submissions } from "./lib/once.js";
import { t } from "./lib/i18n.js";

const leagueUrl = (code) => `/leagues/${encodeURIComponent(code)}`;

async function showMine() {
  const leagues = await myLeagues();
  clear($("#league-list")).append(...leagues.map((l) => h("li", {},
    h("a", { href: leagueUrl(l.code), text: l.name }), ` · ${t("leagues.members")}: ${l.members}`)));
  $("#league-none").hidden = leagues.length > 0;
}

function onSubmit(form, action) {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    $("#league-error").textContent = "";
    try {
      const league = await action();
      window.location.href = leagueUrl(league.code);
    } catch (err) {
      $("#league-error").textContent = explain(err);
    }
  });
}

async function main() {
  const creations = submissions(); // one Idempotency-Key per submission, kept for its retries
  onSubmit($("#create-form"), () => {
    const name = $("#league-name").value;
    return creations({ name }, (key) => createLeague(name, key));
  });
  onSubmit($("#join-form"), () => joinLeague($("#league-code").value.trim().toUpperCase()));
  try {
    await showMine();
  } catch (e) {
    $("#league-error").textContent = explain(e);
  }
  document.body.dataset.ready = "1";
}

main();
