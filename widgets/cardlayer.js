// The board's cards: one widget draws every box's card into the map, and sends only what changed.
//
// The map holds one ipyleaflet Marker at the board's corner (Simple CRS [0, 0]) whose DivIcon is an empty
// host <div class="ahd-board-host" data-host="ID">; Leaflet keeps it where the corner is as the map pans
// and zooms. This view finds that host (now or when the map draws it), puts one absolutely placed slot
// per card in it at (x, y) * 2^zoom, and writes each card's HTML into its slot. The kernel sends a patch
// {box: html} for the cards that changed; clicks and the box under the mouse go back as {event, box}.

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

  function write(slot, html) {
    if (slot._html !== html) {
      slot.innerHTML = html;
      slot._html = html;
    }
  }

  function claim(host) {
    const slots = new Map();
    const geometry = model.get("geometry");
    const cards = model.get("cards");
    for (const box of Object.keys(geometry)) {
      const slot = document.createElement("div");
      slot.className = "ahd-slot";
      slot.style.width = `${geometry[box][2]}px`;
      slot.style.height = `${geometry[box][3]}px`;
      place(slot, box);
      write(slot, cards[box] || "");
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
      if (card && host.contains(card) && card.dataset.box !== hovered) {
        hovered = card.dataset.box;
        model.send({ event: "hover", box: hovered });
      }
    });
    drawn.set(host, slots);
  }

  function scan() {
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
      for (const [box, slot] of slots) write(slot, cards[box] || "");
    }
  }

  function rezoom() {
    for (const slots of drawn.values()) {
      for (const [box, slot] of slots) place(slot, box);
    }
  }

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
  };
}

export default { initialize, render };
