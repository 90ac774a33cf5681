// The exam template editor: "Add to the template" sends the template's text with the picked family id
// or kernel slug and the chosen zone to the server (the form's own POST, answered in JSON), which checks
// the id, puts the item into that zone's pool (exams/core/template_edit.py) and answers with the new
// text; the text is swapped in place and the new line selected. An unknown id is refused with the
// closest known one, an item the template has already is refused naming its zone (a student would get it
// twice), and the text stays as it was. The answer also says what the text holds now (`used`), and the
// lists mark those items. Without this script the buttons post the form and the page comes back with the
// new text and the marks. Nothing is saved until "Check and save".
(() => {
  "use strict";
  const form = document.getElementById("template-form");
  const text = document.getElementById("id_text");
  const status = document.getElementById("pick-status");
  const zoneSelect = document.getElementById("pick-zone");
  if (!form || !text || !status) return;

  function say(message, added) {
    status.textContent = message;
    status.classList.toggle("pick-added", added);
    status.classList.toggle("pick-refused", !added);
  }

  function setZones(zones, chosen) {
    if (!zoneSelect) return;
    const keep = chosen ?? zoneSelect.value;
    while (zoneSelect.options.length > 1) zoneSelect.remove(1);
    for (const z of zones) zoneSelect.add(new Option(z.label, String(z.index)));
    zoneSelect.value = [...zoneSelect.options].some((o) => o.value === String(keep)) ? String(keep) : "";
  }

  // Mark what the template holds (the answer's `used`: {family: {id: {where, label}}, kernel: {...}}).
  function markUsed(used) {
    if (!used) return;
    for (const [listId, kind] of [["family-ids", "family"], ["kernel-slugs", "kernel"]]) {
      const list = document.getElementById(listId);
      if (!list) continue;
      for (const option of list.options) {
        const mark = used[kind][option.value];
        option.label = option.dataset.label + (mark ? ` · ${mark.label}` : "");
      }
    }
    for (const row of document.querySelectorAll("tr[data-family]")) {
      const mark = used.family[row.dataset.family];
      row.classList.toggle("pick-used", Boolean(mark));
      const cell = row.querySelector(".pick-used-where");
      if (cell) cell.textContent = mark ? mark.where : "";
    }
    for (const code of document.querySelectorAll("code[data-kernel]")) {
      const mark = used.kernel[code.dataset.kernel];
      code.classList.toggle("pick-used", Boolean(mark));
      code.title = code.dataset.title + (mark ? ` · ${mark.label}` : "");
    }
  }

  function selectLine(line) {
    const lines = text.value.split("\n");
    const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
    const end = start + (lines[line - 1] || "").length;
    text.focus();
    text.setSelectionRange(start, end);
    // Scroll the textarea so the new line shows (line height from the computed style).
    const lh = parseFloat(getComputedStyle(text).lineHeight) || 20;
    text.scrollTop = Math.max(0, (line - 3) * lh);
  }

  async function add(kind, button, input) {
    const body = new FormData();
    body.append("csrfmiddlewaretoken", form.querySelector("[name=csrfmiddlewaretoken]").value);
    body.append("text", text.value);
    body.append("add", kind);
    body.append(input.name, input.value);
    body.append("zone", zoneSelect ? zoneSelect.value : "");
    button.disabled = true;
    try {
      const response = await fetch(form.action || window.location.href, {
        method: "POST", body, headers: { Accept: "application/json" }, credentials: "same-origin",
      });
      const answer = await response.json();
      say(answer.message, answer.added);
      input.setAttribute("aria-invalid", answer.added ? "false" : "true");
      setZones(answer.zones);  // the zones of the text now (it may have been edited by hand)
      markUsed(answer.used);
      const bankWarning = document.getElementById("bank-warning");
      if (bankWarning && typeof answer.bank_warning === "string") {
        // Problems of the shipped bank are public: say so while the template draws any, in place of the
        // general note (the two said nearly the same).
        bankWarning.textContent = answer.bank_warning;
        bankWarning.hidden = !answer.bank_warning;
        const bankNote = document.getElementById("bank-note");
        if (bankNote) bankNote.hidden = Boolean(answer.bank_warning);
      }
      if (answer.added) {
        text.value = answer.text;
        text.dispatchEvent(new Event("input"));  // the zone list (htmx) counts the new item
        input.value = "";
        selectLine(answer.line);
      } else {
        input.focus();
      }
    } catch (err) {
      button.disabled = false;
      form.requestSubmit(button);  // no JSON answer: let the form's own POST do it
    } finally {
      button.disabled = false;
    }
  }

  for (const [buttonId, inputId] of [["add-family", "pick-family"], ["add-kernel", "pick-kernel"]]) {
    const button = document.getElementById(buttonId);
    const input = document.getElementById(inputId);
    if (!button || !input) continue;
    button.addEventListener("click", (event) => {
      event.preventDefault();
      add(button.value, button, input);
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") { event.preventDefault(); button.click(); }
    });
  }
})();
