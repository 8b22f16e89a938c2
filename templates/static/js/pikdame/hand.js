// The own hand as an ARIA listbox: arrows move, Enter/Space select, click/tap toggles.
// Selection is kept by position in the shown order (two decks: the same card can be held twice).

import { face, sortCards } from "../lib/cards.js";
import { clear, h } from "../lib/dom.js";

// From this many cards on, a phone overlaps them more (the corner still shows rank and suit).
const CROWDED = 18;

export class Hand {
  constructor(root, onChange) {
    this.root = root;
    this.onChange = onChange;
    this.cards = [];
    this.selected = new Set();
    this.focus = 0;
    this.hinted = [];
    root.addEventListener("keydown", (e) => this.key(e));
  }

  // Show a new hand (after a move the selection is cleared).
  show(cards, sort) {
    this.cards = sortCards(cards, sort);
    this.selected.clear();
    this.focus = Math.min(this.focus, Math.max(0, this.cards.length - 1));
    this.render();
  }

  resort(sort) {
    const chosen = this.selectedCards();
    this.cards = sortCards(this.cards, sort);
    this.selectCodes(chosen);
  }

  render() {
    clear(this.root);
    this.root.classList.toggle("crowded", this.cards.length > CROWDED);
    const hinted = [...this.hinted];
    this.cards.forEach((code, i) => {
      const k = hinted.indexOf(code);
      const isHinted = k >= 0;
      if (isHinted) hinted.splice(k, 1);
      const item = h("li", {
        role: "option",
        class: `hand-card${this.selected.has(i) ? " selected" : ""}${isHinted ? " hinted" : ""}`,
        "aria-selected": this.selected.has(i) ? "true" : "false",
        tabindex: i === this.focus ? "0" : "-1",
        dataset: { index: String(i), card: code },
        onclick: () => {
          this.focus = i;
          this.toggle(i);
        },
      }, face(code));
      this.root.append(item);
    });
  }

  selectedCards() {
    return [...this.selected].sort((a, b) => a - b).map((i) => this.cards[i]);
  }

  toggle(i) {
    if (this.selected.has(i)) this.selected.delete(i);
    else this.selected.add(i);
    this.render();
    this.focusItem();
    this.onChange();
  }

  // Select exactly these cards (by code, as many of each as listed), e.g. from the hint.
  selectCodes(codes) {
    const wanted = [...codes];
    this.selected.clear();
    this.cards.forEach((code, i) => {
      const k = wanted.indexOf(code);
      if (k >= 0) {
        this.selected.add(i);
        wanted.splice(k, 1);
      }
    });
    this.render();
    this.onChange();
  }

  clearSelection() {
    if (this.selected.size === 0) return;
    this.selected.clear();
    this.render();
    this.onChange();
  }

  setHinted(cards) {
    this.hinted = cards;
    this.render();
  }

  focusItem() {
    const item = this.root.children[this.focus];
    if (item) item.focus();
  }

  key(e) {
    if (this.cards.length === 0) return;
    const last = this.cards.length - 1;
    const moves = {
      ArrowRight: this.focus + 1, ArrowDown: this.focus + 1,
      ArrowLeft: this.focus - 1, ArrowUp: this.focus - 1, Home: 0, End: last,
    };
    if (e.key in moves) {
      e.preventDefault();
      this.focus = Math.max(0, Math.min(last, moves[e.key]));
      this.render();
      this.focusItem();
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      this.toggle(this.focus);
    }
  }
}
