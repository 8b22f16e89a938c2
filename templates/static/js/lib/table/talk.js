// Around the board at every table (docs/LOBBY.md): the seats' presence (away) and ratings, the
// fixed phrases as buttons and as they arrive on the table's stream, muting a seat's phrases, and
// a rated game's rating changes once it has finished. No free text: a phrase is one of five ids,
// translated here.

import { claimGame, muteSeat, sayPhrase } from "../api.js";
import { $, clear, h } from "../dom.js";
import { explain } from "../explain.js";
import { signed, t } from "../i18n.js";

export const PHRASES = ["hello", "well_played", "thanks", "oh_no", "another"];
const SHOWN = 6; // the newest phrases kept on the page

// tableId: the page's table; nameOf(seat): a seat's name; show(T): a table answered by the server.
export function createTalk(tableId, nameOf, show = () => {}) {
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

  // The others end the game as an away seat's forfeit (T.seats[n].claimable, docs/TABLES.md).
  async function claim(seat) {
    $("#talk-error").textContent = "";
    try {
      show(await claimGame(tableId, seat));
    } catch (e) {
      $("#talk-error").textContent = explain(e);
    }
  }

  // A rated game's away (or timed-out) seat: the missed turns left before the timer's rule
  // resigns it (T.seats[n].forfeit_after), for everyone to see.
  function countdown(seat, n) {
    const left = seat.forfeit_after;
    if (table.status !== "playing" || typeof left !== "number") return null;
    if (!seat.away && !(seat.timed_out > 0)) return null;
    return h("span", { class: "talk-countdown", dataset: { forfeitAfter: String(left), seat: String(n) },
      text: t("talk.forfeitAfter", { n: left }) });
  }

  // The forfeit was the others' claim against an away seat (T.result.claimed_by), not the timer's rule.
  const claimed = () => Boolean(table.result && table.result.claimed_by !== null && table.result.claimed_by !== undefined);

  function seatRow(seat, n) {
    const muted = (table.muted || []).includes(n);
    const other = table.seat !== null && n !== table.seat && seat.kind === "human" && seat.name;
    const forfeit = (table.forfeits || []).includes(n) ? "1" : "0";
    return h("li", { class: "talk-seat", dataset: { seat: String(n), away: seat.away ? "1" : "0", forfeit } },
      h("span", { class: "talk-name", text: nameOf(n) }),
      h("span", { class: "talk-rating", text: ratingText(seat) }),
      seat.away ? h("span", { class: "talk-away", text: t("lobby.away") }) : null,
      countdown(seat, n),
      other && seat.claimable && table.status === "playing" ? h("button", {
        type: "button", class: "button small talk-claim", dataset: { claim: String(n) },
        onclick: () => claim(n), text: t("talk.claim", { name: nameOf(n) }),
      }) : null,
      forfeit === "1" ? h("span", { class: "talk-forfeit", text: t(claimed() ? "talk.forfeitAway" : "talk.forfeit") }) : null,
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
