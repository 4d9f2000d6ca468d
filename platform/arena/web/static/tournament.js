// A tournament page while it runs: polls the JSON API, updates the progress and status at once and,
// when a match or round has changed, swaps in the page's result sections (bracket, rounds or cross
// table, standings, matches) as the server draws them; until the tournament has finished or was
// cancelled.
(function () {
  "use strict";
  const root = document.getElementById("tournament");
  const ENDED = ["finished", "cancelled"];
  if (!root || ENDED.indexOf(root.dataset.status) >= 0) {
    return;
  }
  const POLL_MS = 1500;
  const SECTIONS = ["[data-outcome]", "[data-result]", "[data-standings-section]", "[data-matches-section]"];
  let drawn = null;

  function setStatus(element, status) {
    element.textContent = status;
    element.className = "status status-" + status;
  }

  function signature(t) {
    return t.status + "|" + t.matches.map(function (m) { return m.id + ":" + m.status; }).join(",");
  }

  function updateProgress(t) {
    const p = t.progress;
    const bar = root.querySelector("progress.progress");
    bar.max = p.total || 1;
    bar.value = p.total ? p.done : 1;
    root.querySelector("[data-progress-text]").textContent = p.done + " / " + p.total + " matches done";
    root.querySelector("[data-progress-detail]").textContent =
      p.finished + " finished, " + p.aborted + " aborted, " + p.cancelled + " cancelled, " +
      p.running + " running, " + p.queued + " queued";
    setStatus(root.querySelector(".facts [data-status]"), t.status);
    root.dataset.status = t.status;
  }

  function redraw() {
    return fetch(window.location.pathname, { headers: { Accept: "text/html" } })
      .then(function (answer) { return answer.text(); })
      .then(function (html) {
        const page = new DOMParser().parseFromString(html, "text/html");
        SECTIONS.forEach(function (selector) {
          const fresh = page.querySelector("#tournament " + selector);
          const current = root.querySelector(selector);
          if (fresh && current) {
            current.replaceWith(document.importNode(fresh, true));
          }
        });
      });
  }

  function poll() {
    fetch(root.dataset.api, { headers: { Accept: "application/json" } })
      .then(function (answer) { return answer.json(); })
      .then(function (t) {
        updateProgress(t);
        const now = signature(t);
        const changed = now !== drawn; // the first look redraws: play may have moved since the page was served
        drawn = now;
        return (changed ? redraw() : Promise.resolve()).then(function () {
          if (ENDED.indexOf(t.status) < 0) {
            setTimeout(poll, POLL_MS);
          }
        });
      })
      .catch(function () { setTimeout(poll, POLL_MS); });
  }
  setTimeout(poll, POLL_MS);
}());
