// From a selection to one F2 move: every action opens a confirmation panel that shows the move
// (and asks for the meld, the joker's end, set or run where needed); only "Bestätigen" sends it.
// At Tausende (its view has `opened`) lay-offs and joker swaps go on any seat's meld (R12.5,
// docs/TAUSENDE.md's `S.N`), and a discard that sends an unfinished opening back to the hand
// (R12.3) says so before it is confirmed.

import { face } from "../lib/cards.js";
import { $, clear, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { meldBox } from "./melds.js";
import { parseMove } from "./moves.js";
import { meldText, reading, spareJokers } from "./notation.js";

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

const OPENING = 30; // R12.3
const tausende = (view) => Array.isArray(view.opened);

// R12.3 (docs/TAUSENDE.md): a seat that has not opened and ends its turn (a discard, or `pass`
// with Q♠s only) with melds on the table takes them all back into its hand.
export const takesBack = (view) => tausende(view) && !view.opened[view.seat ?? 0]
  && view.melds[view.seat ?? 0].length > 0;

// The melds a lay-off or joker swap may go on: the player's own (their number N), at Tausende
// every seat's (R12.5: another seat's meld as "S.N"), the own first.
function targets(view) {
  const me = view.seat ?? 0;
  const n = view.melds.length;
  const seats = tausende(view) ? Array.from({ length: n }, (_, k) => (me + k) % n) : [me];
  return seats.flatMap((seat) => view.melds[seat].map((meld, i) => ({
    meld, n: i + 1, seat, value: seat === me ? String(i + 1) : `${seat}.${i + 1}`,
  })));
}

// The move about to be made, in words with its cards as cards (never the F2 notation); nameOf
// names the owner of another seat's meld (Tausende's "S.N").
export function preview(text, goingOut = false, nameOf = null) {
  const move = parseMove(text);
  const kind = move.kind === "discard" && goingOut ? "goOut" : move.kind;
  const owned = move.owner !== undefined && nameOf && (kind === "lay" || kind === "swap");
  const sentence = owned
    ? t(`confirm.move.${kind}On`, {
      meld: t(kind === "swap" ? "move.inMeldOf" : "move.toMeldOf", { n: move.meld, name: nameOf(move.owner) }),
      end: move.end || "none",
    })
    : t(`confirm.move.${kind}`, {
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
  switch (action) {
    case "take":
      // R12.3/R12.4: at Tausende (its view has `opened`) the pot is only for a seat that has opened
      if (Array.isArray(view.opened) && !view.opened[view.seat ?? 0]) return t("tausende.potClosed");
      if (view.discard.length === 0) return t("need.pileEmpty");
      return selected.length < 2 ? t("need.take2") : null;
    case "meld":
      return selected.length < 3 ? t("need.meld3") : null;
    case "lay":
      if (tausende(view) && !view.opened[view.seat ?? 0]) return t("err.not_opened");
      if (targets(view).length === 0) return t(tausende(view) ? "need.noMeldsTable" : "need.noMelds");
      return selected.length !== 1 ? t("need.one") : null;
    case "swap":
      if (tausende(view) && !view.opened[view.seat ?? 0]) return t("err.not_opened");
      if (!targets(view).some((m) => m.meld.cards.includes("X"))) {
        return t(tausende(view) ? "need.noJokerTable" : "need.noJoker");
      }
      if (selected.length !== 1) return t("need.one");
      return selected[0] === "X" ? t("need.swapNatural") : null;
    case "discard":
      return selected.length !== 1 ? t("need.one") : null;
    default:
      return null;
  }
}

// Build the panel's content for one action. Returns {title, body, move()} where move() reads
// the current choices. preset.meld: the meld chosen beforehand (its number, or Tausende's
// "S.N"); nameOf(seat) names another seat's meld.
export function prepare(action, view, selected, preset = {}, nameOf = null) {
  const me = view.seat ?? 0;
  const address = preset.meld ? String(preset.meld) : null;
  // "S.N" of the player's own meld is its number (docs/TAUSENDE.md records it so)
  const ownForm = address && address.startsWith(`${me}.`) ? address.slice(`${me}.`.length) : address;
  const choice = { kind: null, end: "high", meld: ownForm };
  const body = h("div", { class: "confirm-body" });
  const shown = h("p", { class: "preview", id: "confirm-preview" });
  const last = view.hand.length === 1;
  const own = view.melds[me];
  const all = targets(view);
  const chosenMeld = () => (all.find((o) => o.value === choice.meld) || {}).meld;
  let move = () => action;

  const meldChoices = (filter) => {
    const options = all.filter(({ meld }) => filter(meld));
    if (!choice.meld || !options.some((o) => o.value === choice.meld)) {
      choice.meld = options.length ? options[0].value : null;
    }
    return radios("meld", t("confirm.whichMeld"), options.map((o) => ({
      value: o.value,
      content: h("span", { class: "meld-option", dataset: { owner: String(o.seat) } },
        o.seat === me ? h("kbd", { text: o.value }) : null,
        t("confirm.meldNo", { n: o.n }),
        o.seat === me || !nameOf ? null : ` · ${t("tausende.owner", { name: nameOf(o.seat) })}`,
        meldBox(o.meld, o.n)),
    })), choice.meld, (v) => { choice.meld = v; rebuild(); });
  };

  // R12.3: the melds of an unfinished opening go back to the hand when the turn ends.
  const takeBack = () => (takesBack(view) ? h("p", {
    class: "warning", id: "take-back-warning", dataset: { warning: "take-back" },
    text: t("tausende.takeBackWarning", { n: view.turn_points, goal: OPENING, melds: own.length }),
  }) : null);

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
        const meld = chosenMeld();
        const end = card === "X" && meld && meld.kind === "run" ? ` ${choice.end}` : "";
        return `lay ${card} ${choice.meld}${end}`;
      };
      extra = () => {
        const parts = [meldChoices(() => true)];
        const meld = chosenMeld();
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
      extra = () => [h("p", { text: last ? t("confirm.goOut") : t("confirm.discardText") }), takeBack()]
        .filter(Boolean);
      break;
    }
    case "pass":
      move = () => "pass";
      extra = () => [takeBack()].filter(Boolean);
      break;
    case "resign":
      move = () => "resign";
      extra = () => [h("p", { text: t("confirm.resignText") })];
      break;
    default:
      break;
  }

  function update() {
    clear(shown).append(...preview(move(), last, nameOf).filter(Boolean));
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
