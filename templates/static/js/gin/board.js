// The Gin Rommé board (GIN.md), shared by the table page and the daily Gin page: the other
// seat, the stock and the pile, the own hand with its exact minimum deadwood (from the view,
// G9), the hand's moves, each hand's result with the running totals, and the actions as the
// seed page plays them: selecting a card only prepares; discarding and knocking/gin are
// confirmed separately (the knock dialog shows the declared groups and their deadwood); the
// defender's lay-offs come pre-selected with the best defence (the view's `suggestion`) and can
// be changed. Keys: ←/→ between hand cards, Enter/Space select, Escape clears; Z draw, A take,
// P pass, W discard, K knock. Nothing is undone once sent: a sent move has shown information.
//
// createGinBoard(root, {send(move): Promise, nameOf(seat)}) -> {render(view), say(text, kind),
// set busy, get selected}. Every card on it comes from the seat's view: never a hidden one.

import { back, cardName, face, short } from "../lib/cards.js";
import { $, clear, h } from "../lib/dom.js";
import { signed, t } from "../lib/i18n.js";
import {
  deadwoodOf, defendText, describeGinMove, fitsMeld, orderLayoffs, parseGinMove, sortGin,
} from "./cards.js";

const meldBox = (cards, n = null, extra = []) => h("span", { class: "meld", dataset: { meld: cards.join(" ") } },
  n === null ? null : h("span", { class: "meld-no", text: String(n) }),
  h("span", { class: "meld-cards" }, cards.map((c) => face(c, { size: "small" })), extra.map((c) => face(c, { size: "small" }))));

