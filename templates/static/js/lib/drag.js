// Cards moved with a pointer or a finger (issue 41): press an item, move it past a small
// threshold and a copy of it follows the pointer; released over a drop zone, the page is told
// what was dropped where. A press that stays within the threshold is left alone, so a tap or a
// click keeps its meaning (selecting a card). Pointer events serve mouse, pen and touch alike;
// HTML5 drag and drop is not used (a touch screen has none). The page decides what a drop means
// and whether it is allowed: this module never plays a move.

import { h } from "./dom.js";

// How far (CSS px) a press must travel before it is a drag: a finger wobbles more than a mouse.
const THRESHOLD = { mouse: 6, pen: 8, touch: 10 };

// The innermost zone under the point: zones are listed innermost first (a meld before the area
// that holds it); each zone's `areas` (default: its element) are the boxes that count as it.
function zoneAt(zones, x, y) {
  return zones.find((zone) => (zone.areas || [zone.element]).some((el) => {
    // not a zone where it cannot be seen (inside a closed <details>, hidden)
    if (!el || !el.isConnected || (el.checkVisibility && !el.checkVisibility())) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  })) || null;
}

// root: the element whose items can be dragged (events are delegated, so its items may be
// redrawn at will); options:
//   items: a selector for the draggable items inside root;
//   grab(item): what a drag of this item carries ({ghost: an element shown under the pointer,
//     ...anything}), or null when it cannot be dragged now (the press stays a tap);
//   zones(): the drop zones now, innermost first: [{element, areas?, ...}];
//   drop(payload, zone, {x, y}): released over a zone;
//   start(payload)?, end()?: a drag begins or ends (dropped or not).
// Returns {cancel()} to abandon a drag under way.
export function draggable(root, { items, grab, zones, drop, start = () => {}, end = () => {} }) {
  let press = null; // {id, item, x, y, type} while a press is down
  let drag = null; // {payload, ghost, dx, dy, zones, over} once it moves

  function highlight(zone) {
    if (drag.over === zone) return;
    if (drag.over) drag.over.element.classList.remove("drop-over");
    drag.over = zone;
    if (zone) zone.element.classList.add("drop-over");
  }

  function place(x, y) {
    drag.ghost.style.transform = `translate(${x - drag.dx}px, ${y - drag.dy}px)`;
    highlight(zoneAt(drag.zones, x, y));
  }

  function begin(x, y) {
    const payload = grab(press.item);
    if (!payload) {
      press = null;
      return;
    }
    const box = press.item.getBoundingClientRect();
    const ghost = h("div", { class: "drag-ghost", "aria-hidden": "true" }, payload.ghost);
    document.body.append(ghost);
    drag = { payload, ghost, dx: press.x - box.left, dy: press.y - box.top, zones: zones(), over: null };
    press.item.classList.add("dragging");
    document.documentElement.classList.add("is-dragging");
    start(payload);
    place(x, y);
  }

  function finish() {
    if (drag) {
      highlight(null);
      drag.ghost.remove();
      document.documentElement.classList.remove("is-dragging");
      if (press && press.item) press.item.classList.remove("dragging");
      drag = null;
      end();
    }
    press = null;
  }

  // A drag ends without the click the browser may send after it (the release is no tap).
  function swallowClick() {
    const stop = (e) => {
      e.stopPropagation();
      e.preventDefault();
    };
    window.addEventListener("click", stop, { capture: true, once: true });
    setTimeout(() => window.removeEventListener("click", stop, { capture: true }), 0);
  }

  root.addEventListener("pointerdown", (e) => {
    if (press || !e.isPrimary || e.button !== 0) return;
    const item = e.target instanceof Element ? e.target.closest(items) : null;
    if (!item || !root.contains(item)) return;
    press = { id: e.pointerId, item, x: e.clientX, y: e.clientY, type: e.pointerType };
  });

  window.addEventListener("pointermove", (e) => {
    if (!press || e.pointerId !== press.id) return;
    if (!drag) {
      const far = Math.hypot(e.clientX - press.x, e.clientY - press.y) > (THRESHOLD[press.type] ?? 6);
      if (!far) return;
      begin(e.clientX, e.clientY);
      if (!drag) return;
    }
    e.preventDefault();
    place(e.clientX, e.clientY);
  }, { passive: false });

  window.addEventListener("pointerup", (e) => {
    if (!press || e.pointerId !== press.id) return;
    if (!drag) {
      press = null; // a tap: the click that follows is the item's own
      return;
    }
    const zone = zoneAt(drag.zones, e.clientX, e.clientY);
    const { payload } = drag;
    swallowClick();
    finish();
    if (zone) drop(payload, zone, { x: e.clientX, y: e.clientY });
  });

  window.addEventListener("pointercancel", (e) => {
    if (press && e.pointerId === press.id) finish();
  });

  // Escape drops nothing: the card goes back where it was.
  window.addEventListener("keydown", (e) => {
    if (drag && e.key === "Escape") finish();
  });

  return { cancel: finish };
}

// A tap or a click on `element` (a press released within the threshold where it began), told by
// pointer events: a touch screen may swallow the click of the first tap after a swipe (the tap
// that stops a fling), and a tap on the stock must never be lost.
export function tappable(element, onTap) {
  let press = null;
  element.addEventListener("pointerdown", (e) => {
    press = e.isPrimary && e.button === 0 ? { id: e.pointerId, x: e.clientX, y: e.clientY, type: e.pointerType } : null;
  });
  element.addEventListener("pointerup", (e) => {
    if (!press || e.pointerId !== press.id) return;
    const near = Math.hypot(e.clientX - press.x, e.clientY - press.y) <= (THRESHOLD[press.type] ?? 6);
    press = null;
    if (near && element.contains(document.elementFromPoint(e.clientX, e.clientY))) onTap(e);
  });
  element.addEventListener("pointercancel", () => { press = null; });
}

// A short note at the spot where a drop was refused (the page also says it in its message
// line, where a screen reader hears it); it goes at the next press or key.
export function noteAt(text, { x, y }) {
  clearNote();
  const note = h("div", { class: "drop-note", "aria-hidden": "true", text });
  document.body.append(note);
  const width = note.offsetWidth;
  const left = Math.max(4, Math.min(x - width / 2, window.innerWidth - width - 4));
  const top = Math.max(4, y - note.offsetHeight - 12);
  note.style.transform = `translate(${left}px, ${top}px)`;
  const away = () => clearNote();
  window.addEventListener("pointerdown", away, { once: true, capture: true });
  window.addEventListener("keydown", away, { once: true, capture: true });
}

export function clearNote() {
  for (const note of document.querySelectorAll(".drop-note")) note.remove();
}
