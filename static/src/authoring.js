// The problem editor's code fields: CodeMirror 6 over each <textarea data-code>, with the problem
// page's setup (static/src/editor.js) for CUDA, plain for harness.py and problem.yaml. Each editor
// keeps its textarea in sync, so the form posts as it would without JavaScript.
import { cpp } from "@codemirror/lang-cpp";
import { codeEditor, cudaHighlight } from "./editor.js";

function mount(host) {
  const textarea = document.getElementById(host.dataset.for);
  if (!textarea || host.classList.contains("ready")) return null;
  const cuda = host.dataset.language === "cuda";
  const view = codeEditor(host, textarea, {
    extensions: cuda ? [cpp(), cudaHighlight] : [],
    indent: host.dataset.language === "yaml" ? "  " : "    ",
    label: textarea.name,
  });
  host.classList.add("ready");
  const form = textarea.closest("form");
  if (form) form.addEventListener("submit", () => { textarea.value = view.state.doc.toString(); });
  return view;
}

// CodeMirror measures an editor's lines only while the editor is inside the window; until then it
// lays the gutter out with its built-in estimate of 14 px a line. The problem editor's code fields
// are below the statements, outside the window when the page opens, and their lines are 22.4 px
// (16 px x line-height 1.4): the line numbers ran 14 px apart beside 22.4 px lines ("12" beside
// line 8, clipped) until each editor was scrolled to, and in any full-page capture or print.
// So measure each editor where it stands: shift it into the window for one synchronous
// measurement (no paint happens in between), then put it back. Again once the fonts are in.
function measureInPlace(view) {
  const rect = view.dom.getBoundingClientRect();
  const outside = rect.bottom <= 0 || rect.top >= window.innerHeight;
  if (outside) view.dom.style.transform = `translateY(${-rect.top}px)`;
  try {
    view.measure();
  } finally {
    if (outside) view.dom.style.transform = "";
  }
}

function measureAll(views) {
  views.forEach(measureInPlace);
  if (document.fonts && document.fonts.ready) {
    document.fonts.ready.then(() => views.forEach(measureInPlace));
  }
  window.addEventListener("load", () => views.forEach(measureInPlace), { once: true });
}

function init() {
  window.warpdrillEditors = {};
  const views = [];
  document.querySelectorAll(".code-editor[data-for]").forEach((host) => {
    const view = mount(host);
    if (view) {
      window.warpdrillEditors[host.dataset.for] = view;
      views.push(view);
    }
  });
  measureAll(views);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
