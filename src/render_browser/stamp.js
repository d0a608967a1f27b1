// Run in the rendered page (Runtime.evaluate): stamps every element of the body with its
// box as `data-thresher-box="x y width height font-size visible"` (CSS pixels of the
// page, not the viewport; font size in pixels; visible 1 or 0), then returns the
// serialized document. The DOM builder (extract/dom/boxes.rs) moves the stamp into a side
// table of the page model; it never reaches the outputs.
(() => {
  const NAME = 'data-thresher-box';
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'LINK', 'META', 'BR', 'WBR']);
  const sx = window.scrollX, sy = window.scrollY;
  const stamp = (el) => {
    if (SKIP.has(el.tagName)) return;
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    let visible = el.checkVisibility
      ? el.checkVisibility({ opacityProperty: true, visibilityProperty: true })
      : cs.display !== 'none' && cs.visibility !== 'hidden';
    // Clipped to (almost) nothing: the screen-reader-only pattern (1px, overflow hidden).
    const clipped = cs.overflow === 'hidden' || cs.overflow === 'clip' || cs.clip !== 'auto';
    if ((r.width <= 1 || r.height <= 1) && clipped) visible = false;
    // Placed outside the page (left: -9999px).
    if (r.right + sx <= 0 || r.bottom + sy <= 0) visible = false;
    const fs = Math.round(parseFloat(cs.fontSize || '0') * 10) / 10;
    el.setAttribute(NAME, [
      Math.round(r.left + sx), Math.round(r.top + sy),
      Math.round(r.width), Math.round(r.height), fs, visible ? 1 : 0,
    ].join(' '));
  };
  if (document.body) {
    stamp(document.body);
    for (const el of document.body.getElementsByTagName('*')) stamp(el);
  }
  const doctype = document.doctype ? '<!DOCTYPE html>' : '';
  return doctype + document.documentElement.outerHTML;
})()
