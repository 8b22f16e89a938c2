// The hands' results (G7, G2's match to 100): a hand that ended since the last render, with the
// groups the knock and the defence laid down, until the player closes it; and every finished
// hand with the running totals.

import { face } from "../lib/cards.js";
import { clear, h } from "../lib/dom.js";
import { signed, t } from "../lib/i18n.js";
import { parseGinMove } from "./cards.js";
import { meldBox } from "./view.js";

// board: the board's parts (board.js). Returns {renderResult, renderHands, noteEvents}.
export function createGinResults(board) {
  const { ui, el, nameOf, v, me, other } = board;

  function outcomeText(outcome) {
    const w = outcome.winner;
    const name = w === null ? "" : nameOf(w);
    const points = w === null ? 0 : outcome.scores[w];
    const mine = w === me();
    return t(`gin.end.${outcome.end}`, { name, n: points, you: mine ? "yes" : "no" })
      + (outcome.deadwood ? ` ${t("gin.end.deadwood", { you: outcome.deadwood[me()], other: outcome.deadwood[other()], name: nameOf(other()) })}` : "");
  }

  // The finished hands with the running totals (G2: the match to 100).
  function renderHands() {
    const view = v();
    let run = [0, 0];
    const rows = view.results.map((r, i) => {
      run = [run[0] + r.scores[0], run[1] + r.scores[1]];
      return h("tr", { dataset: { hand: String(i + 1) } },
        h("th", { scope: "row", text: String(i + 1) }),
        h("td", { text: t(`gin.endShort.${r.end}`) }),
        ...[me(), other()].map((s) => h("td", { class: "num" },
          r.scores[s] ? signed(r.scores[s]) : "–", " ", h("span", { class: "run", text: `(${run[s]})` }))));
    });
    clear(el.hands).append(
      h("h2", { id: "gin-hands-title", text: t("gin.hands") }),
      h("p", { class: "gin-totals", id: "gin-totals" },
        h("span", { dataset: { total: String(me()) }, text: t("gin.totalOf", { name: nameOf(me()), n: view.totals[me()] }) }), " · ",
        h("span", { dataset: { total: String(other()) }, text: t("gin.totalOf", { name: nameOf(other()), n: view.totals[other()] }) }),
        " ", h("span", { class: "hint-text", text: t("gin.target") })),
      rows.length ? h("table", { class: "scores gin-scores" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("gin.handNo") }), h("th", { scope: "col", text: t("gin.endTitle") }),
          h("th", { scope: "col", class: "num", text: nameOf(me()) }), h("th", { scope: "col", class: "num", text: nameOf(other()) }))),
        h("tbody", {}, rows)) : h("p", { class: "empty", text: t("gin.noHands") }));
  }

  // A hand that ended since the last render (or this page load): its result until dismissed.
  function renderResult() {
    const view = v();
    const n = view.results.length;
    if (ui.seenResults === null) ui.seenResults = n; // on load: the table shows earlier hands
    if (n > ui.seenResults) {
      ui.seenResults = n;
      const last = view.results[n - 1];
      clear(el.result).append(h("h2", { text: t("gin.handOver", { n }) }),
        h("p", { id: "gin-result-text", text: outcomeText(last) }),
        ...(["gin", "knock", "undercut"].includes(last.end) ? ui.ended : []).map((e) => declaredLine(e)),
        h("button", { type: "button", class: "button small", onclick: () => { el.result.hidden = true; } }, t("gin.continue")));
      el.result.hidden = false;
      ui.ended = []; // shown with its hand: never with a later one
    }
  }

  // A knock's or a defence's groups as laid down (the knock card stays face down for the other).
  function declaredLine(e) {
    const m = parseGinMove(e.move);
    const laid = m.layoffs.map(([c, n]) => h("span", { class: "gin-layoff" }, face(c, { size: "small" }), ` → ${n}`));
    return h("div", { class: "gin-declared", dataset: { seat: String(e.seat), kind: m.kind } },
      // the lay-offs' legend ("angelegt: Karte → Meldung") only where something was laid off
      h("p", { text: t(`gin.declared.${m.kind}${m.kind === "defend" && !laid.length ? ".plain" : ""}`,
        { name: nameOf(e.seat) }) }),
      h("div", { class: "meld-list" }, m.groups.map((g, i) => meldBox(g, m.kind === "knock" ? i + 1 : null)), laid,
        m.groups.length || laid.length ? null : h("span", { class: "empty", text: t("gin.defend.noMelds") })));
  }

  // Events of a move's answer or a stream message: keep the running hand's knock; a defence ends
  // its hand (G6), so the knock and the defence go with that hand's result (one answer may hold
  // the next hand's first turns too, a knock among them: that one is the next hand's).
  function noteEvents(events) {
    for (const e of events || []) {
      const kind = e.move.split(" ")[0]; // an empty defence is a bare "defend"
      if (kind === "knock") ui.declared = [e];
      else if (kind === "defend") {
        ui.ended = [...ui.declared.filter((d) => d.move.startsWith("knock ")), e];
        ui.declared = [];
      }
    }
  }

  return { renderResult, renderHands, noteEvents };
}
