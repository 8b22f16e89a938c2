// From a selection to one F2 move: every action opens a confirmation panel that shows the move
// (and asks for the meld, the joker's end, set or run where needed); only "Bestätigen" sends it.

import { face } from "../cards.js";
import { $, clear, h } from "../dom.js";
import { t } from "../i18n.js";
import { meldBox } from "../melds.js";
import { parseMove } from "../moves.js";
import { meldText, reading, spareJokers } from "../notation.js";

function radios(name, legend, options, chosen, onChange) {
  return h("fieldset", { class: "choice" },
    h("legend", { text: legend }),
    options.map((o) => h("label", { class: "choice-option" },
      h("input", {
        type: "radio", name, value: o.value, checked: o.value === chosen,
        onchange: () => onChange(o.value),
      }),
      o.content)));
}

function cardRow(codes) {
  return h("span", { class: "preview-cards" }, codes.map((c) => face(c, { size: "small" })));
}

// The move about to be made, in words with its cards as cards (never the F2 notation).
export function preview(text, goingOut = false) {
  const move = parseMove(text);
  const kind = move.kind === "discard" && goingOut ? "goOut" : move.kind;
  const sentence = t(`confirm.move.${kind}`, {
    n: move.meld ?? 0,
    kind: move.reading || (move.cards.length ? reading(move.cards) : ""),
    end: move.end || "none",
  });
  return [h("span", { class: "preview-move", text: sentence }),
    move.cards.length ? cardRow(move.cards) : null];
}

// Checks that need no server: the shape of the selection. Returns an explanation or null.
export function precheck(action, view, selected) {
  if (view.outcome) return t("need.over");
  if (view.turn !== (view.seat ?? 0)) return t("need.notYourTurn");
  const own = view.melds[view.seat ?? 0];
  switch (action) {
    case "take":
      // R12.3/R12.4: at Tausende (its view has `opened`) the pot is only for a seat that has opened
      if (Array.isArray(view.opened) && !view.opened[view.seat ?? 0]) return t("tausende.potClosed");
      if (view.discard.length === 0) return t("need.pileEmpty");
      return selected.length < 2 ? t("need.take2") : null;
    case "meld":
      return selected.length < 3 ? t("need.meld3") : null;
    case "lay":
      if (own.length === 0) return t("need.noMelds");
      return selected.length !== 1 ? t("need.one") : null;
    case "swap":
      if (!own.some((m) => m.cards.includes("X"))) return t("need.noJoker");
      if (selected.length !== 1) return t("need.one");
      return selected[0] === "X" ? t("need.swapNatural") : null;
    case "discard":
      return selected.length !== 1 ? t("need.one") : null;
    default:
      return null;
  }
}

