// Every page: the service worker (pages/pwa.py), whom the stored offline page belongs to, and the
// "Install" button, shown only where the browser offers installation (beforeinstallprompt).
(function () {
  const account = document.body.dataset.account || "";
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => navigator.serviceWorker.ready).then((registration) => {
      if (registration.active) registration.active.postMessage({ type: "account", account: account });
    }).catch(() => {});
    // Logging out forgets the offline page and this browser's push subscription at once, so a
    // shared computer keeps nothing of the player who left: not their games, not their notices.
    document.querySelectorAll("form.logout").forEach((form) => {
      form.addEventListener("submit", (event) => {
        if (form.dataset.forgotten) return;
        event.preventDefault();
        form.dataset.forgotten = "1";
        const worker = navigator.serviceWorker.controller;
        if (worker) worker.postMessage({ type: "account", account: "" });
        const forget = navigator.serviceWorker.getRegistration().then((registration) => {
          if (!registration || !registration.pushManager) return null;
          return registration.pushManager.getSubscription();
        }).then((subscription) => {
          if (!subscription) return null;
          const data = new FormData();
          data.append("csrfmiddlewaretoken", form.querySelector("[name=csrfmiddlewaretoken]").value);
          data.append("endpoint", subscription.endpoint);
          navigator.sendBeacon(form.dataset.pushForget, data);
          return subscription.unsubscribe();
        }).catch(() => null);
        const enough = new Promise((resolve) => setTimeout(resolve, 1500));
        Promise.race([forget, enough]).then(() => form.submit());
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
