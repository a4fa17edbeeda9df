// Every page: the service worker (pages/pwa.py), whom the stored offline page belongs to, and the
// "Install" button, shown only where the browser offers installation (beforeinstallprompt).
(function () {
  const account = document.body.dataset.account || "";
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => navigator.serviceWorker.ready).then((registration) => {
      if (registration.active) registration.active.postMessage({ type: "account", account: account });
    }).catch(() => {});
    // Logging out forgets the offline page at once, before the next page could say so.
    document.querySelectorAll("form.logout").forEach((form) => {
      form.addEventListener("submit", () => {
        const worker = navigator.serviceWorker.controller;
        if (worker) worker.postMessage({ type: "account", account: "" });
      });
    });
  }
  const button = document.getElementById("install-app");
  if (!button) return;
  let offered = null;
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    offered = event;
    button.hidden = false;
  });
  button.addEventListener("click", async () => {
    if (!offered) return;
    offered.prompt();
    await offered.userChoice;
    offered = null;
    button.hidden = true;
  });
  window.addEventListener("appinstalled", () => { button.hidden = true; });
})();
