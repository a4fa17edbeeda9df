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

  function handle(text) {
    let frame;
    try {
      frame = JSON.parse(text).bell;
    } catch (error) {
      return;
    }
    if (!frame) return;
    if (typeof frame.unread === "number") showCount(frame.unread);
    if (frame.new) showNew(frame.new);
  }

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
