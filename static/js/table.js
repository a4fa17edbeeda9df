// The table page's socket glue. htmx's ws extension does the work: it connects, sends a
// form's fields as JSON (ws-send) and swaps incoming fragments by id. Here we only keep
// the version we last saw and ask for a resync when a push skipped one.
(function () {
  const socket = document.getElementById("table-socket");
  const status = document.getElementById("socket-status");
  let lastVersion = null;
  let ws = null;

  function currentVersion() {
    const live = document.getElementById("live");
    return live ? parseInt(live.dataset.version || "0", 10) : null;
  }

  socket.addEventListener("htmx:wsOpen", (event) => {
    ws = event.detail.socketWrapper;
    status.textContent = "Connected.";
    status.classList.remove("offline");
  });
  socket.addEventListener("htmx:wsClose", (event) => {
    // The server's own closes (4401 logged out, 4409 too many windows, 4429 flooding; RULINGS
    // P15, P16, P18) are not retried by htmx: say so, the flash says why.
    const code = event.detail && event.detail.event ? event.detail.event.code : 0;
    status.textContent = code >= 4000 ? "Disconnected — reload the page to reconnect." : "Connection lost — reconnecting…";
    status.classList.add("offline");
  });
  socket.addEventListener("htmx:wsAfterMessage", () => {
    const version = currentVersion();
    if (lastVersion !== null && version !== null && version > lastVersion + 1 && ws) {
      ws.send(JSON.stringify({ command: "resync" }));
    }
    lastVersion = version;
    const flash = document.getElementById("flash");
    if (flash && flash.textContent.trim()) {
      clearTimeout(flash._timer);
      flash._timer = setTimeout(() => { flash.innerHTML = ""; }, 5000);
    }
  });
  // The dismissal vote's countdown runs from the deadline the server stored (RULING S12).
  setInterval(() => {
    document.querySelectorAll("[data-deadline]").forEach((el) => {
      const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
      el.textContent = `${left} s`;
    });
  }, 500);
})();
