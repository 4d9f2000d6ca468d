// The replay viewer of a match page: steps through the board frames the server draws
// (/matches/<id>/board/<n>.svg), keeps the move list in step, and follows a match in play by
// polling the JSON API. No library: the page works with this file alone.
//
// The position has an address, #move=N (N moves played; 0 is the start): the page opens there,
// and without one at the end of the match (the latest position of a match in play). Every step a
// spectator takes is an entry of the browser's history (pushState), so back and forward go through
// the positions visited; a drag of the slider or a playback is one entry, its steps replacing it
// (replaceState) rather than filling the history with every move it passed.
(function () {
  "use strict";
  const root = document.getElementById("viewer");
  if (!root) {
    return;
  }
  const PRELOAD = 3;
  const POLL_MS = 2000;
  const ZOOMS = [1, 1.5, 2, 3, 4];
  const FRAGMENT = /^#move=(\d+)$/;
  const framesBase = root.dataset.frames;
  const hasBoard = root.dataset.boards === "1";
  const names = JSON.parse(root.dataset.names || "[]");
  const img = document.getElementById("board");
  const slider = root.querySelector("[data-slider]");
  const positionLabel = root.querySelector("[data-position-label]");
  const totalLabel = root.querySelector("[data-total-label]");
  const currentMove = root.querySelector("[data-current-move]");
  const currentJson = root.querySelector("[data-current-json]");
  const positionLink = root.querySelector("[data-position-link]");
  const frame = root.querySelector("[data-board-frame]");
  const zoomLabel = root.querySelector("[data-zoom-label]");
  const tbody = root.querySelector("[data-moves]");
  const pane = root.querySelector(".moves-pane");
  const playButton = root.querySelector('[data-go="play"]');
  const speed = root.querySelector("[data-speed]");
  const preloaded = new Map();
  let total = Number(root.dataset.total) || 0;
  let position = 0;
  let timer = null;
  let continuing = false; // a slider drag or a playback under way: its steps share one history entry
  let zoom = 0;

  function frameUrl(n) {
    return framesBase + n + ".svg";
  }

  // the frames a step either way shows next
  function preload(from) {
    if (!hasBoard) {
      return;
    }
    for (let n = Math.max(0, from - PRELOAD); n <= Math.min(total, from + PRELOAD); n += 1) {
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

  // the row within the part of the move list the window shows (below its header)
  function keepInView(row) {
    if (!pane || !row) {
      return;
    }
    const box = pane.getBoundingClientRect();
    const line = row.getBoundingClientRect();
    const top = box.top + 30;
    const shownBottom = Math.min(box.bottom, window.innerHeight);
    const bottom = shownBottom - top > 2 * line.height ? shownBottom : box.bottom;
    if (line.top < top) {
      pane.scrollTop -= top - line.top;
    } else if (line.bottom > bottom) {
      pane.scrollTop += line.bottom - bottom;
    }
  }

  // a position opened from its address: its row in the middle of the move list
  function centre(row) {
    if (pane && row) {
      pane.scrollTop = row.offsetTop - pane.clientHeight / 2;
    }
  }

  function describe(row) {
    if (!row) {
      return "the start";
    }
    const cells = row.querySelectorAll("td");
    const words = cells[2].querySelector(".words");
    return "move " + row.dataset.n + ": seat " + cells[1].textContent.trim() + " played " + words.textContent.trim();
  }

  function fragmentPosition() {
    const found = FRAGMENT.exec(window.location.hash);
    return found ? Number(found[1]) : null;
  }

  // the position into the address: a new history entry, or the current one while continuing
  function remember() {
    const hash = "#move=" + position;
    if (window.location.hash === hash) {
      return;
    }
    if (continuing) {
      history.replaceState(null, "", hash);
    } else {
      history.pushState(null, "", hash);
    }
  }

  // the position a spectator asked for: show it and keep it in the address
  function go(n) {
    show(n);
    remember();
  }

  // the address's position, or the end without one: on opening, and on back / forward
  function showAddressed() {
    const asked = fragmentPosition();
    show(asked === null ? total : asked);
    centre(rowFor(position));
    if (asked !== null && asked !== position) { // past the end: the address says where it is
      history.replaceState(null, "", "#move=" + position);
    }
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
    if (currentJson) {
      currentJson.textContent = row ? row.querySelectorAll("td")[2].title : "the start: no move yet";
    }
    if (positionLink) {
      positionLink.href = "#move=" + position;
    }
    root.dataset.position = String(position);
    preload(position);
  }

  function stop() {
    if (timer !== null) {
      clearInterval(timer);
      timer = null;
    }
    continuing = false;
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
      go(0);
      continuing = true;
    }
    timer = setInterval(function () {
      if (position >= total) {
        stop();
      } else {
        go(position + 1);
        continuing = true;
      }
    }, Number(speed ? speed.value : 500));
    if (playButton) {
      playButton.textContent = "‖ pause";
      playButton.setAttribute("aria-label", "pause");
    }
  }

  const actions = {
    first: function () { stop(); go(0); },
    prev: function () { stop(); go(position - 1); },
    next: function () { stop(); go(position + 1); },
    last: function () { stop(); go(total); },
    play: play,
  };

  // the board at a multiple of its frame's width, scrolled within the frame, its centre kept
  function setZoom(level) {
    if (!frame || !img) {
      return;
    }
    level = Math.max(0, Math.min(ZOOMS.length - 1, level));
    const centreX = (frame.scrollLeft + frame.clientWidth / 2) / Math.max(1, img.clientWidth);
    const centreY = (frame.scrollTop + frame.clientHeight / 2) / Math.max(1, img.clientHeight);
    zoom = level;
    frame.classList.toggle("zoomed", zoom > 0);
    img.style.width = ZOOMS[zoom] * 100 + "%";
    frame.scrollLeft = centreX * img.clientWidth - frame.clientWidth / 2;
    frame.scrollTop = centreY * img.clientHeight - frame.clientHeight / 2;
    root.dataset.zoom = String(ZOOMS[zoom]);
    if (zoomLabel) {
      zoomLabel.textContent = zoom ? ZOOMS[zoom] + "×" : "fit";
    }
  }

  root.querySelectorAll("[data-zoom]").forEach(function (button) {
    button.addEventListener("click", function () {
      setZoom(zoom + Number(button.dataset.zoom));
    });
  });

  root.querySelectorAll("[data-go]").forEach(function (button) {
    button.addEventListener("click", function () {
      actions[button.dataset.go]();
    });
  });
  if (slider) {
    slider.addEventListener("input", function () {
      const dragging = continuing && timer === null;
      stop();
      continuing = dragging;
      go(Number(slider.value));
      continuing = true;
    });
    slider.addEventListener("change", function () {
      continuing = false;
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
        go(Number(row.dataset.n));
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
    const zooms = { "+": 1, "=": 1, "-": -1 };
    if (frame && zooms[event.key]) {
      event.preventDefault();
      setZoom(zoom + zooms[event.key]);
      return;
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

  // the move in words (its JSON on hover), and its fault under it when there was one, with what
  // the bot sent when the replay keeps it
  function moveCell(move) {
    const td = cell("", "move");
    td.title = JSON.stringify(move.move);
    td.appendChild(element("span", move.words || td.title, "words"));
    if (move.source === "fallback") {
      td.appendChild(document.createTextNode(" "));
      td.appendChild(element("span", "fallback", "badge"));
    }
    if (move.fault) {
      const fault = element("span", " " + (move.fault.detail || ""), "fault");
      fault.prepend(element("code", move.fault.kind));
      td.appendChild(fault);
      if (move.fault.sent) {
        const sent = element("span", "it sent ", "sent");
        sent.appendChild(element("code", move.fault.sent));
        td.appendChild(sent);
      }
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
            if (following && fragmentPosition() !== null) { // a spectator at the latest move stays there
              history.replaceState(null, "", "#move=" + total);
            }
          }
        })
        .catch(function () { /* the next poll tries again */ })
        .finally(function () { setTimeout(poll, POLL_MS); });
    }
    setTimeout(poll, POLL_MS);
  }

  window.addEventListener("popstate", function () { stop(); showAddressed(); });
  window.addEventListener("hashchange", function () { stop(); showAddressed(); });
  showAddressed();
  if (root.dataset.status === "queued" || root.dataset.status === "running") {
    follow();
  }
}());
