// The toy game's table page (tests/toygame): the shared table shell (waiting room, invite,
// countdown, standings, talk) around a hand of five cards, "draw" or "take", then a discard.
// Imports the house's scripts by their absolute URLs: its own folder is served apart.

import { ApiError, sendTableMove, table as fetchTable } from "/static/js/lib/api.js";
import { $, clear, h } from "/static/js/lib/dom.js";
import { explain } from "/static/js/lib/explain.js";
import { t } from "/static/js/lib/i18n.js";
import { createShell } from "/static/js/lib/table/shell.js";
import { forfeitText } from "/static/js/lib/table/summary.js";

const tableId = document.body.dataset.table;
const say = (text) => { $("#message").textContent = text; };

function nameOf(seat) {
  const s = state.table.seats[seat];
  if (s.kind === "bot") return t("tables.botSeat", { level: t(`level.${s.level}`) });
  return s.name || t("tables.openSeat");
}

const shell = createShell(tableId, { nameOf, say, show: (T) => absorb(T) });
const { state, me, enqueue } = shell;

function absorb(T) {
  shell.keep(T);
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.status = state.table.status;
  render();
}

function render() {
  const T = state.table;
  const waiting = T.status === "waiting";
  $("#waiting").hidden = !waiting;
  $("#table").hidden = waiting;
  if (waiting) {
    shell.renderWaiting({ seatText: nameOf, startNote: "tables.startNote" });
    return;
  }
  const view = T.view;
  const mine = view !== null && T.status === "playing" && T.turn === me();
  $("#top").textContent = view?.top ?? "";
  $("#stock").textContent = view ? String(view.stock) : "";
  $("#draw").disabled = !(mine && view.phase === "draw");
  $("#take").disabled = !(mine && view.phase === "draw");
  clear($("#hand")).append(...(view ? view.hand : []).map((card) => h("button", {
    type: "button", class: "button", dataset: { card }, text: card,
    "aria-label": t("threes.discard", { card }),
    disabled: !(mine && view.phase === "discard" && card !== view.taken),
    onclick: () => send(`discard ${card}`),
  })));
  if (mine) say(t("threes.yourTurn"));
  shell.renderResign();
  shell.renderCountdown();
  const box = $("#standings");
  box.hidden = T.status !== "finished";
  if (!box.hidden && T.result) {
    const { winner } = T.result;
    $("#standings-outcome").textContent = forfeitText(T.result, nameOf)
      ?? (winner === null ? t("threes.wall") : t("tables.winner", { name: nameOf(winner) }));
  }
}

async function send(move) {
  try {
    const result = await sendTableMove(tableId, move, state.seq);
    await enqueue(() => absorb(result.table));
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    say(explain(e));
    if (e.code === "stale") await enqueue(async () => absorb(await fetchTable(tableId)));
  }
}

async function main() {
  shell.wire({ errorBox: "#end-error" });
  $("#draw").addEventListener("click", () => send("draw"));
  $("#take").addEventListener("click", () => send("take"));
  if (!(await shell.load())) return;
  absorb(state.table);
  shell.follow((message) => absorb(message.table));
}

main();
