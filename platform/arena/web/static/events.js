// Start times in the reader's own time zone (the page carries them in UTC) and a countdown to each;
// on a scheduled tournament's page, once its time has come, the page is read again until the
// tournament has started (the platform starts it within seconds).
(function () {
  "use strict";
  const root = document.getElementById("tournament");

  function localTime(iso) {
    const when = new Date(iso);
    if (isNaN(when.getTime())) {
      return null;
    }
    return when.toLocaleString(undefined, {
      weekday: "short", year: "numeric", month: "short", day: "numeric",
      hour: "2-digit", minute: "2-digit", timeZoneName: "short",
    });
  }

  function left(ms) {
    const s = Math.floor(ms / 1000);
    const d = Math.floor(s / 86400);
    const h = Math.floor((s % 86400) / 3600);
    const m = Math.floor((s % 3600) / 60);
    const parts = [];
    if (d) { parts.push(d + " d"); }
    if (d || h) { parts.push(h + " h"); }
    if (d || h || m) { parts.push(m + " min"); }
    if (!d) { parts.push((s % 60) + " s"); }
    return "in " + parts.join(" ");
  }

  document.querySelectorAll("[data-local]").forEach(function (element) {
    const shown = localTime(element.getAttribute("datetime"));
    if (shown) {
      element.title = element.textContent;  // the UTC time stays at hand
      element.textContent = shown;
    }
  });

  let reloading = false;
  function tick() {
    const now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach(function (element) {
      const at = new Date(element.dataset.countdown).getTime();
      element.textContent = at > now ? "(" + left(at - now) + ")" : "(starting)";
      if (at <= now && root && root.dataset.status === "scheduled" && !reloading) {
        reloading = true;
        poll();
      }
    });
  }

  function poll() {
    fetch(root.dataset.api, { headers: { Accept: "application/json" } })
      .then(function (answer) { return answer.json(); })
      .then(function (t) {
        if (t.status !== "scheduled") {
          window.location.reload();
        } else {
          window.setTimeout(poll, 2000);
        }
      })
      .catch(function () { window.setTimeout(poll, 5000); });
  }

  tick();
  window.setInterval(tick, 1000);
})();
