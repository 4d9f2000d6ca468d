// The replay viewer of a match page: steps through the board frames the server draws
// (/matches/<id>/board/<n>.svg), keeps the move list in step, and follows a match in play by
// polling the JSON API. No library: the page works with this file alone.
(function () {
  "use strict";
  const root = document.getElementById("viewer");
  if (!root) {
    return;
  }
  const PRELOAD = 3;
  const POLL_MS = 2000;
  const framesBase = root.dataset.frames;
  const hasBoard = root.dataset.boards === "1";
  const names = JSON.parse(root.dataset.names || "[]");
  const img = document.getElementById("board");
  const slider = root.querySelector("[data-slider]");
  const positionLabel = root.querySelector("[data-position-label]");
  const totalLabel = root.querySelector("[data-total-label]");
  const currentMove = root.querySelector("[data-current-move]");
  const tbody = root.querySelector("[data-moves]");
  const pane = root.querySelector(".moves-pane");
  const playButton = root.querySelector('[data-go="play"]');
  const speed = root.querySelector("[data-speed]");
  const preloaded = new Map();
  let total = Number(root.dataset.total) || 0;
  let position = 0;
  let timer = null;

  function frameUrl(n) {
    return framesBase + n + ".svg";
  }

  function preload(from) {
    if (!hasBoard) {
      return;
    }
    for (let n = from + 1; n <= Math.min(total, from + PRELOAD); n += 1) {
      if (!preloaded.has(n)) {
        const image = new Image();
        image.src = frameUrl(n);
        preloaded.set(n, image);
      }
    }
  }

  function rowFor(n) {
    return tbody ? tbody.querySelector('tr[data-n="' + n + '"]') : null;
  }

  function keepInView(row) {
    if (!pane || !row) {
      return;
    }
    const box = pane.getBoundingClientRect();
    const line = row.getBoundingClientRect();
    if (line.top < box.top + 30) {
      pane.scrollTop -= box.top + 30 - line.top;
    } else if (line.bottom > box.bottom) {
      pane.scrollTop += line.bottom - box.bottom;
    }
  }

  function describe(row) {
    if (!row) {
      return "the start";
    }
    const cells = row.querySelectorAll("td");
    const move = cells[2].querySelector("code");
    return "move " + row.dataset.n + ": seat " + cells[1].textContent.trim() + " played " + move.textContent.trim();
  }

  function show(n) {
    position = Math.max(0, Math.min(total, n));
    if (img) {
      img.src = frameUrl(position);
      img.alt = "the board after " + position + " moves";
    }
    if (slider) {
      slider.max = String(total);
      slider.value = String(position);
    }
    if (positionLabel) {
      positionLabel.textContent = String(position);
    }
    if (totalLabel) {
      totalLabel.textContent = String(total);
    }
    const previous = tbody ? tbody.querySelector("tr.current") : null;
    if (previous) {
      previous.classList.remove("current");
    }
    const row = rowFor(position);
    if (row) {
      row.classList.add("current");
      keepInView(row);
    } else if (pane && position === 0) {
      pane.scrollTop = 0;
    }
    if (currentMove) {
      currentMove.textContent = describe(row);
    }
    root.dataset.position = String(position);
    preload(position);
  }

  function stop() {
    if (timer !== null) {
      clearInterval(timer);
      timer = null;
    }
    if (playButton) {
      playButton.textContent = "▶ play";
      playButton.setAttribute("aria-label", "play");
    }
  }

  function play() {
    if (timer !== null) {
      stop();
      return;
    }
    if (position >= total) {
      show(0);
    }
    timer = setInterval(function () {
      if (position >= total) {
        stop();
      } else {
        show(position + 1);
      }
    }, Number(speed ? speed.value : 500));
    if (playButton) {
      playButton.textContent = "‖ pause";
      playButton.setAttribute("aria-label", "pause");
    }
  }

  const actions = {
    first: function () { stop(); show(0); },
    prev: function () { stop(); show(position - 1); },
    next: function () { stop(); show(position + 1); },
    last: function () { stop(); show(total); },
    play: play,
  };

  root.querySelectorAll("[data-go]").forEach(function (button) {
    button.addEventListener("click", function () {
      actions[button.dataset.go]();
    });
  });
  if (slider) {
    slider.addEventListener("input", function () {
      stop();
      show(Number(slider.value));
    });
  }
  if (speed) {
    speed.addEventListener("change", function () {
      if (timer !== null) {
        stop();
        play();
      }
    });
  }
  if (tbody) {
    tbody.addEventListener("click", function (event) {
      const row = event.target.closest("tr[data-n]");
      if (row) {
        stop();
        show(Number(row.dataset.n));
      }
    });
  }
  document.addEventListener("keydown", function (event) {
    const tag = event.target.tagName;
    if (event.altKey || event.ctrlKey || event.metaKey || tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      return;
    }
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", " ": "play" };
    const action = keys[event.key];
    if (tag === "BUTTON" && (event.key === " " || event.key === "Enter")) {
      return; // the focused button's own click does it
    }
    if (action && (slider || action !== "play")) {
      event.preventDefault();
      actions[action]();
    }
  });

  // -- a match in play: follow its status and, where the platform keeps them, its moves -------

  function cell(text, className) {
    return element("td", text, className);
  }

  function element(tag, text, className) {
    const made = document.createElement(tag);
    if (className) {
      made.className = className;
    }
    made.textContent = text;
    return made;
  }

  // the seat as the page's own rows show it: its colour, then its number and bot, cut to the cell
  function whoCell(seat) {
    const who = seat + " " + (names[seat] || "");
    const td = cell("", "who");
    td.title = who;
    td.appendChild(element("span", "", "seat-dot seat-" + seat));
    td.appendChild(element("span", who, "who-name"));
    return td;
  }

  // the move, and its fault under it when there was one
  function moveCell(move) {
    const td = cell("", "move");
    td.appendChild(element("code", JSON.stringify(move.move)));
    if (move.fault) {
      const fault = element("span", " " + (move.fault.detail || ""), "fault");
      fault.prepend(element("code", move.fault.kind));
      td.appendChild(fault);
    }
    return td;
  }

  function appendMoves(moves) {
    if (!tbody) {
      return;
    }
    moves.forEach(function (move) {
      const n = total + 1;
      const row = document.createElement("tr");
      row.dataset.n = String(n);
      row.appendChild(cell(String(n), "n"));
      row.appendChild(whoCell(move.seat));
      row.appendChild(moveCell(move));
      row.appendChild(cell(move.think_ms + " ms", "n"));
      tbody.appendChild(row);
      total = n;
    });
  }

  function follow() {
    const initial = root.dataset.status;
    const liveNote = root.querySelector("[data-live-count]");
    const movesFact = document.querySelector("[data-moves-played]");
    function poll() {
      fetch(root.dataset.api, { headers: { Accept: "application/json" } })
        .then(function (answer) { return answer.json(); })
        .then(function (match) {
          if (match.status !== initial) {
            window.location.reload();
            return null;
          }
          if (liveNote) {
            liveNote.textContent = String(match.moves);
          }
          if (movesFact) {
            movesFact.textContent = String(match.moves);
          }
          if (match.status !== "running" || match.moves <= total) {
            return null;
          }
          return fetch(root.dataset.live + "?start=" + total).then(function (answer) { return answer.json(); });
        })
        .then(function (live) {
          if (live && Array.isArray(live.moves) && live.moves.length) {
            const following = position === total;
            appendMoves(live.moves);
            show(following ? total : position);
          }
        })
        .catch(function () { /* the next poll tries again */ })
        .finally(function () { setTimeout(poll, POLL_MS); });
    }
    setTimeout(poll, POLL_MS);
  }

  const live = root.dataset.status === "queued" || root.dataset.status === "running";
  show(live ? total : 0); // a match in play opens on its latest position
  if (live) {
    follow();
  }
}());
