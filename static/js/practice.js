// Practice pages: small progressive enhancements; every page works without this file.
(() => {
  "use strict";
  // Calculator: recalculate when a select changes or an input is left, so the URL (and charts) follow the inputs.
  const form = document.getElementById("calc-form");
  if (form) {
    form.querySelectorAll("select").forEach((el) => el.addEventListener("change", () => form.requestSubmit()));
    form.querySelectorAll("input").forEach((el) => el.addEventListener("change", () => {
      if (el.checkValidity()) form.requestSubmit();
    }));
  }
})();
