// The problem editor's code fields: CodeMirror 6 over each <textarea data-code>, with the problem
// page's setup (static/src/editor.js) for CUDA, plain for harness.py and problem.yaml. Each editor
// keeps its textarea in sync, so the form posts as it would without JavaScript.
import { basicSetup } from "codemirror";
import { cpp } from "@codemirror/lang-cpp";
import { oneDark } from "@codemirror/theme-one-dark";
import { indentUnit } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { cudaHighlight } from "./editor.js";

function mount(host) {
  const textarea = document.getElementById(host.dataset.for);
  if (!textarea || host.classList.contains("ready")) return null;
  const cuda = host.dataset.language === "cuda";
  const view = new EditorView({
    parent: host,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        basicSetup,
        keymap.of([indentWithTab]),
        ...(cuda ? [cpp(), cudaHighlight] : []),
        oneDark,
        indentUnit.of(host.dataset.language === "yaml" ? "  " : "    "),
        EditorState.tabSize.of(4),
        EditorView.contentAttributes.of({ "aria-label": textarea.getAttribute("aria-label") || textarea.name }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) textarea.value = update.state.doc.toString();
        }),
      ],
    }),
  });
  host.classList.add("ready");
  const form = textarea.closest("form");
  if (form) form.addEventListener("submit", () => { textarea.value = view.state.doc.toString(); });
  return view;
}

// An editor mounted off screen (the wrong solutions, far down the page) measures its lines before it
// is ever drawn, and before the web font has loaded: its line numbers then sit beside the wrong lines
// until it is scrolled. Measure each editor again when it comes into view and once the fonts are in.
function remeasureWhenShown(views) {
  if ("IntersectionObserver" in window) {
    const observer = new IntersectionObserver((entries) => {
      entries.forEach((entry) => {
        const view = entry.isIntersecting && EditorView.findFromDOM(entry.target.querySelector(".cm-editor"));
        if (view) view.requestMeasure();
      });
    });
    views.forEach((view) => observer.observe(view.dom.parentElement));
  }
  if (document.fonts && document.fonts.ready) {
    document.fonts.ready.then(() => views.forEach((view) => view.requestMeasure()));
  }
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
  remeasureWhenShown(views);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
