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

function init() {
  window.warpdrillEditors = {};
  document.querySelectorAll(".code-editor[data-for]").forEach((host) => {
    const view = mount(host);
    if (view) window.warpdrillEditors[host.dataset.for] = view;
  });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
