// A tournament page while it runs: polls the JSON API and updates progress, standings and the
// status of each match, until the tournament has finished.
(function () {
  "use strict";
  const root = document.getElementById("tournament");
  if (!root || root.dataset.status === "finished") {
    return;
  }
  const POLL_MS = 1500;

  function text(tag, value, className) {
    const element = document.createElement(tag);
    element.textContent = value;
    if (className) {
      element.className = className;
    }
    return element;
  }

  function botLink(id, name) {
    const link = text("a", name, "bot");
    link.href = "/bots/" + encodeURIComponent(id);
    return link;
  }

  function number(value) {
    return Number.isInteger(value) ? String(value) : value.toFixed(2);
  }

  function setStatus(element, status) {
    element.textContent = status;
    element.className = "status status-" + status;
  }

  function update(t) {
    const p = t.progress;
    const bar = root.querySelector(".progress");
    bar.setAttribute("aria-valuenow", String(p.done));
    bar.querySelector(".bar").style.width = (p.total ? (100 * p.done) / p.total : 100) + "%";
    root.querySelector("[data-progress-text]").textContent = p.done + " / " + p.total + " matches done";
    root.querySelector("[data-progress-detail]").textContent =
      p.finished + " finished, " + p.aborted + " aborted, " + p.running + " running, " + p.queued + " queued";
    setStatus(root.querySelector(".facts [data-status]"), t.status);
    root.dataset.status = t.status;

    const names = {};
    const body = root.querySelector("[data-standings]");
    body.replaceChildren();
    t.standings.forEach(function (r) {
      names[r.bot_id] = r.name;
      const row = document.createElement("tr");
      row.appendChild(text("td", String(r.rank), "n rank"));
      const who = document.createElement("td");
      who.appendChild(botLink(r.bot_id, r.name));
      row.appendChild(who);
      row.appendChild(text("td", String(r.played), "n"));
      row.appendChild(text("td", number(r.points), "n strong"));
      row.appendChild(text("td", String(r.wins), "n"));
      row.appendChild(text("td", String(r.draws), "n"));
      row.appendChild(text("td", String(r.losses), "n"));
      row.appendChild(text("td", number(r.score_sum), "n"));
      if (t.format === "swiss") {
        row.appendChild(text("td", number(r.byes), "n"));
        row.appendChild(text("td", number(r.buchholz), "n"));
      }
      body.appendChild(row);
    });

    t.matches.forEach(function (m) {
      const row = root.querySelector('tr[data-match-id="' + m.id + '"]');
      if (!row) {
        return;
      }
      setStatus(row.querySelector("[data-status]"), m.status);
      if (m.result) {
        const seats = row.querySelector(".seats");
        seats.replaceChildren();
        m.bots.forEach(function (bot, index) {
          const place = m.result.places[index];
          const seat = text("span", "", place === 1 ? "seat winner" : "seat");
          seat.appendChild(botLink(bot, names[bot] || bot));
          seat.appendChild(text("span", " (" + place + ")", "place"));
          seats.appendChild(seat);
          if (index < m.bots.length - 1) {
            seats.appendChild(text("span", " · ", "vs"));
          }
        });
      }
    });
  }

  function poll() {
    fetch(root.dataset.api, { headers: { Accept: "application/json" } })
      .then(function (answer) { return answer.json(); })
      .then(function (t) {
        update(t);
        if (t.status !== "finished") {
          setTimeout(poll, POLL_MS);
        }
      })
      .catch(function () { setTimeout(poll, POLL_MS); });
  }
  setTimeout(poll, POLL_MS);
}());
