// The board's cards: one widget draws every box's card into the map, and sends only what changed.
//
// The map holds one ipyleaflet Marker at the board's corner (Simple CRS [0, 0]) whose DivIcon is an empty
// host <div class="ahd-board-host" data-host="ID">; Leaflet keeps it where the corner is as the map pans
// and zooms. This view finds that host (now or when the map draws it), puts one absolutely placed slot
// per card in it at (x, y) * 2^zoom, and writes each card's HTML into its slot. The kernel sends a patch
// {box: html} for the cards that changed; clicks and the box under the mouse go back as {event, box}.
//
// The keyboard: the board is one tab stop (roving tabindex: the card last focused, at first the first
// card); the arrow keys move to the nearest card in that direction, Enter or Space acts as a click,
// Escape cancels the selection. A focused card is also "hovered" (its state and odds show beside the
// map), and a card focused outside the map's view asks the kernel to bring it into view.

function initialize({ model }) {
  // patches keep the model's own copy of the cards current, so a view drawn later draws them as they are
  model.on("msg:custom", (msg) => {
    if (msg && msg.patch) {
      model.set("cards", Object.assign({}, model.get("cards"), msg.patch));
    }
  });
}

function render({ model, el }) {
  const selector = `.ahd-board-host[data-host="${model.get("host")}"]`;
  const drawn = new Map(); // host element -> Map(box -> slot element)
  let hovered = "";
  let current = ""; // the card holding the board's one tab stop

  function scale() {
    return Math.pow(2, model.get("zoom") || 0);
  }

  function place(slot, box) {
    const g = model.get("geometry")[box];
    if (!g) return;
    const z = scale();
    slot.style.left = `${g[0] * z - g[2] / 2}px`;
    slot.style.top = `${g[1] * z - g[3] / 2}px`;
  }

  function write(slot, html, box) {
    const focused = slot._html !== html && slot.contains(document.activeElement);
    if (slot._html !== html) {
      slot.innerHTML = html;
      slot._html = html;
    }
    const card = slot.firstElementChild;
    if (!card) return;
    card.tabIndex = box === current ? 0 : -1;
    if (focused) card.focus({ preventScroll: true }); // a card redrawn under the focus keeps it
  }

  function hover(box) {
    if (box !== hovered) {
      hovered = box;
      model.send({ event: "hover", box });
    }
  }

  // the nearest card from `box` in a direction (dx, dy): ahead of it, least off the line
  function neighbour(box, dx, dy) {
    const geometry = model.get("geometry");
    const [x0, y0] = geometry[box];
    let best = null;
    let score = Infinity;
    for (const [other, [x, y]] of Object.entries(geometry)) {
      const along = (x - x0) * dx + (y - y0) * dy;
      if (other === box || along <= 0) continue;
      const across = Math.abs((x - x0) * dy - (y - y0) * dx);
      const s = along + 2 * across;
      if (s < score) {
        score = s;
        best = other;
      }
    }
    return best;
  }

  function focusBox(host, box) {
    const slots = drawn.get(host);
    const previous = slots.get(current);
    current = box;
    if (previous && previous.firstElementChild) previous.firstElementChild.tabIndex = -1;
    const card = slots.get(box).firstElementChild;
    if (!card) return;
    card.tabIndex = 0;
    card.focus({ preventScroll: true });
    const map = host.closest(".leaflet-container");
    if (map) {
      const view = map.getBoundingClientRect();
      const rect = card.getBoundingClientRect();
      if (rect.left < view.left || rect.right > view.right || rect.top < view.top || rect.bottom > view.bottom) {
        model.send({ event: "reveal", box });
      }
    }
    hover(box);
  }

  const KEYS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  function claim(host) {
    const slots = new Map();
    const geometry = model.get("geometry");
    const cards = model.get("cards");
    if (!current) current = Object.keys(geometry)[0] || "";
    for (const box of Object.keys(geometry)) {
      const slot = document.createElement("div");
      slot.className = "ahd-slot";
      slot.style.width = `${geometry[box][2]}px`;
      slot.style.height = `${geometry[box][3]}px`;
      place(slot, box);
      write(slot, cards[box] || "", box);
      host.appendChild(slot);
      slots.set(box, slot);
    }
    host.addEventListener("click", (event) => {
      const card = event.target.closest("[data-box]");
      if (card && host.contains(card)) {
        model.send({ event: "click", box: card.dataset.box });
      }
    });
    host.addEventListener("mouseover", (event) => {
      const card = event.target.closest("[data-box]");
      if (card && host.contains(card)) hover(card.dataset.box);
    });
    host.addEventListener("focusin", (event) => {
      const card = event.target.closest("[data-box]");
      if (card && host.contains(card) && card.dataset.box !== current) focusBox(host, card.dataset.box);
    });
    host.addEventListener("keydown", (event) => {
      const card = event.target.closest("[data-box]");
      if (!card || !host.contains(card) || event.altKey || event.ctrlKey || event.metaKey) return;
      const box = card.dataset.box;
      if (event.key in KEYS) {
        const next = neighbour(box, ...KEYS[event.key]);
        if (next) focusBox(host, next);
      } else if (event.key === "Enter" || event.key === " ") {
        model.send({ event: "click", box });
      } else if (event.key === "Escape") {
        model.send({ event: "escape", box });
      } else {
        return;
      }
      event.preventDefault();
      event.stopPropagation();
    });
    drawn.set(host, slots);
  }

  function scan() {
    // elements the app marks "ahd-announce" (the prompt, the status line) are polite live regions: a
    // screen reader reads them when they change, with no copy of their text elsewhere in the page
    for (const said of document.querySelectorAll(".ahd-announce:not([aria-live])")) {
      said.setAttribute("aria-live", "polite");
      said.setAttribute("role", "status");
    }
    for (const host of drawn.keys()) {
      if (!host.isConnected) drawn.delete(host);
    }
    for (const host of document.querySelectorAll(selector)) {
      if (!drawn.has(host)) claim(host);
    }
  }

  function redraw() {
    const cards = model.get("cards");
    for (const slots of drawn.values()) {
      for (const [box, slot] of slots) write(slot, cards[box] || "", box);
    }
  }

  function rezoom() {
    for (const slots of drawn.values()) {
      for (const [box, slot] of slots) place(slot, box);
    }
  }

  // the live region of the game's new log lines (every move, the computer's and a classmate's too,
  // battles and their results), read politely by screen readers and hidden from the eye; a line goes
  // again once said, so the page holds no lasting copy of the log's text
  const live = document.createElement("div");
  live.className = "ahd-live";
  live.setAttribute("aria-live", "polite");
  live.setAttribute("role", "log");
  el.appendChild(live);
  function announce(msg) {
    if (msg && msg.clear) live.replaceChildren();
    if (!msg || typeof msg.announce !== "string" || !msg.announce) return;
    const line = document.createElement("p");
    line.textContent = msg.announce;
    live.appendChild(line);
    setTimeout(() => line.remove(), 5000);
  }
  model.on("msg:custom", announce);

  let pending = false;
  const observer = new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      scan();
    });
  });
  observer.observe(document.body, { childList: true, subtree: true });
  scan();
  model.on("change:cards", redraw);
  model.on("change:zoom", rezoom);
  return () => {
    observer.disconnect();
    model.off("change:cards", redraw);
    model.off("change:zoom", rezoom);
    model.off("msg:custom", announce);
  };
}

export default { initialize, render };
