// The problem page's editor: CodeMirror 6 with C++ and CUDA highlighting, kept in sync with the
// form's <textarea name="source"> so the plain form post works (and works without JavaScript).
// Ctrl/Cmd+Enter submits.
import { basicSetup } from "codemirror";
import { cpp } from "@codemirror/lang-cpp";
import { oneDark } from "@codemirror/theme-one-dark";
import { indentUnit } from "@codemirror/language";
import { EditorState, Prec } from "@codemirror/state";
import { Decoration, EditorView, MatchDecorator, ViewPlugin, keymap, placeholder } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { CUDA_WORD_RE, cudaWordKind } from "./cuda.js";
import { keepDraft } from "./draft.js";
import { editorPhrases } from "./phrases.js";

const cudaMarks = {
  keyword: Decoration.mark({ class: "cm-cuda-keyword" }),
  builtin: Decoration.mark({ class: "cm-cuda-builtin" }),
};

const cudaMatcher = new MatchDecorator({
  regexp: CUDA_WORD_RE,
  decoration: (match) => cudaMarks[cudaWordKind(match[1])],
});

/** Highlights CUDA qualifiers (__global__, __shared__) and built-ins (threadIdx, atomicAdd, ...). */
export const cudaHighlight = [
  ViewPlugin.fromClass(
    class {
      constructor(view) { this.decorations = cudaMatcher.createDeco(view); }
      update(update) { this.decorations = cudaMatcher.updateDeco(update, this.decorations); }
    },
    { decorations: (plugin) => plugin.decorations },
  ),
  EditorView.baseTheme({
    ".cm-cuda-keyword, .cm-cuda-keyword *": { color: "#76b900 !important", fontWeight: "600" },
    ".cm-cuda-builtin, .cm-cuda-builtin *": { color: "#4fd6be !important" },
  }),
];

function submitForm(form) {
  if (typeof form.requestSubmit === "function") form.requestSubmit();
  else form.submit();
  return true;
}

/**
 * A CodeMirror 6 editor in `host` over `textarea`, kept in sync with it so that the form posts what the
 * editor shows: basicSetup, Tab indents, the dark theme, tabs of 4 columns. `extensions` come before the
 * theme; `indent` is the indent unit; `label` names the editor where the textarea has no aria-label;
 * `onChange()` runs after every edit. The problem page's editor and the authoring pages' code fields.
 */
export function codeEditor(host, textarea, { extensions = [], indent = "    ", label = "", onChange = () => {} } = {}) {
  return new EditorView({
    parent: host,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        basicSetup,
        editorPhrases(document.documentElement.lang),
        keymap.of([indentWithTab]),
        ...extensions,
        oneDark,
        indentUnit.of(indent),
        EditorState.tabSize.of(4),
        EditorView.contentAttributes.of({ "aria-label": textarea.getAttribute("aria-label") || label }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          textarea.value = update.state.doc.toString();
          onChange();
        }),
      ],
    }),
  });
}

function mountEditor(host) {
  const form = host.closest("form");
  const textarea = form && form.querySelector("textarea[name=source]");
  if (!textarea) return null;
  let draftChanged = () => {};
  const view = codeEditor(host, textarea, {
    extensions: [
      Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => submitForm(form) }])),
      cpp(),
      cudaHighlight,
      placeholder(host.dataset.placeholder || ""),
    ],
    label: "Kernel source",
    onChange: () => draftChanged(),
  });
  host.classList.add("ready");
  draftChanged = keepDraft(form, view);
  // Belt and braces: the textarea is already in sync, but copy once more right before posting.
  form.addEventListener("submit", () => {
    textarea.value = view.state.doc.toString();
    const button = form.querySelector("button[type=submit]");
    if (button) setTimeout(() => { button.disabled = true; }, 0);
  });
  // Keep Ctrl/Cmd+Enter working when focus is in a launch field.
  form.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && !host.contains(event.target)) {
      event.preventDefault();
      submitForm(form);
    }
  });
  return view;
}

function init() {
  const host = document.getElementById("editor");
  if (host) window.warpdrillEditor = mountEditor(host);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