export function createGinBoard(root, { send, nameOf }) {
  const ui = {
    view: null, selected: null, focus: 0, busy: false, layoffs: null, defendKey: null, seenResults: null,
    declared: [], // the last knock and defence seen in events: the result shows what was laid down
    dialog: null,
  };

  // ---- the skeleton ------------------------------------------------------------------------
  const el = {
    other: h("section", { class: "gin-other", "aria-labelledby": "gin-other-title" }),
    stock: h("div", { class: "gin-stock" }),
    pile: h("div", { class: "gin-pile" }),
    upcard: h("div", { class: "gin-pile-actions actions" }),
    log: h("ol", { class: "gin-log", "aria-label": t("gin.log.title") }),
    deadwood: h("p", { class: "gin-deadwood", id: "gin-deadwood", "aria-live": "polite" }),
    hand: h("ul", {
      class: "hand gin-hand", id: "gin-hand", role: "listbox", "aria-label": t("gin.hand"),
      "aria-describedby": "gin-hand-help",
    }),
    selection: h("p", { class: "selection", id: "gin-selection", "aria-live": "polite" }),
    actions: h("div", { class: "actions", role: "toolbar", "aria-label": t("actions.label") }),
    defend: h("section", { class: "gin-defend", id: "gin-defend", "aria-labelledby": "gin-defend-title", hidden: true }),
    confirm: h("section", { class: "confirm", id: "gin-confirm", role: "dialog", "aria-labelledby": "gin-confirm-title", hidden: true }),
    message: h("p", { class: "message", id: "gin-message", role: "alert" }),
    result: h("section", { class: "gin-result", id: "gin-result", "aria-live": "polite", hidden: true }),
    hands: h("section", { class: "gin-hands", "aria-labelledby": "gin-hands-title" }),
    status: h("p", { class: "status", id: "gin-status", role: "status", "aria-live": "polite" }),
  };
  const button = (name, key, onclick) => h("button", {
    type: "button", class: "button action", dataset: { ginAction: name }, "aria-keyshortcuts": key, onclick,
  }, t(`gin.action.${name}`), " ", h("kbd", { text: key.toUpperCase() }));
  const buttons = {
    pass: button("pass", "p", () => act("pass")),
    take: button("take", "a", () => act("take")),
    draw: button("draw", "z", () => act("draw")),
    discard: button("discard", "w", () => discardSelected()),
    knock: button("knock", "k", () => openKnock()),
    clear: h("button", { type: "button", class: "button link", dataset: { ginAction: "clear" }, onclick: () => select(null) }, t("gin.action.clear")),
  };
  el.upcard.append(buttons.pass, buttons.take, buttons.draw);
  el.actions.append(buttons.discard, buttons.knock, buttons.clear);
  clear(root).append(
    el.status, el.result, el.other,
    h("div", { class: "gin-middle" }, el.stock, el.pile, el.upcard),
    h("details", { class: "gin-log-box" }, h("summary", { text: t("gin.log.title") }), el.log),
    el.defend, // before the hand: in a defence it is the thing to do
    h("section", { class: "me gin-me", "aria-labelledby": "gin-me-title" },
      h("h2", { id: "gin-me-title", text: t("gin.hand") }), el.deadwood, el.hand,
      h("p", { class: "hint-text", id: "gin-hand-help", text: t("gin.handHelp") }), el.selection, el.actions),
    el.confirm, el.message, el.hands,
  );

  const v = () => ui.view;
  const me = () => v().seat;
  const other = () => 1 - v().seat;
  const myTurn = () => Boolean(v()) && v().outcome === null && v().match_winner === null && v().turn === v().seat;
  const say = (text, kind = "info") => {
    el.message.textContent = text || "";
    el.message.dataset.kind = kind;
  };

  // The hand in the order of its melds (the view's exact arrangement), then the rest by suit.
  function handOrder() {
    const inMelds = v().melds.flat();
    const rest = sortGin(v().hand.filter((c) => !inMelds.includes(c)));
    return [...inMelds, ...rest];
  }

  // ---- rendering ---------------------------------------------------------------------------
  function renderOther() {
    const view = v();
    const name = nameOf(other());
    const took = view.took[other()];
    const cards = view.revealed
      ? h("span", { class: "meld-cards gin-revealed" }, sortGin(view.revealed).map((c) => face(c, { size: "small" })))
      : h("span", { class: "mini-hand", role: "img", "aria-label": t("gin.otherCards", { n: view.other_size }) },
        back({ size: "small" }), back({ size: "small" }), back({ size: "small" }));
    // h() skips null children (Element.append would write "null")
    clear(el.other).append(
      h("h2", { id: "gin-other-title" }, name,
        view.dealer === other() ? h("span", { class: "flag", text: t("gin.dealer") }) : null,
        view.turn === other() && !view.outcome ? h("span", { class: "turn-flag", text: t("gin.toMove") }) : null),
      h("p", { class: "hand-size" }, cards, view.revealed ? null : h("span", { text: t("gin.otherCards", { n: view.other_size }) })));
    if (took.length) {
      el.other.append(h("p", { class: "gin-took" }, t("gin.took", { name }), " ",
        h("span", { class: "meld-cards" }, took.map((c) => face(c, { size: "small" })))));
    }
  }

  function renderPiles() {
    const view = v();
    clear(el.stock).append(h("h2", { text: t("gin.stock") }),
      h("p", { class: "stock" }, back({ size: "small", label: t("gin.stockCards", { n: view.stock_size }) }),
        h("span", { dataset: { stockSize: String(view.stock_size) }, text: String(view.stock_size) })));
    const top = view.discard[view.discard.length - 1];
    const pileKey = `${view.hand_no}:${view.discard.length}:${top || ""}`;
    if (el.pile.dataset.key !== pileKey) { // redrawn when it changed: the card lands once
      el.pile.dataset.key = pileKey;
      clear(el.pile).append(h("h2", { text: t("gin.pile", { n: view.discard.length }) }),
        h("p", { class: "discard-top", id: "gin-pile-top" }, top ? face(top) : h("span", { class: "empty", text: t("gin.pileEmpty") })));
    }
    const mine = myTurn() && !ui.busy;
    buttons.pass.hidden = !(view.phase === "upcard");
    buttons.draw.hidden = view.phase === "upcard";
    buttons.take.hidden = !(view.phase === "upcard" || view.phase === "draw");
    buttons.draw.hidden = buttons.draw.hidden || view.phase !== "draw";
    buttons.pass.disabled = !mine;
    buttons.draw.disabled = !mine;
    buttons.take.disabled = !(mine && view.can_take);
    el.upcard.hidden = !(view.phase === "upcard" || view.phase === "draw");
  }

  function renderLog() {
    const view = v();
    // a move the turn timer made (R9) says so: "Zeit abgelaufen"
    const lines = view.history.slice(-12).map((e) => h("li", { class: e.timer ? "timer" : "", dataset: e.timer ? { timer: "1" } : {} },
      e.timer ? h("span", { class: "timer-mark", text: `${t("move.timer")}: ` }) : null,
      describeGinMove(e.move, nameOf(e.seat), e.seat === me())));
    clear(el.log).append(...(lines.length ? lines : [h("li", { class: "empty", text: t("gin.log.none") })]));
  }

  function cardItem(code, i, meldIndex) {
    const selected = ui.selected === code;
    return h("li", {
      role: "option", class: `hand-card${selected ? " selected" : ""}${meldIndex !== null ? ` in-meld meld-${meldIndex % 4}` : ""}${v().taken === code ? " taken" : ""}`,
      tabindex: i === ui.focus ? "0" : "-1", "aria-selected": String(selected),
      dataset: { card: code, index: String(i) },
      "aria-label": meldIndex !== null ? t("gin.cardInMeld", { card: cardName(code), n: meldIndex + 1 }) : cardName(code),
      onclick: () => { ui.focus = i; select(ui.selected === code ? null : code); },
    }, face(code));
  }

  function renderHand() {
    const view = v();
    const order = handOrder();
    ui.focus = Math.max(0, Math.min(ui.focus, order.length - 1));
    if (ui.selected && !order.includes(ui.selected)) ui.selected = null;
    const meldOf = (c) => view.melds.findIndex((m) => m.includes(c));
    const hadFocus = el.hand.contains(document.activeElement);
    clear(el.hand).append(...order.map((c, i) => cardItem(c, i, meldOf(c) >= 0 ? meldOf(c) : null)));
    if (hadFocus) focusCard();
    el.deadwood.dataset.deadwood = String(view.deadwood);
    clear(el.deadwood).append(t("gin.deadwood", { n: view.deadwood }));
    if (view.melds.length) el.deadwood.append(" ", h("span", { class: "hint-text", text: t("gin.melds", { n: view.melds.length }) }));
  }

  function renderSelection() {
    const view = v();
    const card = ui.selected;
    const option = card && view.discards ? view.discards[card] : null;
    const discarding = myTurn() && view.phase === "discard" && !ui.busy;
    if (!card) {
      el.selection.textContent = discarding ? t("gin.selectToDiscard") : "";
    } else if (discarding && !option) {
      el.selection.textContent = t("gin.takenStays", { card: short(card) });
    } else if (option) {
      el.selection.textContent = t("gin.afterDiscard", { card: short(card), n: option.deadwood });
      el.selection.dataset.after = String(option.deadwood);
    } else {
      el.selection.textContent = t("gin.prepared", { card: short(card) });
    }
    el.actions.hidden = view.phase !== "discard" || !myTurn();
    buttons.discard.disabled = !(discarding && option);
    buttons.knock.disabled = !(discarding && option && option.deadwood <= 10);
    const gin = option && option.deadwood === 0;
    buttons.knock.firstChild.textContent = t(gin ? "gin.action.gin" : "gin.action.knock");
    buttons.clear.hidden = !card;
  }

  function statusText() {
    const view = v();
    if (view.match_winner !== null && view.match_winner !== undefined) {
      return view.match_winner === me() ? t("gin.status.won") : t("gin.status.lost", { name: nameOf(other()) });
    }
    if (!myTurn()) {
      if (view.phase === "defend") return t("gin.status.otherDefends", { name: nameOf(other()) });
      return t("gin.status.other", { name: nameOf(other()) });
    }
    if (view.phase === "upcard") return t("gin.status.upcard");
    if (view.phase === "draw") return t(view.can_take ? "gin.status.draw" : "gin.status.drawOnly");
    if (view.phase === "defend") return t(view.knock && view.knock.deadwood === 0 ? "gin.status.defendGin" : "gin.status.defend", { name: nameOf(other()) });
    return t("gin.status.discard");
  }

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
        ...(["gin", "knock", "undercut"].includes(last.end) ? ui.declared : []).map((e) => declaredLine(e)),
        h("button", { type: "button", class: "button small", onclick: () => { el.result.hidden = true; } }, t("gin.continue")));
      el.result.hidden = false;
      ui.declared = []; // shown with its hand: never with a later one
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

  // Events of a move's answer or a stream message: keep the hand's last knock and defence.
  function noteEvents(events) {
    for (const e of events || []) {
      const kind = e.move.split(" ")[0]; // an empty defence is a bare "defend"
      if (kind === "knock") ui.declared = [e];
      else if (kind === "defend") ui.declared = [...ui.declared.filter((d) => d.move.startsWith("knock ")), e];
    }
  }

  // ---- defending (G6) ----------------------------------------------------------------------
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
                ui.layoffs = ui.layoffs.filter(([x]) => x !== c);
                if (n) ui.layoffs.push([c, n]);
                renderDefend();
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
        h("span", { class: "meld-cards" }, rest.map((c) => face(c, { size: "small" })))) : null,
      h("p", { class: "gin-after", dataset: { after: String(after) }, text: t("gin.defend.after", { n: after }) }),
      h("p", { class: "hint-text", text: t("gin.defend.suggested") }),
      h("button", { type: "button", class: "button primary", id: "gin-defend-ok", disabled: ui.busy, onclick: () => defend() }, t("gin.defend.confirm")),
    ].filter(Boolean));
  }

  function defend() {
    const move = defendText(ui.own, orderLayoffs(v().knock.melds, ui.layoffs));
    act(move);
  }

  // ---- actions -----------------------------------------------------------------------------
  function select(card) {
    ui.selected = card;
    say("");
    renderHand();
    renderSelection();
  }

  function discardSelected() {
    const option = ui.selected && v().discards ? v().discards[ui.selected] : null;
    if (!myTurn() || v().phase !== "discard" || !option) return;
    act(`discard ${ui.selected}`);
  }

  // The knock dialog: the groups that will be declared (the exact best arrangement of the ten
  // cards left) and their deadwood; nothing is sent before "Klopfen bestätigen".
  function openKnock() {
    const card = ui.selected;
    const option = card && v().discards ? v().discards[card] : null;
    if (!myTurn() || v().phase !== "discard" || !option || option.deadwood > 10) return;
    const gin = option.deadwood === 0;
    const inMelds = option.melds.flat();
    const left = sortGin(v().hand.filter((c) => c !== card && !inMelds.includes(c)));
    const move = `knock ${card} ${option.melds.map((m) => m.join(" ")).join(" | ")}`.trim();
    ui.dialog = move;
    clear(el.confirm).append(
      h("h3", { id: "gin-confirm-title", text: t(gin ? "gin.knock.titleGin" : "gin.knock.title") }),
      h("p", {}, t("gin.knock.card"), " ", face(card, { size: "small" })),
      h("p", { text: t("gin.knock.groups", { n: option.melds.length }) }),
      h("div", { class: "meld-list" }, option.melds.map((m, i) => meldBox(m, i + 1))),
      h("p", {}, t("gin.knock.deadwoodCards"), " ", left.length
        ? h("span", { class: "meld-cards" }, left.map((c) => face(c, { size: "small" }))) : t("gin.knock.none")),
      h("p", { class: "gin-knock-deadwood", dataset: { deadwood: String(option.deadwood) }, text: t("gin.knock.deadwood", { n: option.deadwood }) }),
      h("div", { class: "confirm-buttons" },
        h("button", { type: "button", class: "button primary", id: "gin-confirm-ok", onclick: () => { closeDialog(); act(move); } },
          t(gin ? "gin.knock.confirmGin" : "gin.knock.confirm")),
        h("button", { type: "button", class: "button", id: "gin-confirm-cancel", onclick: () => closeDialog(true) },
          t("confirm.cancel"), " ", h("kbd", { text: "Esc" }))));
    el.confirm.hidden = false;
    $("#gin-confirm-ok", el.confirm).focus();
  }

  function closeDialog(refocus = false) {
    ui.dialog = null;
    el.confirm.hidden = true;
    clear(el.confirm);
    if (refocus) focusCard();
  }

  async function act(move) {
    if (ui.busy || !myTurn()) return;
    say("");
    ui.busy = true;
    root.dataset.busy = "1";
    renderControls();
    try {
      await send(move);
      if (move.startsWith("discard") || move.startsWith("knock")) ui.selected = null;
    } finally {
      ui.busy = false;
      delete root.dataset.busy;
      if (v()) render(v());
    }
  }

  // ---- keys --------------------------------------------------------------------------------
  function focusCard() {
    const item = el.hand.children[ui.focus];
    if (!item) return;
    for (const li of el.hand.children) li.tabIndex = -1;
    item.tabIndex = 0;
    item.focus();
  }

  function onKey(e) {
    if (!v() || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (e.key === "Escape") {
      if (ui.dialog) closeDialog(true);
      else select(null);
      e.preventDefault();
      return;
    }
    if (ui.dialog) return;
    const inHand = el.hand.contains(target);
    const n = el.hand.children.length;
    if ((e.key === "ArrowRight" || e.key === "ArrowLeft") && (inHand || target === document.body)) {
      ui.focus = (ui.focus + (e.key === "ArrowRight" ? 1 : n - 1)) % n;
      focusCard();
      e.preventDefault();
      return;
    }
    if ((e.key === "Enter" || e.key === " ") && inHand) {
      const code = target.closest("[data-card]")?.dataset.card;
      if (code) select(ui.selected === code ? null : code);
      e.preventDefault();
      return;
    }
    const key = e.key.toLowerCase();
    const actions = { p: buttons.pass, a: buttons.take, z: buttons.draw, w: buttons.discard, k: buttons.knock };
    const b = actions[key];
    if (b && !b.hidden && !b.disabled && !(target && target.tagName === "BUTTON" && e.key === " ")) {
      b.click();
      e.preventDefault();
    }
  }
  document.addEventListener("keydown", onKey);

  function renderControls() {
    renderPiles();
    renderSelection();
    for (const b of $$buttons()) if (ui.busy) b.disabled = true;
    const ok = $("#gin-defend-ok", el.defend);
    if (ok) ok.disabled = ui.busy;
  }
  const $$buttons = () => [buttons.pass, buttons.take, buttons.draw, buttons.discard, buttons.knock];

  function render(view) {
    ui.view = view;
    root.classList.toggle("my-turn", myTurn());
    el.status.textContent = statusText();
    renderResult();
    renderOther();
    renderHand();
    renderLog();
    renderDefend();
    renderHands();
    renderControls();
    if (ui.dialog && !(myTurn() && view.phase === "discard")) closeDialog();
  }

  return {
    render,
    say,
    noteEvents,
    get busy() { return ui.busy; },
    get selected() { return ui.selected; },
  };
}
