// The devices page: ask this browser for a push subscription and give it to the site (away/views.py).
(function () {
  const button = document.getElementById("push-subscribe");
  const status = document.getElementById("push-status");
  if (!button) return;
  const say = (text) => { if (status) status.textContent = text; };
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    button.disabled = true;
    say(gettext("This browser cannot receive notices from sites."));
    return;
  }
  function keyBytes(base64url) {
    const base64 = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  }
  function csrfToken() {
    const headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
    return headers["X-CSRFToken"] || "";
  }
  function browserName() {
    const agent = navigator.userAgent;
    const browser = (agent.match(/(Edg|Firefox|Chrome|Safari)\/[\d.]+/) || ["Browser"])[0].split("/")[0].replace("Edg", "Edge");
    const system = (agent.match(/Android|iPhone|iPad|Windows|Mac OS X|Linux/) || [""])[0].replace("Mac OS X", "macOS");
    return system ? browser + " · " + system : browser;
  }
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        say(gettext("Notices are blocked for this site in your browser's settings."));
        return;
      }
      const registration = await navigator.serviceWorker.ready;
      const subscription = (await registration.pushManager.getSubscription()) || (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(button.dataset.vapidKey),
      }));
      const body = Object.assign(subscription.toJSON(), { name: browserName() });
      const response = await fetch(button.dataset.url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify(body),
        credentials: "same-origin",
      });
      const answer = await response.json();
      if (response.ok) {
        window.location.reload();
      } else {
        say(answer.error || gettext("Something went wrong. Try again."));
      }
    } catch (error) {
      say(gettext("Something went wrong. Try again."));
    } finally {
      button.disabled = false;
    }
  });
})();
