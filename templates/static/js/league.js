// One league: its invite code, its daily board (matchpoints in the whole field) and its
// all-time board (average of the best 20 of the last 30 days); join or leave.

import { joinLeague, league, leaveLeague } from "./lib/api.js";
import { $, clear, h } from "./lib/dom.js";
import { explain } from "./lib/explain.js";
import { formatNumber, signed, t } from "./lib/i18n.js";

const percent = (p) => (p === null ? "–" : `${formatNumber(p)} %`);

function rows(body, entries, cells) {
  clear(body).append(...entries.map((e) => h("tr", {}, ...cells(e).map((c) => h("td", { text: c })))));
  if (!entries.length) body.append(h("tr", {}, h("td", { colspan: 4, text: t("leagues.empty") })));
}

async function show(code) {
  const doc = await league(code);
  $("#league-title").textContent = doc.league.name;
  $("#league-invite").textContent = t("leagues.invite", { code: doc.league.code });
  $("#league-members").textContent = `${t("leagues.members")}: ${doc.league.members}`;
  rows($("#league-day"), doc.day.entries,
    (e) => [String(e.rank), e.name, signed(e.score), percent(e.percentage)]);
  rows($("#league-all"), doc.all_time.entries,
    (e) => [String(e.rank), e.name, percent(e.average), String(e.days)]);
  $("#league-join").hidden = doc.league.member;
  $("#league-leave").hidden = !doc.league.member;
}

async function main() {
  const code = document.body.dataset.code;
  const act = (action) => async () => {
    try {
      await action(code);
      await show(code);
    } catch (e) {
      $("#league-error").textContent = explain(e);
    }
  };
  $("#league-join").onclick = act(joinLeague);
  $("#league-leave").onclick = act(leaveLeague);
  try {
    await show(code);
  } catch (e) {
    $("#league-error").textContent = explain(e);
  }
  document.body.dataset.ready = "1";
}

main();
