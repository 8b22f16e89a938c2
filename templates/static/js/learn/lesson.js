// A guided first round (service/pages/learn.py): the server sends every step with the engine's
// position before it; the page shows it, highlights the cards and the button of the step, and
// goes on only when the learner makes exactly that move. A wrong try is explained and can be
// tried again. The page plays no rule itself: what it shows next is the engine's next position.

import { back, face, sortCards } from "../lib/cards.js";
import { $, $$, clear, h } from "../lib/dom.js";
import { signed, t } from "../lib/i18n.js";
import { load, save } from "../lib/store.js";

const lesson = JSON.parse($("#lesson").textContent);
const game = lesson.game;
let index = 0;
let selected = [];

// The learner's try as the script writes it: the action, the selected cards in canonical order,
// the clicked meld. Some actions use no card (drawing; the lesson names them), so a selection does
// not count there.
function tryKey(action, cards, target) {
  const cardless = lesson.cardless.includes(action);
  const parts = [action, ...(cardless ? [] : sortCards(cards, "suit"))];
  if (target) parts.push(target);
  return parts.join(" ");
}

function expectedKey(step) {
  return tryKey(step.action, step.cards, step.target);
}

function ruleLink(step) {
  const link = $("#learn-rule-link");
  link.href = `${lesson.rules}#${step.anchor}`;
  link.textContent = t("learn.ruleLink", { rule: step.rule });
}

function cardButton(code, step) {
  const on = selected.includes(code);
  const hinted = step && step.cards.includes(code);
  const button = h("button", {
    type: "button",
    class: `hand-card learn-card${on ? " selected" : ""}${hinted ? " learn-hint" : ""}`,
    "aria-pressed": on ? "true" : "false",
    dataset: { card: code },
    onclick: () => {
      selected = on ? selected.filter((c) => c !== code) : [...selected, code];
      $("#learn-feedback").textContent = "";
      render();
    },
  }, face(code));
  return button;
}

function meldItem(meld, step) {
  const target = `${meld.seat}.${meld.number}`;
  const owner = meld.seat === 0 ? t("learn.yours") : t("learn.theirs");
  const cards = h("span", { class: "learn-row" }, meld.cards.map((c) => face(c, { size: "small" })));
  const hinted = step && step.action === "lay" && step.target === target;
  const label = t("learn.layOn", { owner, n: meld.number });
  return h("li", { class: `learn-meld seat-${meld.seat}` },
    h("button", {
      type: "button",
      class: `learn-meld-button${hinted ? " learn-hint" : ""}`,
      dataset: { target },
      title: label,
      onclick: () => attempt("lay", target),
    }, h("span", { class: "learn-owner", text: owner }), h("span", { class: "sr", text: ` (${label})` }), cards));
}

function counters(scene) {
  const c = scene.counters || {};
  if (c.deadwood !== undefined && scene.hand.length === 10) return t("learn.deadwood", { n: c.deadwood });
  if (c.opened !== undefined) {
    return c.opened ? t("learn.opened") : t("learn.turnPoints", { n: c.turnPoints });
  }
  return "";
}

function showScene(scene, step) {
  const other = $("#learn-other");
  clear(other);
  if (scene.otherCards) other.append(...scene.otherCards.map((c) => face(c, { size: "small" })));
  else {
    other.append(...Array.from({ length: scene.other }, () => back({ size: "small" })));
  }
  other.append(h("span", { class: "hint-text", text: t("learn.cards", { n: scene.other }) }));

  const stock = $("#learn-stock");
  clear(stock);
  if (scene.stock) stock.append(back({ label: t("learn.stockSize", { n: scene.stock }) }));
  stock.append(h("span", { class: "hint-text", text: t("learn.cards", { n: scene.stock }) }));
  stock.classList.toggle("learn-hint", Boolean(step && step.action === "draw"));

  const pile = $("#learn-discard");
  clear(pile);
  pile.append(scene.discard ? face(scene.discard) : h("span", { class: "card empty-slot", "aria-hidden": "true" }));
  pile.append(h("span", { class: "hint-text", text: t("learn.cards", { n: scene.pile }) }));
  pile.classList.toggle("learn-hint", Boolean(step && step.action === "take"));

  $("#learn-counters").textContent = counters(scene);

  const melds = $("#learn-melds");
  clear(melds);
  if (scene.melds.length === 0) melds.append(h("li", { class: "hint-text", text: t("learn.noMelds") }));
  melds.append(...scene.melds.map((m) => meldItem(m, step)));

  const hand = $("#learn-hand");
  clear(hand);
  hand.append(...scene.hand.map((c) => cardButton(c, step)));
}

function showResult(scene) {
  const out = scene.outcome;
  if (!out) {
    $("#learn-result").textContent = "";
    return;
  }
  $("#learn-result").textContent = t("learn.result", { mine: signed(out.scores[0]), theirs: signed(out.scores[1]) });
}

function render() {
  const step = lesson.steps[index];
  const done = index >= lesson.steps.length;
  showScene(done ? lesson.end : step.scene, done ? null : step);
  $("#learn-done").hidden = !done;
  $("#learn-actions").hidden = done;
  $("#learn-rule").hidden = done;
  if (done) {
    $("#learn-progress").textContent = t("learn.finished");
    clear($("#learn-text"));
    showResult(lesson.end);
    return;
  }
  $("#learn-progress").textContent = t("learn.progress", { n: index + 1, total: lesson.steps.length });
  const text = $("#learn-text");
  clear(text);
  text.append(h("p", { text: t(step.text) }));
  ruleLink(step);
  for (const button of $$("#learn-actions button")) {
    const action = button.dataset.action;
    const mine = step.action !== "next";
    button.hidden = mine ? action === "next" : action !== "next";
    button.classList.toggle("learn-hint", action === step.action);
  }
}

function attempt(action, target = null) {
  const step = lesson.steps[index];
  if (!step) return;
  const feedback = $("#learn-feedback");
  const key = tryKey(action, selected, target);
  if (key === expectedKey(step)) {
    feedback.textContent = "";
    selected = [];
    index += 1;
    if (index >= lesson.steps.length) {
      const learned = load("learned", []);
      if (!learned.includes(game)) save("learned", [...learned, game]);
    }
    render();
    return;
  }
  const code = step.wrong[key];
  const why = code ? t(`learn.${game}.error.${code}`) : t("learn.wrong");
  feedback.textContent = `${why} ${t(`${step.text}Hint`)}`;
}

for (const button of $$("#learn-actions button")) {
  button.addEventListener("click", () => attempt(button.dataset.action));
}
$("#learn-again").addEventListener("click", () => {
  index = 0;
  selected = [];
  $("#learn-feedback").textContent = "";
  render();
});
render();
