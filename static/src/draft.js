// An unsent draft of the problem page's form (the kernel and the launch fields), kept in
// localStorage per user and problem, so that a reload (switching the page language, say) does not
// throw away what the student typed. Storage that is full, disabled or missing only means there is
// no draft: every access is guarded, and the editor works the same without it.
//
// A draft's life: saved while the student types (when it differs from what the server filled in);
// restored on the next load of the page with a notice, when it differs from what the server filled
// in then, except on a page opened by "Edit and resubmit" (the form carries data-from-submission):
// there the reopened submission wins, and the draft is only offered (#draft-offer: Restore draft,
// Discard draft); marked "sent" when the form is submitted, and removed by the submission page the
// successful submit lands on. A submit the server refuses re-renders the page with the posted
// text, which becomes the draft again; a submit that never arrived leaves a sent draft, restored
// on the next visit like any other.

const PREFIX = "warpdrill:draft:v1:";
const SAVE_DELAY_MS = 400;
// A sent draft is removed by a submission page only this soon after sending: later it is more
// likely a submit that failed on the way, followed by browsing.
const SENT_FRESH_MS = 10 * 60 * 1000;

function store() {
  try {
    return window.localStorage || null;
  } catch {
    return null; // Access itself throws where storage is disabled.
  }
}

/** The stored draft {source, fields: {name: value}, savedAt, sentAt?} for a key, or null. */
export function readDraft(key) {
  try {
    const raw = store()?.getItem(PREFIX + key);
    const draft = raw ? JSON.parse(raw) : null;
    const valid = draft && typeof draft.source === "string" && draft.fields && typeof draft.fields === "object";
    return valid ? draft : null;
  } catch {
    return null;
  }
}

function writeDraft(key, draft) {
  try {
    store()?.setItem(PREFIX + key, JSON.stringify(draft));
  } catch {
    // Quota exceeded or storage disabled: no draft, nothing else changes.
  }
}

function removeDraft(key) {
  try {
    store()?.removeItem(PREFIX + key);
  } catch {
    // As above.
  }
}

/** On a submission page: remove the draft of its problem if it was just sent (the submit arrived). */
export function clearSentDraft(key) {
  const draft = readDraft(key);
  if (draft && typeof draft.sentAt === "number" && Date.now() - draft.sentAt < SENT_FRESH_MS) removeDraft(key);
}

function sameState(a, b, names) {
  return a.source === b.source && names.every((name) => (a.fields[name] ?? "") === (b.fields[name] ?? ""));
}

/**
 * Keep the draft of `form` (which carries data-draft-key) in sync with the CodeMirror `view` and
 * the form's text inputs; restore a differing draft now, showing #draft-notice.
 * Returns a function to call on every document change of the editor.
 */
export function keepDraft(form, view) {
  const key = form.dataset.draftKey;
  if (!key) return () => {};
  const inputs = Array.from(form.querySelectorAll("input[type=text][name]"));
  const names = inputs.map((input) => input.name);
  const notice = form.querySelector("#draft-notice");
  const offer = form.querySelector("#draft-offer");
  // Notes about what the server filled in ("Filled in from submission #7"), wrong while a draft is shown.
  const servedNotes = Array.from(form.querySelectorAll("[data-served-note]"));
  const current = () => ({
    source: view.state.doc.toString(),
    fields: Object.fromEntries(inputs.map((input) => [input.name, input.value])),
  });
  // The source and the launch fields go together, always: a draft's source graded with another
  // launch is not what the student wrote.
  const apply = (state) => {
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: state.source } });
    inputs.forEach((input) => { input.value = state.fields[input.name] ?? ""; });
    servedNotes.forEach((note) => { note.hidden = state !== served; });
  };
  // What the server filled in: on a refused submit that is the posted, unsent text itself.
  const served = current();
  const refused = form.hasAttribute("data-draft-unsent");
  const reopened = form.hasAttribute("data-from-submission");
  let sending = false;
  let timer = null;
  // The draft offered on a reopened submission's page, until the student restores or discards it.
  let offered = null;

  const save = () => {
    clearTimeout(timer);
    timer = null;
    const state = current();
    // Untouched, the reopened submission is no draft, and the offered one stays stored (submitting
    // the reopened submission unchanged keeps it too). Edits to the reopened form are newer work,
    // kept as the draft like any other; the offer still restores the draft it was made for.
    if (offered && sameState(state, served, names)) return;
    if (sending) writeDraft(key, { ...state, savedAt: Date.now(), sentAt: Date.now() });
    else if (!refused && sameState(state, served, names)) removeDraft(key);
    else writeDraft(key, { ...state, savedAt: Date.now() });
  };
  const saveSoon = () => {
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY_MS);
  };

  // Show `draft` (source and launch fields) in the form with #draft-notice, whose Discard brings
  // back what the server filled in.
  const restore = (draft) => {
    apply(draft);
    writeDraft(key, { source: draft.source, fields: draft.fields, savedAt: Date.now() }); // unsent again
    if (notice) {
      notice.hidden = false;
      notice.querySelector("#draft-discard")?.addEventListener("click", () => {
        apply(served);
        removeDraft(key);
        notice.hidden = true;
        view.focus();
      }, { once: true });
    }
  };

  const draft = readDraft(key);
  if (refused) {
    save();
  } else if (draft && sameState(draft, served, names)) {
    removeDraft(key);
  } else if (draft && reopened) {
    // "Edit and resubmit": the reopened submission wins; the draft is only offered.
    offered = draft;
    if (offer) {
      offer.hidden = false;
      offer.querySelector("#draft-restore")?.addEventListener("click", () => {
        offer.hidden = true;
        restore(offered);
        offered = null;
        view.focus();
      });
      offer.querySelector("#draft-offer-discard")?.addEventListener("click", () => {
        offer.hidden = true;
        // Only the offered draft goes: edits made to the reopened form since then are kept.
        const stored = readDraft(key);
        if (stored && sameState(stored, offered, names)) removeDraft(key);
        offered = null;
        view.focus();
      });
    }
  } else if (draft) {
    restore(draft);
  }

  inputs.forEach((input) => input.addEventListener("input", saveSoon));
  form.addEventListener("submit", () => { sending = true; save(); });
  // Leaving the page (a language switch is a form post) must not wait for the timer.
  window.addEventListener("pagehide", () => { if (timer !== null) save(); });
  // Back from the submission page (the back/forward cache): this page's text is a draft again.
  window.addEventListener("pageshow", (event) => { if (event.persisted) sending = false; });
  return saveSoon;
}
