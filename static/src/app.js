// Every page: typeset math with KaTeX (auto-render), highlight static CUDA code blocks, and do
// both again when htmx swaps in new content.
import { highlightCode, classHighlighter } from "@lezer/highlight";
import { parser as cppParser } from "@lezer/cpp";
import { cudaWordKind } from "./cuda.js";
import { clearSentDraft } from "./draft.js";

const MATH_DELIMITERS = [
  { left: "\\[", right: "\\]", display: true },
  { left: "\\(", right: "\\)", display: false },
];

function renderMath(root) {
  if (typeof window.renderMathInElement !== "function") return;
  root.querySelectorAll(".markdown, .math-enabled").forEach((el) => {
    if (el.dataset.mathRendered) return;
    window.renderMathInElement(el, { delimiters: MATH_DELIMITERS, throwOnError: false, strict: "ignore" });
    el.dataset.mathRendered = "1";
  });
}

const CODE_SELECTOR = [
  "pre code.language-cuda", "pre code.language-cu", "pre code.language-cpp", "pre code.language-c",
  "pre.signature code",
].join(", ");

function highlightBlock(code) {
  if (code.dataset.highlighted) return;
  const text = code.textContent;
  const out = document.createDocumentFragment();
  highlightCode(text, cppParser.parse(text), classHighlighter,
    (chunk, classes) => {
      const kind = cudaWordKind(chunk);
      if (kind) classes = "tok-cuda";
      if (!classes) { out.appendChild(document.createTextNode(chunk)); return; }
      const span = document.createElement("span");
      span.className = classes;
      span.textContent = chunk;
      out.appendChild(span);
    },
    () => out.appendChild(document.createTextNode("\n")));
  code.replaceChildren(out);
  code.dataset.highlighted = "1";
}

// A submission's source listing: one table row per line (for line anchors and marks). Parse the
// whole source once, so multi-line comments and strings highlight right, then hand each line's
// tokens to its row's cell.
function highlightListing(listing) {
  if (listing.dataset.highlighted) return;
  const cells = Array.from(listing.querySelectorAll("td.src"));
  if (!cells.length) return;
  const text = cells.map((td) => td.textContent).join("\n");
  let line = 0;
  let out = document.createDocumentFragment();
  const flush = () => { if (cells[line]) cells[line].replaceChildren(out); out = document.createDocumentFragment(); line += 1; };
  highlightCode(text, cppParser.parse(text), classHighlighter,
    (chunk, classes) => {
      if (cudaWordKind(chunk)) classes = "tok-cuda";
      if (!classes) { out.appendChild(document.createTextNode(chunk)); return; }
      const span = document.createElement("span");
      span.className = classes;
      span.textContent = chunk;
      out.appendChild(span);
    },
    flush);
  flush();
  listing.dataset.highlighted = "1";
}

function enhance(root) {
  renderMath(root);
  root.querySelectorAll(CODE_SELECTOR).forEach(highlightBlock);
  root.querySelectorAll(".listing.code").forEach(highlightListing);
}

// A write map's cell tells its index, writer, expected and got in an SVG <title>, which a mouse
// shows on hover; a tap (or a click, or Enter on a focused picture) shows it in a line under the
// picture instead, since touch screens have no hover.
function showWritemapCell(event) {
  const cell = event.target.closest && event.target.closest("svg.writemap g");
  if (!cell) return;
  const title = cell.querySelector("title");
  const scroll = cell.closest(".writemap-scroll");
  if (!title || !scroll) return;
  let tip = scroll.parentElement.querySelector(".wm-tip");
  if (!tip) {
    tip = document.createElement("p");
    tip.className = "wm-tip muted small";
    tip.setAttribute("aria-live", "polite");
    scroll.insertAdjacentElement("afterend", tip);
  }
  tip.textContent = title.textContent;
  scroll.querySelectorAll(".wm-picked").forEach((el) => el.classList.remove("wm-picked"));
  cell.classList.add("wm-picked");
}

function init() {
  enhance(document);
  document.addEventListener("click", showWritemapCell);
  // A submission page reached by submitting: the draft it came from has arrived.
  const sent = document.querySelector("[data-draft-sent-key]");
  if (sent) clearSentDraft(sent.dataset.draftSentKey);
  // After an outerHTML swap the event's element is the detached old one: enhance the document
  // (both steps skip what they already did).
  document.body.addEventListener("htmx:afterSettle", () => enhance(document));
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
