// The header's bell (notifications/live.py): its count stays live over the page's socket. A table
// page already has one, and the bell rides on it (frames {"bell": ...}, taken before htmx would swap
// them); any other page opens its own small socket, /ws/me/. A new notification shows for a
// few seconds under the bell; its words are put in as text, never as markup.
(function () {
  const count = document.getElementById("bell-count");
  const toast = document.getElementById("bell-toast");
  if (!count) return;
  let toastTimer = null;

  function showCount(unread) {
    count.textContent = String(unread);
    count.dataset.unread = String(unread);
    count.hidden = unread < 1;
    const words = document.getElementById("bell-count-words");
    if (words) words.textContent = interpolate(ngettext("%s unread", "%s unread", unread), [unread]);
  }

  function showNew(item) {
    if (!toast || !item) return;
    toast.replaceChildren();
    const link = document.createElement("a");
    link.href = item.url;
    link.textContent = item.text;
    toast.appendChild(link);
    toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toast.hidden = true; }, 8000);
  }

  // Issue 53: a notice with a deadline (a tournament round's table, RULING P80) is offered at once,
  // prominently, with its countdown. It never takes the player anywhere by itself, so nobody is
  // pulled out of a game in play; there it does not take the keyboard's focus either.
  let offerTimer = null;
  function showOffer(item) {
    const target = new URL(item.url, location.href);
    if (target.pathname === location.pathname) return; // already at that table
    let offer = document.getElementById("round-offer");
    if (!offer) {
      offer = document.createElement("section");
      offer.id = "round-offer";
      offer.className = "round-offer";
      offer.setAttribute("role", "alertdialog");
      offer.setAttribute("aria-labelledby", "round-offer-text");
      offer.setAttribute("aria-describedby", "round-offer-count");
      document.body.appendChild(offer);
    }
    offer.replaceChildren();
    const words = document.createElement("p");
    words.id = "round-offer-text";
    words.className = "round-offer-text";
    words.textContent = item.text;
    const count = document.createElement("p");
    count.id = "round-offer-count";
    count.className = "round-offer-count";
    const row = document.createElement("div");
    row.className = "row";
    const go = document.createElement("a");
    go.className = "button";
    go.id = "round-offer-go";
    go.href = item.url;
    go.textContent = gettext("Go to my table");
    const later = document.createElement("button");
    later.type = "button";
    later.className = "secondary";
    later.textContent = gettext("Later");
    later.addEventListener("click", () => { offer.hidden = true; clearInterval(offerTimer); });
    row.append(go, later);
    offer.append(words, count, row);
    const skew = item.now ? Date.now() - Date.parse(item.now) : 0;
    const deadline = Date.parse(item.until) + skew;
    function tick() {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      count.textContent = left > 0
        ? interpolate(ngettext("Your table starts in %s second: press “I'm ready” there.", "Your table starts in %s seconds: press “I'm ready” there.", left), [left])
        : gettext("Your table has started: the house plays your seat until you come.");
      if (left <= 0) clearInterval(offerTimer);
    }
    clearInterval(offerTimer);
    tick();
    offerTimer = setInterval(tick, 1000);
    // In a game in play it takes its own place at the top of the page, so it covers nothing the
    // player taps or reads (the seats, the clock, the dock); elsewhere it floats over the page.
    const inGame = document.querySelector('#live.has-dock[data-status="playing"]');
    offer.classList.toggle("in-game", Boolean(inGame));
    const main = document.getElementById("main");
    if (inGame && main && offer.parentElement !== main) main.prepend(offer);
    else if (!inGame && offer.parentElement !== document.body) document.body.appendChild(offer);
    offer.hidden = false;
    if (toast) toast.hidden = true;
    if (!inGame) go.focus();
  }

  function handle(text) {
    let frame;
    try {
      frame = JSON.parse(text).bell;
    } catch (error) {
      return;
    }
    if (!frame) return;
    if (typeof frame.unread === "number") showCount(frame.unread);
    if (frame.new && frame.new.until && frame.new.url) showOffer(frame.new);
    else if (frame.new) showNew(frame.new);
  }

  // The list open says it all: the note under the bell would only cover it.
  const menu = document.getElementById("bell-menu");
  if (menu) menu.addEventListener("toggle", () => { if (menu.open && toast) toast.hidden = true; });

  // The drop-down's list carries the count as it read it (after "Mark all read", say).
  document.body.addEventListener("htmx:afterSwap", (event) => {
    const now = document.getElementById("bell-count-now");
    if (now && event.target.id === "bell-list") showCount(parseInt(now.dataset.unread || "0", 10));
  });

  const tableSocket = document.getElementById("table-socket");
  if (tableSocket) {
    tableSocket.addEventListener("htmx:wsBeforeMessage", (event) => {
      const text = event.detail.message;
      if (typeof text !== "string" || !text.startsWith('{"bell"')) return;
      event.preventDefault(); // not HTML: htmx must not swap it
      handle(text);
    });
    return;
  }

  // The page's own socket: reconnect after a drop with a random wait up to a ceiling that doubles
  // per failed try (as the table's socket does); the server's own closes (4401 logged out, 4409
  // too many pages) are final.
  let tries = 0;
  function open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws/me/`);
    socket.addEventListener("open", () => { tries = 0; document.body.dataset.bell = "open"; });
    socket.addEventListener("message", (event) => handle(event.data));
    socket.addEventListener("close", (event) => {
      document.body.dataset.bell = "closed";
      if (event.code >= 4000 && event.code !== 4000) return;
      tries += 1;
      setTimeout(open, Math.random() * Math.min(30000, 1000 * 2 ** tries));
    });
  }
  open();
})();
