// A card moving across the table (issue 41): a copy on a fixed layer flies by transform from
// where the card comes from to where it goes, so a draw or a discard is seen happen; the page's
// layout never moves (no layout shift). Nothing flies under reduced motion, at the fastest pace
// or when either end is not drawn; the promise settles when the flight is over.

import { h } from "./dom.js";

const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)");
const SHORTEST = 60; // ms: below this a flight would only flicker

const drawn = (el) => Boolean(el) && el.isConnected && el.getBoundingClientRect().width > 0;

// content: the element that flies (a card's face or back); from, to: elements; ms: its time.
export function fly(content, from, to, ms) {
  if (ms < SHORTEST || REDUCED.matches || !drawn(from) || !drawn(to)) return Promise.resolve();
  const node = h("div", { class: "flying", "aria-hidden": "true" }, content);
  document.body.append(node);
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  const w = node.offsetWidth;
  const ht = node.offsetHeight;
  const at = (r) => `translate(${r.left + (r.width - w) / 2}px, ${r.top + (r.height - ht) / 2}px)`;
  const flight = node.animate([{ transform: at(a) }, { transform: at(b) }], { duration: ms, easing: "ease-in-out" });
  return flight.finished.then(() => node.remove(), () => node.remove());
}
