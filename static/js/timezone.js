// The reader's time zone for the server (accounts/timezones.py): the browser's IANA zone in the wd_tz
// cookie, so pages show times, and forms read them, in the reader's own clock with its zone named.
// Set on every page; a page shown before the cookie existed used the site's zone, and said so.
(() => {
  "use strict";
  let zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (err) { return; }
  if (!zone || !/^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone)) return;
  const current = document.cookie.split("; ").find((c) => c.startsWith("wd_tz="));
  if (current && current.slice(6) === zone) return;
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `wd_tz=${zone}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
})();
