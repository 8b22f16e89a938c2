// The keyboard's place after the page redrew itself: a move closes its dialog, disables its
// button or replaces the hand, and the focus would fall back to the page's start. Where it has
// nothing left to stand on, it goes to the given place (the hand's current card).

export function keepFocus(fallback) {
  const at = document.activeElement;
  const lost = !at || at === document.body || !at.isConnected || at.closest("[hidden]") !== null
    || at.getClientRects().length === 0;
  if (lost) fallback();
}
