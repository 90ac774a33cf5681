// The exam template editor's zone list (templates/exams/_zones.html, swapped by htmx; exams/zone_views.py):
// after "Add a zone", "Remove" or "Rename" the server sends the new template text in a hidden
// #zone-new-text, which goes into the editor's text here (the same textarea: the picker's script keeps
// working). Enter in a zone's title renames that zone, not the first button of the form.
(() => {
  "use strict";
  const text = document.getElementById("id_text");
  if (!text) return;
  document.body.addEventListener("htmx:afterSettle", () => {
    const fresh = document.getElementById("zone-new-text");
    if (!fresh) return;
    text.value = fresh.value;
    fresh.remove();
  });
  document.addEventListener("keydown", (event) => {
    const input = event.target;
    if (event.key !== "Enter" || !(input instanceof HTMLInputElement) || !input.classList.contains("zone-title")) return;
    event.preventDefault();
    const button = input.closest(".zone-row")?.querySelector(".zone-rename");
    if (button) button.click();
  });
})();
