// Fair deals on the table page (docs/fairness.md, RULING P31): this browser draws the player's
// 16-byte random value with Web Crypto and sends it with "I'm ready" (the host's with "Start
// the game"). The player may type their own. The value is kept per commitment in the tab's
// session storage, so the page's pushes (which replace the panel) do not lose it, and it is
// remembered in local storage once sent, so the game page can show it was used.
(function () {
  const VALUE = /^[0-9a-f]{32}$/;

  function commitment() {
    const panel = document.getElementById("fair-deal");
    return panel ? panel.dataset.commitment || "" : "";
  }

  function drawValue() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function currentValue() {
    const key = "fair-value:" + commitment();
    let value = sessionStorage.getItem(key);
    if (value === null) {
      value = drawValue();
      sessionStorage.setItem(key, value);
    }
    return value;
  }

  function fillInput() {
    const input = document.getElementById("fair-value");
    if (!input || !commitment()) return;
    if (document.activeElement !== input) input.value = currentValue();
    input.classList.toggle("invalid", !VALUE.test(input.value.trim().toLowerCase()));
  }

  document.addEventListener("input", (event) => {
    if (event.target.id !== "fair-value") return;
    sessionStorage.setItem("fair-value:" + commitment(), event.target.value.trim().toLowerCase());
    event.target.classList.toggle("invalid", !VALUE.test(event.target.value.trim().toLowerCase()));
  });

  // htmx's ws extension builds each message from the form's fields; this adds the value.
  document.addEventListener("htmx:wsConfigSend", (event) => {
    const parameters = event.detail.parameters;
    if (parameters.command !== "ready" && parameters.command !== "start") return;
    const seen = commitment();
    if (!seen) return;  // no panel: the server says why it refuses
    const value = currentValue();
    parameters.entropy = value;
    localStorage.setItem("fair-sent:" + seen, value);
  });

  document.addEventListener("htmx:wsAfterMessage", fillInput);
  fillInput();
})();
