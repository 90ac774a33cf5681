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
    // A blank line takes the item itself, indented after the nearest line above it.
    const above = current.trim() ? current : (value.slice(0, start).split("\n").reverse().find((l) => l.trim()) || "");
    let indent = (above.match(/^\s*/) || [""])[0];
    // After a pool item the new one is its sibling; after "pool:" (or another key) it goes one level in.
    if (!/^\s*- /.test(above) && above.trim()) indent += "  ";
    let piece, from, to;
    if (current.trim()) [piece, from, to] = [(end > 0 ? "\n" : "") + indent + line, end, end];
    else [piece, from, to] = [indent + line, start, end];
    text.value = value.slice(0, from) + piece + value.slice(to);
    const caret = from + piece.length;
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
