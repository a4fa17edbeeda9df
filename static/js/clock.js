// The turn clock's countdown (issue 19). Each awaited seat's time comes from the deadline the
// server stored and pushed (data-clock-deadline, epoch ms); the fragment also carries the server's
// time when it was rendered (data-server-now), so a wrong clock on this computer does not matter.
// The last 10 seconds turn red, and the tab's title says when it is this player's turn.
(function () {
  const WARNING_MS = 10000;
  const baseTitle = document.title;
  let offset = 0; // server time minus this computer's time

  function live() {
    return document.getElementById("live");
  }

  function sync() {
    const el = live();
    if (el && el.dataset.serverNow) {
      offset = Number(el.dataset.serverNow) - Date.now();
    }
    const myTurn = el && el.dataset.myTurn === "yes";
    document.title = myTurn ? interpolate(gettext("Your turn · %(title)s"), { title: baseTitle }, true) : baseTitle;
    tick();
  }

  function tick() {
    const now = Date.now() + offset;
    document.querySelectorAll("[data-clock-deadline]").forEach((el) => {
      const left = Number(el.dataset.clockDeadline) - now;
      // Written only when it changes: a write lays out and repaints the page, four times a second.
      // The unit is the language's own ("ث" in Arabic), the same words as the server's first render.
      const text = interpolate(gettext("%(seconds)s s"), { seconds: Math.max(0, Math.ceil(left / 1000)) }, true);
      if (el.textContent !== text) el.textContent = text;
      if (el.classList.contains("warning") !== left <= WARNING_MS) el.classList.toggle("warning");
      // Issue 37: the time left as a bar in the chip (CSS --left, from 1 down to 0).
      const total = Number(el.dataset.clockTotal);
      if (total) {
        const share = Math.max(0, Math.min(1, left / total)).toFixed(2);
        if (el.style.getPropertyValue("--left") !== share) el.style.setProperty("--left", share);
      }
    });
  }

  document.body.addEventListener("htmx:wsAfterMessage", sync);
  sync();
  setInterval(tick, 250);
})();
