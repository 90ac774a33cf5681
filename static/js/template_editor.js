// The exam template editor: "Add to the template" puts a pool item line for the family id or kernel
// slug picked in its box (a <datalist> of them) into the YAML after the cursor's line, indented as a
// pool item there. Without this script the lists still show every id to copy.
(() => {
  "use strict";
  const text = document.getElementById("id_text");
  if (!text) return;

  function insertItem(line) {
    const value = text.value;
    const at = text.selectionStart ?? value.length;
    let end = value.indexOf("\n", at);
    if (end < 0) end = value.length;
    const start = value.lastIndexOf("\n", at - 1) + 1;
    const current = value.slice(start, end);
    let indent = (current.match(/^\s*/) || [""])[0];
    // On a pool item the new one is its sibling; on "pool:" (or another key) it goes one level in.
    if (!/^\s*- /.test(current) && current.trim()) indent += "  ";
    const piece = (end > 0 ? "\n" : "") + indent + line;
    text.value = value.slice(0, end) + piece + value.slice(end);
    const caret = end + piece.length;
    text.focus();
    text.setSelectionRange(caret, caret);
  }

  for (const [buttonId, inputId] of [["add-family", "pick-family"], ["add-kernel", "pick-kernel"]]) {
    const button = document.getElementById(buttonId);
    const input = document.getElementById(inputId);
    if (!button || !input) continue;
    button.addEventListener("click", () => {
      const id = input.value.trim();
      if (!id) { input.focus(); return; }
      insertItem(button.dataset.template.replace("ID", id));
      input.value = "";
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") { event.preventDefault(); button.click(); }
    });
  }
})();
