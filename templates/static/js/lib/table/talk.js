// Around the board at every table (docs/LOBBY.md): the seats' presence (away) and ratings, the
// fixed phrases as buttons and as they arrive on the table's stream, muting a seat's phrases, and
// a rated game's rating changes once it has finished. No free text: a phrase is one of five ids,
// translated here.

import { muteSeat, sayPhrase } from "../api.js";
import { $, clear, h } from "../dom.js";
import { explain } from "../explain.js";
import { signed, t } from "../i18n.js";

export const PHRASES = ["hello", "well_played", "thanks", "oh_no", "another"];
const SHOWN = 6; // the newest phrases kept on the page

// tableId: the page's table; nameOf(seat): a seat's name.
export function createTalk(tableId, nameOf) {
  const box = $("#talk");
  let table = null;
  const heard = [];

  function ratingText(seat) {
    if (seat.rating === null || seat.rating === undefined) return "";
    return seat.provisional ? t("talk.ratingProvisional", { r: seat.rating }) : t("talk.rating", { r: seat.rating });
  }

  async function toggleMute(seat, muted) {
    try {
      const answer = await muteSeat(tableId, seat, muted);
      table = { ...table, muted: answer.muted };
      render();
    } catch (e) {
      $("#talk-error").textContent = explain(e);
    }
  }

  function seatRow(seat, n) {
    const muted = (table.muted || []).includes(n);
    const other = table.seat !== null && n !== table.seat && seat.kind === "human" && seat.name;
    const forfeit = (table.forfeits || []).includes(n) ? "1" : "0";
    return h("li", { class: "talk-seat", dataset: { seat: String(n), away: seat.away ? "1" : "0", forfeit } },
      h("span", { class: "talk-name", text: nameOf(n) }),
      h("span", { class: "talk-rating", text: ratingText(seat) }),
      seat.away ? h("span", { class: "talk-away", text: t("lobby.away") }) : null,
      forfeit === "1" ? h("span", { class: "talk-forfeit", text: t("talk.forfeit") }) : null,
      other ? h("button", {
        type: "button", class: "button small talk-mute", "aria-pressed": muted ? "true" : "false",
        dataset: { seat: String(n) }, onclick: () => toggleMute(n, !muted),
        text: t(muted ? "talk.unmute" : "talk.mute", { name: nameOf(n) }),
      }) : null);
  }

  function changesList() {
    const changes = table.rating_changes;
    if (!changes || !changes.length) return null;
    return h("ul", { id: "rating-changes", class: "rating-changes" }, changes.map((c) => h("li", {
      dataset: { seat: String(c.seat), change: String(c.change) },
      text: t("talk.change", { name: c.name, before: c.before, after: c.after, change: signed(c.change) }),
    })));
  }

  function render() {
    if (!box || !table) return;
    box.hidden = table.status === "waiting";
    clear($("#talk-seats")).append(...table.seats.map(seatRow));
    const changes = changesList();
    clear($("#talk-changes")).append(...(changes ? [h("h3", { text: t("talk.changes") }), changes] : []));
    $("#talk-phrases").hidden = table.seat === null;
    clear($("#talk-heard")).append(...heard.map((p) => h("li", {
      class: "talk-heard", dataset: { seat: String(p.seat), phrase: p.phrase },
      text: t("talk.said", { name: nameOf(p.seat), phrase: t(`phrase.${p.phrase}`) }),
    })));
  }

  // After 429 phrase_too_soon: the phrase buttons rest, with the seconds left, until the next
  // phrase may go (the answer's retry_after_ms).
  function rest(ms) {
    const until = Date.now() + ms;
    const buttons = [...document.querySelectorAll(".talk-phrase")];
    const tick = () => {
      const left = Math.ceil((until - Date.now()) / 1000);
      buttons.forEach((b) => { b.disabled = left > 0; });
      $("#talk-error").textContent = left > 0 ? t("talk.wait", { s: left }) : "";
      if (left > 0) setTimeout(tick, 250);
    };
    tick();
  }

  async function say(phrase) {
    $("#talk-error").textContent = "";
    try {
      const answer = await sayPhrase(tableId, phrase);
      hear(answer.phrase);
    } catch (e) {
      if (e.code === "phrase_too_soon" && e.detail.retry_after_ms > 0) rest(e.detail.retry_after_ms);
      else $("#talk-error").textContent = explain(e);
    }
  }

  // A phrase from the stream or the own answer; numbered, so none is shown twice.
  function hear(p) {
    if (heard.some((q) => q.n === p.n)) return;
    heard.push(p);
    heard.sort((a, b) => a.n - b.n);
    while (heard.length > SHOWN) heard.shift();
    render();
  }

  if (box) {
    clear($("#talk-phrases")).append(...PHRASES.map((phrase) => h("button", {
      type: "button", class: "button small talk-phrase", dataset: { phrase },
      onclick: () => say(phrase), text: t(`phrase.${phrase}`),
    })));
  }

  return { update: (T) => { table = T; render(); }, hear };
}
