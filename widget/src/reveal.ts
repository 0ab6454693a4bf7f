/**
 * Focus an element of the widget and scroll it into view with room above it, below whatever
 * the host page keeps stuck to the top of the window (a sticky or fixed header).
 *
 * The room comes from the element's `scroll-margin-top` (the host's `--bw-scroll-offset`, see
 * the styles); a header the host did not tell us about is found by looking at what covers the
 * element's top edge once it is scrolled there.
 */
export function focusAndReveal(el: HTMLElement): void {
  el.focus({ preventScroll: true });
  const margin = parseFloat(getComputedStyle(el).scrollMarginTop) || 0;
  const wanted = (box: DOMRect) => Math.max(margin, coveringBottom(el, box) + 12);
  let box = el.getBoundingClientRect();
  if (box.top >= wanted(box) && box.bottom <= innerHeight) return; // in full view already
  el.scrollIntoView({ block: "start" });
  box = el.getBoundingClientRect();
  const top = wanted(box);
  if (box.top < top) scrollBy(0, box.top - top);
}

/** The bottom edge of a fixed or sticky box of the page lying over the element's top edge; 0 when none. */
function coveringBottom(el: HTMLElement, box: DOMRect): number {
  const host = (el.getRootNode() as ShadowRoot).host;
  const x = Math.min(innerWidth - 1, Math.max(0, box.left + 4));
  let bottom = 0;
  for (const y of [box.top + 2, box.top + box.height / 2]) {
    if (y < 0 || y >= innerHeight) continue;
    for (let node = document.elementFromPoint(x, y); node && node !== host && !host?.contains(node); node = node.parentElement) {
      const position = getComputedStyle(node).position;
      if (position === "fixed" || position === "sticky") {
        bottom = Math.max(bottom, node.getBoundingClientRect().bottom);
        break;
      }
    }
  }
  return bottom;
}