// Build the panel's content for one action. Returns {title, body, move()} where move() reads
// the current choices.
export function prepare(action, view, selected, preset = {}) {
  const choice = { kind: null, end: "high", meld: preset.meld || null };
  const body = h("div", { class: "confirm-body" });
  const shown = h("p", { class: "preview", id: "confirm-preview" });
  const last = view.hand.length === 1;
  const own = view.melds[view.seat ?? 0];
  let move = () => action;

  const meldChoices = (filter) => {
    const options = own.map((m, i) => ({ meld: m, n: i + 1 })).filter(({ meld }) => filter(meld))
      .map(({ meld, n }) => ({ value: String(n), content: meldBox(meld, n) }));
    if (!choice.meld || !options.some((o) => o.value === String(choice.meld))) {
      choice.meld = options.length ? Number(options[0].value) : null;
    }
    return radios("meld", t("confirm.whichMeld"), options.map((o) => ({
      value: o.value,
      content: h("span", { class: "meld-option" },
        h("kbd", { text: o.value }), t("confirm.meldNo", { n: Number(o.value) }), o.content),
    })), String(choice.meld), (v) => { choice.meld = Number(v); rebuild(); });
  };

  const meldOptions = (codes) => {
    const parts = [];
    if (reading(codes) === "open") {
      choice.kind = choice.kind || "set";
      parts.push(radios("kind", t("confirm.setOrRun"), [
        { value: "set", content: t("meld.set") }, { value: "run", content: t("meld.run") },
      ], choice.kind, (v) => { choice.kind = v; rebuild(); }));
    }
    const asRun = (choice.kind || reading(codes)) === "run";
    if (asRun && spareJokers(codes) > 0) {
      parts.push(radios("end", t("confirm.jokerEnd"), [
        { value: "low", content: t("confirm.low") }, { value: "high", content: t("confirm.high") },
      ], choice.end, (v) => { choice.end = v; update(); }));
    }
    return parts;
  };

  let extra = () => [];
  switch (action) {
    case "draw":
      move = () => "draw";
      extra = () => [h("p", { text: t("confirm.drawText", { n: view.stock_size }) })];
      break;
    case "take": {
      const top = view.discard[view.discard.length - 1];
      const codes = [top, ...selected];
      move = () => `take ${meldText(codes, choice.kind, choice.end).text}`;
      extra = () => [
        h("p", { text: t("confirm.takeText", { rest: view.discard.length - 1 }) }),
        ...meldOptions(codes),
      ];
      break;
    }
    case "meld":
      move = () => `meld ${meldText(selected, choice.kind, choice.end).text}`;
      extra = () => meldOptions(selected);
      break;
    case "lay": {
      const card = selected[0];
      move = () => {
        const meld = own[choice.meld - 1];
        const end = card === "X" && meld && meld.kind === "run" ? ` ${choice.end}` : "";
        return `lay ${card} ${choice.meld}${end}`;
      };
      extra = () => {
        const parts = [meldChoices(() => true)];
        const meld = own[choice.meld - 1];
        if (card === "X" && meld && meld.kind === "run") {
          parts.push(radios("end", t("confirm.jokerEnd"), [
            { value: "low", content: t("confirm.low") }, { value: "high", content: t("confirm.high") },
          ], choice.end, (v) => { choice.end = v; update(); }));
        }
        return parts;
      };
      break;
    }
    case "swap": {
      const card = selected[0];
      move = () => `swap ${choice.meld} ${card}`;
      extra = () => [h("p", { text: t("confirm.swapText") }),
        meldChoices((m) => m.cards.includes("X"))];
      break;
    }
    case "discard": {
      const card = selected[0];
      move = () => `discard ${card}`;
      extra = () => [h("p", { text: last ? t("confirm.goOut") : t("confirm.discardText") })];
      break;
    }
    case "resign":
      move = () => "resign";
      extra = () => [h("p", { text: t("confirm.resignText") })];
      break;
    default:
      break;
  }

  function update() {
    clear(shown).append(...preview(move(), last).filter(Boolean));
  }

  function rebuild() {
    clear(body);
    body.append(...extra(), shown);
    update();
  }

  rebuild();
  return {
    title: t(`action.${action}`),
    body,
    move: () => move(),
    // keyboard: digits pick a meld in the lay/swap choice
    pickMeld: (digit) => {
      const input = body.querySelector(`input[name=meld][value="${digit}"]`);
      if (input) {
        input.checked = true;
        input.dispatchEvent(new Event("change"));
        document.getElementById("confirm-ok").focus();
      }
    },
  };
}

export function openPanel(panel, onConfirm, onCancel) {
  const root = $("#confirm");
  $("#confirm-title").textContent = panel.title;
  const slot = clear($("#confirm-slot"));
  slot.append(panel.body);
  root.hidden = false;
  const ok = $("#confirm-ok");
  const cancel = $("#confirm-cancel");
  ok.onclick = () => onConfirm(panel.move());
  cancel.onclick = () => onCancel();
  ok.focus();
}

export function closePanel() {
  $("#confirm").hidden = true;
  clear($("#confirm-slot"));
}
