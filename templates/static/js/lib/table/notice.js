// "Your turn", noticed (docs/TABLES.md "Your turn"): at every table, while it is the player's turn
// (a move, or the cut), the tab's title starts with "● Du bist dran" and the favicon carries a
// mark; both come back when the turn has passed. A short tone (WebAudio, off unless the player
// turns it on: remembered per device, and by a signed-in account, lib/settings.js) and, while the
// tab is hidden, a browser notification (only once the player allowed it: the page asks only
// after a finished table game, by a button under the standings, never on its own) say when the
// turn comes.

import { $, h } from "../dom.js";
import { t } from "../i18n.js";
import { change, SOUND_KEY } from "../settings.js";
import { load, save } from "../store.js";
import { gameName } from "./summary.js";

const PLAYED_KEY = "notice.finishedTable"; // this device has seen a finished table game
const TITLE_MARK = "● ";

// The site's spade with an orange dot: the favicon while it is the player's turn (an inline SVG:
// the CSP allows data: images, and no file is fetched). Written without percent-escapes and
// without "#": an escape such as "%3D" would read like a card's name (3♦) in the page's text.
const MARKED_ICON = "data:image/svg+xml;charset=utf-8,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'>"
  + "<rect width='32' height='32' rx='6' fill='rgb(15,81,50)'/>"
  + "<text x='14' y='24' font-size='22' text-anchor='middle' fill='white'>♠</text>"
  + "<circle cx='25' cy='7' r='6.5' fill='rgb(253,126,20)' stroke='white' stroke-width='1.5'/></svg>";

const notifications = () => typeof window.Notification === "function";

// A short two-note chime on the player's device (no audio file); quiet if audio is unavailable.
function createTone() {
  let audio = null;
  return {
    // Made (or resumed) on a click, so the browser lets it sound later without a gesture.
    unlock() {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      if (!audio) audio = new Context();
      if (audio.state === "suspended") audio.resume().catch(() => {});
    },
    play() {
      if (!audio || audio.state !== "running") return;
      const now = audio.currentTime;
      [[660, 0], [880, 0.12]].forEach(([frequency, at]) => {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.type = "sine";
        osc.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, now + at);
        gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.2);
        osc.connect(gain).connect(audio.destination);
        osc.start(now + at);
        osc.stop(now + at + 0.22);
      });
    },
  };
}

// tableId: the page's table (one notification per table replaces the last).
export function createNotice(tableId) {
  const base = { title: document.title, icon: null };
  const tone = createTone();
  const state = { mine: false, seen: false, controls: null };

  function iconLink() {
    return document.querySelector("link[rel~='icon']");
  }

  function mark(on) {
    document.title = on ? `${TITLE_MARK}${t("notice.yourTurn")} – ${base.title}` : base.title;
    document.body.dataset.yourTurn = on ? "1" : "0";
    const link = iconLink();
    if (!link) return;
    if (base.icon === null) base.icon = link.getAttribute("href");
    link.setAttribute("href", on ? MARKED_ICON : base.icon);
  }

  function notify(T) {
    if (!notifications() || window.Notification.permission !== "granted" || !document.hidden) return;
    try {
      const note = new window.Notification(t("notice.yourTurn"), {
        body: t("notice.body", { game: gameName(T.game) }), tag: `table.${tableId}`,
      });
      note.onclick = () => { window.focus(); note.close(); };
    } catch (e) {
      // a browser that only notifies from a service worker: the title and the icon still say it
    }
  }

  // ---- the controls: the tone's toggle and, after a finished table game, the opt-in ---------

  function soundButton() {
    const on = load(SOUND_KEY, false);
    return h("button", {
      type: "button", class: "link notice-sound", id: "notice-sound", "aria-pressed": String(on),
      "data-short": t(on ? "notice.soundShortOn" : "notice.soundShortOff"),
      onclick: () => {
        const now = !load(SOUND_KEY, false);
        change({ sound: now });
        if (now) {
          tone.unlock();
          tone.play();
        }
        render();
      },
    }, t(on ? "notice.soundOn" : "notice.soundOff"));
  }

  // Offered only where the browser has notifications, the player has not decided yet and this
  // device has seen a finished table game; the browser asks only on this click.
  function askButton() {
    if (!notifications() || window.Notification.permission !== "default" || !load(PLAYED_KEY, false)) {
      return null;
    }
    return h("span", { class: "notice-ask" },
      h("span", { class: "hint-text", text: t("notice.askText") }), " ",
      h("button", {
        type: "button", class: "button small", id: "notice-ask",
        onclick: async () => {
          try {
            await window.Notification.requestPermission();
          } catch (e) {
            // an old browser's callback form: nothing to do, the choice is read on the next draw
          }
          render();
        },
      }, t("notice.ask")));
  }

  // The tone's toggle in the table's head; the opt-in once, under the standings, where a
  // finished game leaves the player (in the head too it stood twice and crowded a phone).
  function render() {
    const head = $("#table .table-head");
    if (!head) return;
    if (!state.controls) {
      state.controls = h("p", { class: "notice-controls", id: "notice-controls" });
      head.append(state.controls);
    }
    state.controls.replaceChildren(soundButton());
    const standings = $("#standings");
    if (!standings) return;
    let end = $("#notice-end");
    if (!end) {
      end = h("p", { class: "notice-end", id: "notice-end" });
      standings.append(end);
    }
    const ask = askButton();
    end.hidden = !ask;
    end.replaceChildren(ask || "");
  }

  // Every table the page keeps (load, answers, stream): mark the turn, sound and notify when it
  // begins, remember a finished game of the player's.
  function update(T) {
    const seated = T.seat !== null && T.seat !== undefined;
    const mine = seated && T.status === "playing" && T.turn === T.seat;
    const played = seated && T.status === "finished" && !load(PLAYED_KEY, false);
    if (played) save(PLAYED_KEY, true);
    const first = !state.seen;
    state.seen = true;
    if (first || played) render(); // else the controls stay as they are (and keep the focus)
    if (mine === state.mine && !first) return;
    state.mine = mine;
    mark(mine);
    if (!mine || first) return; // a page opened on its turn is marked, never chimed at
    if (load(SOUND_KEY, false)) {
      tone.unlock();
      tone.play();
    }
    notify(T);
  }

  // A first click anywhere lets the tone sound later (browsers start audio only after a gesture).
  document.addEventListener("pointerdown", () => { if (load(SOUND_KEY, false)) tone.unlock(); }, { once: true });

  return { update };
}
