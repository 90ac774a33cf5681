// The reader's time zone for the server (accounts/timezones.py): the browser's IANA zone in the wd_tz
// cookie, so pages show times, and forms read them, in the reader's own clock with its zone named.
// Set on every page; a page shown before the cookie existed used the site's zone, and said so.
//
// WarpDrill.formatWhen(date) writes a time as the server's `when` filter does (accounts/core/times.py),
// "2026-12-05 20:08 KST", in the browser's zone: scripts that show a time use it, never toLocale*.
(() => {
  "use strict";
  let zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (err) { zone = ""; }

  function pad(n) { return String(n).padStart(2, "0"); }

  // The zone's abbreviation at `date` as zoneinfo names it: the page's hints for its own zone (the
  // <html> element's data-tz-abbrs, by UTC offset in minutes; Intl says "GMT+9" where zoneinfo says
  // "KST"), else Intl's short name where it is letters, else "UTC+09" / "UTC-03:30" / "UTC".
  function abbreviation(date) {
    const offset = -date.getTimezoneOffset();
    const html = document.documentElement;
    if (zone && html.dataset.tz === zone) {
      try {
        const hints = JSON.parse(html.dataset.tzAbbrs || "{}");
        if (hints[String(offset)]) return hints[String(offset)];
      } catch (err) { /* no hints: named below */ }
    }
    try {
      const part = new Intl.DateTimeFormat("en-US", { timeZone: zone || undefined, timeZoneName: "short" })
        .formatToParts(date).find((p) => p.type === "timeZoneName");
      if (part && /^[A-Z]{2,5}$/.test(part.value)) return part.value;
    } catch (err) { /* numeric below */ }
    if (offset === 0) return "UTC";
    const a = Math.abs(offset);
    return `UTC${offset < 0 ? "-" : "+"}${pad(Math.floor(a / 60))}${a % 60 ? `:${pad(a % 60)}` : ""}`;
  }

  // "YYYY-MM-DD HH:MM ZONE" in the browser's zone; "" for what is not a time.
  function formatWhen(value) {
    const date = value instanceof Date ? value : new Date(value);
    if (value === null || value === undefined || value === "" || Number.isNaN(date.getTime())) return "";
    const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
    return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())} ${abbreviation(date)}`;
  }

  window.WarpDrill = Object.assign(window.WarpDrill || {}, { formatWhen });

  if (!zone || !/^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone)) return;
  const current = document.cookie.split("; ").find((c) => c.startsWith("wd_tz="));
  if (current && current.slice(6) === zone) return;
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `wd_tz=${zone}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
})();
