// The timed exam attempt: a countdown from the SERVER's deadline, autosave of every answer as the
// student types (debounced, one save in flight at a time, retried), a visible "saved" state and a
// loud warning when a save fails. Texts come translated from the page's data attributes.
(() => {
  "use strict";
  const root = document.getElementById("exam-attempt");
  if (!root) return;
  const d = root.dataset;
  const statusEl = document.getElementById("save-status");
  const failEl = document.getElementById("save-failed");
  const closedEl = document.getElementById("exam-closed");
  const timerEl = document.getElementById("timer");
  // The CSRF token is read afresh for every request: a log-in in another tab renews the cookie, and
  // a token read once at page load would then be refused (403) for the rest of the exam.
  function csrfToken() {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]*)/);
    if (m) return decodeURIComponent(m[1]);
    return (root.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";
  }
  const DEBOUNCE_MS = Number(d.debounceMs || 800);

  // Clock: the server's now minus ours, so the countdown follows the server even if this clock is wrong.
  let offset = Date.parse(d.serverNow) - Date.now();
  let deadline = Date.parse(d.deadline);
  let closed = false;

  function pad(n) { return String(n).padStart(2, "0"); }
  function tick() {
    if (closed) return;  // the clock stops where the exam ended (at the deadline it reads 0:00:00)
    const left = Math.max(0, deadline - (Date.now() + offset));
    const s = Math.floor(left / 1000);
    timerEl.textContent = `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
    timerEl.classList.toggle("timer-low", s < 300);
    if (left <= 0 && !closed) {
      // Send what is dirty one last time; the server takes it only if it is still before the deadline.
      flush().finally(() => close(d.textTimeUp));
    }
  }

  // The server closed the attempt: at its deadline, once submitted, or because the student was removed
  // from the course (a 409 with its own sentence). Nothing more is saved or retried; the exam's page,
  // which says why, follows.
  function close(message) {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    clearInterval(syncTimer);
    failEl.hidden = true;
    root.querySelectorAll("input, textarea, select, button[data-exam-control]").forEach((el) => { el.disabled = true; });
    // Not "Saving…" for ever: what was typed after the last save is not saved, and says so.
    if (dirty.size) setStatus(d.textNotSaved, "save-failed");
    else statusEl.textContent = "";
    closedEl.textContent = message;
    closedEl.hidden = false;
    setTimeout(() => { window.location.href = d.examUrl; }, 4000);
  }

  // ---- autosave ------------------------------------------------------------------------------
  const dirty = new Set();
  let timer = null;
  let inFlight = null;
  let failures = 0;
  let seq = 0;

  // A refused save whose message is already the sentence to show.
  class SaveError extends Error {}

  function readItem(el) {
    const key = el.dataset.item;
    const out = {};
    el.querySelectorAll("input[name^='answer-'], textarea[name^='answer-']").forEach((input) => {
      const name = input.name.slice("answer-".length);
      if (input.type === "radio") {
        if (input.checked) out[name] = input.value;
        else if (!(name in out)) out[name] = "";
      } else out[name] = input.value;
    });
    const source = el.querySelector("textarea[name=source]");
    if (source) out.source = source.value;
    return [key, out];
  }

  function setStatus(text, cls) {
    statusEl.textContent = text;
    statusEl.className = `save-status ${cls}`;
  }

  function schedule() {
    if (closed) return;
    clearTimeout(timer);
    setStatus(d.textUnsaved, "save-pending");
    timer = setTimeout(flush, DEBOUNCE_MS);
  }

  function flush() {
    if (inFlight) return inFlight.then(() => (dirty.size ? flush() : undefined));
    if (!dirty.size || closed) return Promise.resolve();
    const answers = {};
    for (const key of dirty) {
      const el = root.querySelector(`[data-item="${CSS.escape(key)}"]`);
      if (el) { const [k, v] = readItem(el); answers[k] = v; }
    }
    const sent = new Set(dirty);
    dirty.clear();
    seq += 1;
    setStatus(d.textSaving, "save-pending");
    inFlight = fetch(d.saveUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
      // The owner lets the server tell "signed in as someone else" apart from "no such attempt".
      body: JSON.stringify({ answers, seq, owner: Number(d.owner) || undefined }),
    }).then(async (r) => {
      const body = await r.json().catch(() => ({}));
      if (r.ok && body.ok) {
        failures = 0;
        failEl.hidden = true;
        if (body.deadline) deadline = Date.parse(body.deadline);
        if (body.server_now) offset = Date.parse(body.server_now) - Date.now();
        // "2026-12-05 20:08 KST" as everywhere on the site (timezone.js), not the browser's locale ("4:12:27 PM").
        setStatus(`${d.textSaved} ${window.WarpDrill.formatWhen(body.saved_at)}`, dirty.size ? "save-pending" : "save-ok");
        root.dispatchEvent(new CustomEvent("exam:saved", { detail: body }));
        return;
      }
      // The deadline passed, the exam was submitted, or the student was removed from the course
      // (code "removed"): nothing more is accepted, and the answer's own sentence says why.
      if (r.status === 409) {
        sent.forEach((k) => dirty.add(k));
        close(body.error || d.textTimeUp);
        return;
      }
      // A session problem is not the end of the exam: the answers stay in the page (never disabled)
      // and the save is retried; the next try reads the renewed CSRF cookie.
      if (r.status === 401 || (!body.code && r.redirected)) throw new SaveError(d.textLoggedOut);
      if (r.status === 403 && body.code === "csrf") throw new SaveError(d.textSessionChanged);
      if (r.status === 403 && body.code === "other_user") throw new SaveError(d.textOtherUser);
      throw new SaveError(`${d.textFailed} (${body.error || `HTTP ${r.status}`})`);
    }).catch((err) => {
      sent.forEach((k) => dirty.add(k));
      failures += 1;
      failEl.hidden = false;
      // A network failure's own text ("Failed to fetch") is the browser's, untranslated: say it in the page's words.
      failEl.textContent = err instanceof SaveError ? err.message : `${d.textFailed} (${d.textNoConnection})`;
      setStatus(d.textNotSaved, "save-failed");
      clearTimeout(timer);
      timer = setTimeout(flush, Math.min(15000, 1000 * 2 ** Math.min(failures, 4)));
    }).finally(() => { inFlight = null; });
    return inFlight;
  }

  root.querySelectorAll("[data-item]").forEach((el) => {
    const mark = () => { dirty.add(el.dataset.item); schedule(); };
    el.addEventListener("input", mark);
    el.addEventListener("change", mark);
    // The kernel editor writes its textarea from script (no input event): look for changes.
    const source = el.querySelector("textarea[name=source]");
    if (source) {
      let last = source.value;
      setInterval(() => { if (source.value !== last) { last = source.value; mark(); } }, 2000);
    }
  });

  // Before leaving (a submit, a link), send what is dirty; warn if something is not saved. Not once
  // the exam is closed (its own redirect) or a form or data-flush link is on its way out.
  let leaving = false;
  window.addEventListener("beforeunload", (event) => {
    if (closed || leaving) return;
    if (dirty.size || inFlight) { flush(); event.preventDefault(); event.returnValue = ""; }
  });
  // Every form of the page leaves it (the kernel's submit, the language switch, log out), so each
  // one sends what is dirty first; links do so where they carry data-flush.
  document.querySelectorAll("a[data-flush], form").forEach((el) => {
    const isForm = el.tagName === "FORM";
    el.addEventListener(isForm ? "submit" : "click", (event) => {
      if (event.defaultPrevented) return;
      // A link opened in another tab or window leaves nothing: this page stays and keeps its warning.
      if (!isForm && (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey)) return;
      if (isForm) {
        // A form that is itself an item posts its own answer (the kernel's source): no autosave of
        // it is needed first. Its token is refreshed, as a log-in elsewhere may have renewed it.
        if (el.dataset.item) dirty.delete(el.dataset.item);
        const token = el.querySelector("input[name=csrfmiddlewaretoken]");
        if (token) token.value = csrfToken();
      }
      if (!dirty.size || el.dataset.flushed) {
        leaving = !dirty.size;
        return;
      }
      event.preventDefault();
      flush().then(() => {
        // A save that failed left its items dirty: then the browser's warning still asks.
        leaving = !dirty.size;
        if (!isForm) { window.location.href = el.href; return; }
        // Submit again with the same button (the language switch posts the button's value); once.
        el.dataset.flushed = "1";
        if (el.requestSubmit) el.requestSubmit(event.submitter || undefined); else el.submit();
      });
    });
  });

  // A kernel submission uses an attempt: ask first when it is the last one, or when the kernel is
  // still the starter code. Capture phase on the document, so that a "no" stops the post before the
  // editor's own submit handler (which disables the button) runs.
  const kernelForm = document.getElementById("submit-form");
  if (kernelForm && kernelForm.dataset.attemptsLeft) {
    const starterEl = document.getElementById("kernel-starter");
    const parsed = starterEl ? JSON.parse(starterEl.textContent) : [];
    const starters = Array.isArray(parsed) ? parsed : [parsed];  // the starter in each language the package has
    document.addEventListener("submit", (event) => {
      if (event.target !== kernelForm) return;
      const f = kernelForm.dataset;
      const source = (kernelForm.querySelector("textarea[name=source]") || {}).value || "";
      // The Submit row is fetched again when a verdict arrives (a compile error gives its attempt back).
      const left = (document.getElementById("kernel-state") || kernelForm).dataset.attemptsLeft;
      const last = Number(left) === 1;
      const unchanged = starters.some((starter) => source.trim() === starter.trim());
      const text = last && unchanged ? f.textConfirmLastStarter : last ? f.textConfirmLast : unchanged ? f.textConfirmStarter : "";
      if (text && !window.confirm(text)) { event.preventDefault(); event.stopImmediatePropagation(); }
    }, true);
  }

  // Resync the clock (an extension by staff shows here) and notice a close by the server.
  // A removal from the course answers 409 with the state and its own sentence ("error").
  const syncTimer = setInterval(() => {
    fetch(d.stateUrl, { credentials: "same-origin", headers: { Accept: "application/json" } }).then((r) => r.json()).then((s) => {
      if (!s.state) return;  // logged out (401) or another refusal: the clock keeps its last time
      deadline = Date.parse(s.deadline);
      offset = Date.parse(s.server_now) - Date.now();
      if (s.state !== "open" && !closed) close(s.error || d.textTimeUp);
    }).catch(() => {});
  }, Number(d.syncMs || 30000));

  tick();
  setInterval(tick, 1000);
  window.warpdrillExam = { flush, dirty };
})();
