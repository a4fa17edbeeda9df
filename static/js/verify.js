// "Verify this deal" on the game page (docs/fairness.md): this browser recomputes, with Web
// Crypto, that SHA-256(secret) is the commitment shown before the start and that the seed
// follows from the secret, the commitment, the table, the attempt and every seat (fair-v2;
// fair-v1: the values and the table id), and that the value it sent is at the viewer's own
// seat; the deal
// check (which rounds' hands the seed deals) comes from the site's engine. The words are the
// page's language (Django's JavaScript catalogue, issue 26); the engine's own details stay as
// the engine writes them, like the command-line check's.
(function () {
  const panel = document.getElementById("fair-verify");
  const button = document.getElementById("fair-verify-button");
  if (!panel || !button) return;
  const list = document.getElementById("fair-checks");
  const verdict = document.getElementById("fair-verdict");

  const hexToBytes = (hex) => new Uint8Array(hex.match(/../g).map((pair) => parseInt(pair, 16)));
  const bytesToHex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

  // ``name`` is the check's code (kept on the item for tests and styles), ``title`` its words.
  function add(name, ok, detail, title) {
    const item = document.createElement("li");
    item.className = ok === null ? "note" : ok ? "ok" : "fail";
    item.dataset.check = name;
    const label = document.createElement("strong");
    label.textContent = interpolate(gettext("%(check)s: "), { check: title || name }, true);
    item.append(label, detail);
    list.append(item);
    return ok !== false;
  }

  const concat = (parts) => {
    const message = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
    let at = 0;
    for (const part of parts) { message.set(part, at); at += part.length; }
    return message;
  };
  const bigEndian = (number, width) => {  // an unsigned integer in ``width`` bytes
    const bytes = new Uint8Array(width);
    let rest = BigInt(number);
    for (let index = width - 1; index >= 0; index--) { bytes[index] = Number(rest & 0xffn); rest >>= 8n; }
    return bytes;
  };

  // fair-v1: commitment ‖ the players' values in seat order ‖ table id.
  function seedMessageV1(commitment, seats, table) {
    return concat([hexToBytes(commitment), ...seats.filter((seat) => seat.value).map((seat) => hexToBytes(seat.value)),
      bigEndian(table, 8)]);
  }

  // fair-v2 (docs/fairness.md): "fair-v2" 0x00 ‖ commitment ‖ table (8) ‖ attempt (4) ‖ seat count (1)
  // ‖ per seat: number (1), kind (1: 1 player, 2 bot), account (8), the player's value (16).
  function seedMessageV2(commitment, seats, table, attempt) {
    const parts = [new TextEncoder().encode("fair-v2\0"), hexToBytes(commitment), bigEndian(table, 8),
      bigEndian(attempt, 4), bigEndian(seats.length, 1)];
    for (const seat of seats) {
      parts.push(bigEndian(seat.seat, 1), bigEndian(seat.by === "player" ? 1 : 2, 1), bigEndian(seat.account, 8));
      if (seat.by === "player") parts.push(hexToBytes(seat.value));
    }
    return concat(parts);
  }

  async function browserChecks() {
    const { version, commitment, secret, table, attempt, hmac, seed, viewerSeat, viewerAccount } = panel.dataset;
    const seats = Array.from(panel.querySelectorAll(".fair-values li"), (li) => ({
      seat: Number(li.dataset.seat), by: li.dataset.by, account: li.dataset.account, value: li.dataset.value || null,
    }));
    const hash = bytesToHex(await crypto.subtle.digest("SHA-256", hexToBytes(secret)));
    let ok = add("commitment", hash === commitment,
      interpolate(gettext("SHA-256(secret) = %(hash)s…, the commitment shown before the start is %(commitment)s…"),
        { hash: hash.slice(0, 16), commitment: commitment.slice(0, 16) }, true), gettext("commitment"));
    const key = await crypto.subtle.importKey("raw", hexToBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const v2 = version === "fair-v2";
    const message = v2 ? seedMessageV2(commitment, seats, table, attempt) : seedMessageV1(commitment, seats, table);
    const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
    const derived = new DataView(digest.buffer).getBigUint64(0) >> 2n;  // the first 62 bits
    const inputs = v2
      ? interpolate(gettext("commitment, table %(table)s, attempt %(attempt)s, every seat with its kind and account"),
        { table: table, attempt: attempt }, true)
      : interpolate(gettext("commitment ‖ values ‖ table %(table)s"), { table: table }, true);
    ok = add("seed", bytesToHex(digest) === hmac && derived.toString() === seed,
      interpolate(gettext("HMAC-SHA256(secret, %(inputs)s) gives seed %(derived)s; the game was dealt from %(seed)s"),
        { inputs: inputs, derived: derived.toString(), seed: seed }, true), gettext("seed")) && ok;
    const sent = localStorage.getItem("fair-sent:" + commitment);
    if (sent && viewerSeat !== "") {
      // Your value must be at your own seat (and, in fair-v2, under your own account), not anywhere.
      const mine = seats.find((entry) => entry.seat === Number(viewerSeat));
      const atMySeat = !!mine && mine.value === sent && (!v2 || (mine.by === "player" && mine.account === viewerAccount));
      ok = add("your value", atMySeat,
        interpolate(gettext("this browser sent %(value)s with “ready”; seat %(seat)s was dealt with %(used)s"),
          { value: sent, seat: Number(viewerSeat) + 1, used: (mine && mine.value) || "—" }, true),
        gettext("your value")) && ok;
    } else if (!sent && viewerSeat !== "" && panel.querySelector(".fair-values li[data-mine=yes][data-value]:not([data-value=''])")) {
      // Issue 37: the player's value came from another of their browsers or devices.
      const mine = panel.querySelector(".fair-values li[data-mine=yes]").dataset.value;
      add("your value", null, interpolate(gettext("your value %(value)s is in the list; it was sent from another browser or device of yours"),
        { value: mine }, true), gettext("your value"));
    } else if (sent) {
      add("your value", null, gettext("this browser sent a value to this game, but you are not signed in as one of its players"),
        gettext("your value"));
    } else {
      add("your value", null, gettext("this browser sent no value to this game (compare your own note of it, if you played)"),
        gettext("your value"));
    }
    return ok;
  }

  async function serverChecks() {
    const response = await fetch(panel.dataset.checksUrl, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(interpolate(gettext("the site answered %(status)s"), { status: response.status }, true));
    const result = await response.json();
    if (!result.verifiable) return add("deal", false, result.message, gettext("deal"));
    let ok = true;
    // The engine's own checks of the inputs, commitment and seed repeat the browser's; its deal
    // checks (one per round) and the play check are what the browser cannot do alone.
    for (const check of result.checks) {
      if (["inputs", "commitment", "seed", "timing"].includes(check.name)) continue;
      ok = add(check.name + " (site's engine)", check.ok, check.detail,
        interpolate(gettext("%(check)s (site's engine)"), { check: check.name }, true)) && ok;
    }
    return ok;
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    list.replaceChildren();
    verdict.className = "fair-verdict";
    verdict.textContent = gettext("Checking…");
    let ok;
    try {
      if (!window.crypto || !crypto.subtle) throw new Error(gettext("this browser offers no Web Crypto here (it needs HTTPS)"));
      ok = await browserChecks();
      ok = (await serverChecks()) && ok;
    } catch (error) {
      ok = add("verification", false, String(error.message || error), gettext("verification"));
    }
    verdict.classList.add(ok ? "ok" : "fail");
    // Issue 55: with no player's value the checks show only that the record was not altered.
    const alone = panel.dataset.siteAlone === "yes";
    verdict.textContent = !ok
      ? gettext("✗ A check failed.")
      : alone
        ? gettext("✓ Every check passed, but no player sent a value: the deal is the site's secret alone.")
        : gettext("✓ Every check passed.");
    button.disabled = false;
  });
})();
