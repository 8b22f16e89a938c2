// Defending against a knock (G6): the knocker's melds, the defender's own groups and, for each
// free card that fits, where to lay it off; pre-selected with the exact best defence (the view's
// `suggestion`, once per knock) and changeable; the deadwood after it; nothing is sent before
// "Bestätigen". Against gin nothing may be laid off.

import { cardList, cardName, face } from "../lib/cards.js";
import { clear, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { deadwoodOf, defendText, fitsMeld, fittingLayoffs, orderLayoffs, parseGinMove, sortGin } from "./cards.js";
import { meldBox } from "./view.js";

// board: the board's parts (board.js), whose act(move) sends the defence. Returns {renderDefend}.
export function createGinDefence(board) {
  const { ui, el, nameOf, v, other, myTurn } = board;

  function renderDefend() {
    const view = v();
    const open = myTurn() && view.phase === "defend" && view.knock;
    el.defend.hidden = !open;
    if (!open) {
      ui.layoffs = null;
      clear(el.defend); // a past hand's cards do not stay behind, not even hidden
      return;
    }
    const suggestion = parseGinMove(view.suggestion || "defend");
    const key = `${view.hand_no}:${view.history.length}`;
    if (ui.defendKey !== key || ui.layoffs === null) {
      ui.defendKey = key; // pre-select the exact best defence once per knock
      ui.own = suggestion.groups;
      ui.layoffs = suggestion.layoffs;
    }
    const knock = view.knock;
    const gin = knock.deadwood === 0;
    const inOwn = ui.own.flat();
    const free = sortGin(view.hand.filter((c) => !inOwn.includes(c)));
    const laid = new Map(ui.layoffs);
    const left = free.filter((c) => !laid.has(c));
    const after = deadwoodOf(left);
    ui.defendAfter = after;
    const optionsOf = (c) => (gin ? [] : knock.melds.map((_, i) => i + 1)
      .filter((n) => laid.get(c) === n || fitsMeld(knock.melds, ui.layoffs, c, n)));
    const fitting = free.filter((c) => optionsOf(c).length);
    const rest = free.filter((c) => !optionsOf(c).length);
    const rows = fitting.map((c) => {
      const options = optionsOf(c);
      return h("li", { class: "gin-lay", dataset: { card: c } }, face(c, { size: "small" }),
        h("label", {}, h("span", { class: "sr", text: t("gin.defend.layLabel", { card: cardName(c) }) }),
            h("select", {
              dataset: { layoff: c },
              onchange: (e) => {
                const n = Number(e.target.value);
                const others = ui.layoffs.filter(([x]) => x !== c);
                ui.layoffs = fittingLayoffs(knock.melds, n ? [...others, [c, n]] : others);
                renderDefend();
                el.defend.querySelector(`select[data-layoff="${c}"]`)?.focus(); // redrawn: keep the place
              },
            }, h("option", { value: "0", text: t("gin.defend.keep") }),
            options.map((n) => h("option", { value: String(n), selected: laid.get(c) === n, text: t("gin.defend.onto", { n }) })))));
    });
    clear(el.defend).append(...[
      h("h2", { id: "gin-defend-title", text: t(gin ? "gin.defend.titleGin" : "gin.defend.title", { name: nameOf(other()) }) }),
      h("p", { text: t("gin.defend.knocker", { name: nameOf(other()), n: knock.deadwood }) }),
      h("div", { class: "meld-list" }, knock.melds.map((m, i) => meldBox(m, i + 1,
        orderLayoffs(knock.melds, ui.layoffs).filter(([, n]) => n === i + 1).map(([c]) => c)))),
      h("p", { text: t("gin.defend.own") }),
      h("div", { class: "meld-list" }, ui.own.length ? ui.own.map((m) => meldBox(m)) : h("span", { class: "empty", text: t("gin.defend.noMelds") })),
      rows.length ? h("ul", { class: "gin-lays" }, rows) : null,
      rest.length ? h("p", { class: "gin-nofit" }, t("gin.defend.noFitCards"), " ",
        cardList(rest, { className: "meld-cards" })) : null,
      h("p", { class: "gin-after", dataset: { after: String(after) }, text: t("gin.defend.after", { n: after }) }),
      h("p", { class: "hint-text", text: t("gin.defend.suggested") }),
      h("button", { type: "button", class: "button primary", id: "gin-defend-ok", disabled: ui.busy, onclick: () => defend() }, t("gin.defend.confirm")),
    ].filter(Boolean));
  }

  function defend() {
    const move = defendText(ui.own, orderLayoffs(v().knock.melds, ui.layoffs));
    board.act(move);
  }

  return { renderDefend };
}
