// The table page's socket glue. htmx's ws extension does the work: it connects, sends a
// form's fields as JSON (ws-send) and swaps incoming fragments by id. Here we only keep
// the version we last saw and ask for a resync when a push skipped one.
(function () {
  const socket = document.getElementById("table-socket");
  const status = document.getElementById("socket-status");
  let lastVersion = null;
  let ws = null;

  // Issue 28: after a drop (a server or Redis restart closes every socket at once) wait a random
  // time up to a ceiling that doubles per failed try, 0.5 s to 4 s ("full jitter"), so the
  // sockets come back spread out; htmx's own ceiling grows to 64 s, too long for a player.
  htmx.config.wsReconnectDelay = (retries) => Math.random() * Math.min(4000, 500 * 2 ** retries);

  function currentVersion() {
    const live = document.getElementById("live");
    return live ? parseInt(live.dataset.version || "0", 10) : null;
  }

  socket.addEventListener("htmx:wsOpen", (event) => {
    ws = event.detail.socketWrapper;
    status.textContent = "Connected.";
    status.classList.remove("offline");
  });
  socket.addEventListener("htmx:wsClose", () => {
    status.textContent = "Connection lost — reconnecting…";
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
