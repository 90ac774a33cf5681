// The room a jump to an element of the page leaves above it (app.css: --header-room, the scroll margin
// of every element with an id): the sticky site header's height and 18 px. The stylesheet assumes the
// header's one row (58 px); where its links wrap to a second row, this measures it, on load and on
// every change of its size, and a page opened at a #fragment is put back under the header.
(() => {
  "use strict";
  const ROOM_PX = 18;

  // Sets --header-room; true when it changed.
  function measure() {
    const header = document.querySelector(".site-header");
    if (!header) return false;
    const root = document.documentElement;
    const before = getComputedStyle(root).getPropertyValue("--header-room").trim();
    const room = Math.ceil(header.getBoundingClientRect().height) + ROOM_PX + "px";
    root.style.setProperty("--header-room", room);
    return before !== room;
  }

  function start() {
    const changed = measure();
    const header = document.querySelector(".site-header");
    if (header && "ResizeObserver" in window) new ResizeObserver(measure).observe(header);
    if (changed && location.hash.length > 1) {
      const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target) target.scrollIntoView();
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
