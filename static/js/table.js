// The table page's socket glue. htmx's ws extension does the work: it connects, sends a
// form's fields as JSON (ws-send) and swaps incoming fragments by id. Here we only keep
// what the page says and sounds. A push is either the whole current view or, in play, only the
// regions that changed since this socket's last push (tables/render/regions.py), with #live's own
// attributes in #live-meta; no resync is asked for (a socket's pushes come in order, and a
// reconnect or a refused command brings the whole view from the server itself).
(function () {
  const socket = document.getElementById("table-socket");
  const status = document.getElementById("socket-status");
  const announcer = document.getElementById("announcer");
  const soundToggle = document.getElementById("sound-toggle");
  let last = readLive();
  let focusInGame = false;

  // Issue 28: after a drop (a server or Redis restart closes every socket at once) wait a random
  // time up to a ceiling that doubles per failed try, 0.5 s to 4 s ("full jitter"), so the
  // sockets come back spread out; htmx's own ceiling grows to 64 s, too long for a player.
  // htmx is loaded with defer, after this script runs: set it once htmx is there.
  // RULINGS P16, P51: a handshake the site refused (too many windows, too many openings from this
  // network) is retried no sooner than the site says, which the page asks for after the refusal.
  let holdUntil = 0;
  function jitteredReconnects() {
    htmx.config.wsReconnectDelay = (retries) =>
      Math.max(0, holdUntil - Date.now()) + Math.random() * Math.min(4000, 500 * 2 ** retries);
  }
  if (window.htmx) jitteredReconnects();
  else document.addEventListener("DOMContentLoaded", jitteredReconnects);

  function currentVersion() {
    const live = document.getElementById("live");
    return live ? parseInt(live.dataset.version || "0", 10) : null;
  }

  // What the page says and sounds depend on, read from #live's data attributes.
  function readLive() {
    const live = document.getElementById("live");
    if (!live) return { myTurn: false, tricks: "", announce: "", over: false };
    return {
      myTurn: live.dataset.myTurn === "yes",
      tricks: live.dataset.tricks || "",
      announce: live.dataset.announce || "",
      over: !!document.getElementById("result"),
    };
  }

  // Sounds: off by default; the choice is remembered in this browser (RULING P44).
  const SOUND_KEY = "sitaratas.sounds";
  let audio = null;
  function soundsOn() { return localStorage.getItem(SOUND_KEY) === "on"; }
  function showSoundState() {
    if (!soundToggle) return;
    soundToggle.setAttribute("aria-pressed", String(soundsOn()));
    soundToggle.textContent = soundsOn() ? gettext("Sounds: on") : gettext("Sounds: off");
  }
  function beep(frequency, seconds) {
    if (!soundsOn()) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.08, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + seconds);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start();
      oscillator.stop(audio.currentTime + seconds);
      document.body.dataset.lastSound = String(frequency);  // lets a test see that a sound played
    } catch (error) { /* no audio device: stay silent */ }
  }
  if (soundToggle) {
    showSoundState();
    soundToggle.addEventListener("click", () => {
      localStorage.setItem(SOUND_KEY, soundsOn() ? "off" : "on");
      showSoundState();
    });
  }

  // A move carries the version of the view it was pressed on, which is the page's own: the
  // buttons do not carry it, so a hand that did not change is not sent again with every move.
  document.addEventListener("htmx:wsConfigSend", (event) => {
    const parameters = event.detail.parameters;
    if (parameters.command === "act" && parameters.version === undefined) parameters.version = String(currentVersion());
  });
  let opened = false;  // since the last close: a close before any open is a refused handshake
  function askWhyRefused() {
    fetch(socket.dataset.refusedUrl, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : null))
      .then((answer) => {
        if (!answer || !answer.message) return;
        holdUntil = Date.now() + answer.retry_after * 1000;
        status.textContent = answer.message;
        status.dataset.state = "refused";
      })
      .catch(() => {});
  }
  socket.addEventListener("htmx:wsOpen", () => {
    opened = true;
    holdUntil = 0;
    status.textContent = gettext("Connected.");
    status.classList.remove("offline");
    status.dataset.state = "open";  // in every language (the words are translated)
  });
  socket.addEventListener("htmx:wsClose", (event) => {
    // The server's own closes (4401 logged out, 4403 no longer allowed to watch, 4429 flooding; RULINGS
    // P15, P16, P18) are not retried by htmx: say so, the flash says why.
    const code = event.detail && event.detail.event ? event.detail.event.code : 0;
    status.textContent = code >= 4000 ? gettext("Disconnected — reload the page to reconnect.") : gettext("Connection lost — reconnecting…");
    status.classList.add("offline");
    status.dataset.state = "closed";
    if (!opened && socket.dataset.refusedUrl) askWhyRefused();
    opened = false;
  });
  // Issue 37: a push replaces #live whole, so what a player chose or typed there and has not
  // sent yet (the bot level for a seat, the turn clock, a signature) would snap back to the
  // server's default. Each such control has a stable id; its value, and the focus and caret of
  // the one being typed in, are put back into the new fragment's control of the same id.
  let kept = null;
  function changed(control) {
    if (control.tagName === "SELECT") {
      return Array.from(control.options).some((option) => option.selected !== option.defaultSelected);
    }
    if (control.type === "checkbox" || control.type === "radio") return control.checked !== control.defaultChecked;
    return control.value !== control.defaultValue;
  }
  function keepControls() {
    const values = {};
    document.querySelectorAll("#live select[id], #live input[id]:not([type=hidden]), #live textarea[id]").forEach((control) => {
      if (changed(control)) values[control.id] = control.type === "checkbox" || control.type === "radio" ? control.checked : control.value;
    });
    // A disclosure the player opened stays open (issue 37): each has an id.
    const opened = Array.from(document.querySelectorAll("#live details[id][open]"), (details) => details.id);
    const focused = document.activeElement;
    const focus = focused && focused.id && document.getElementById("live")?.contains(focused) ? focused.id : null;
    const caret = focus && typeof focused.selectionStart === "number" ? [focused.selectionStart, focused.selectionEnd] : null;
    return { values, focus, caret, opened };
  }
  function restoreControls(saved) {
    saved.opened.forEach((id) => { const details = document.getElementById(id); if (details) details.open = true; });
    Object.entries(saved.values).forEach(([id, value]) => {
      const control = document.getElementById(id);
      if (!control) return;
      if (typeof value === "boolean") control.checked = value;
      else control.value = value;
    });
    const control = saved.focus ? document.getElementById(saved.focus) : null;
    if (control && document.activeElement !== control) {
      control.focus({ preventScroll: true });
      if (saved.caret) try { control.setSelectionRange(saved.caret[0], saved.caret[1]); } catch (error) { /* not a text box */ }
    }
  }

  socket.addEventListener("htmx:wsBeforeMessage", () => {
    const live = document.getElementById("live");
    focusInGame = !!(live && live.contains(document.activeElement) && document.activeElement !== document.body);
    kept = keepControls();
  });
  // A push of changed regions carries #live's attributes in #live-meta: put them on #live before
  // anything reads them (this listener runs before clock.js's, which listens on the body).
  function applyMeta() {
    const meta = document.getElementById("live-meta");
    const live = document.getElementById("live");
    if (!meta || !live || !meta.dataset.version) return;
    Object.keys(live.dataset).forEach((key) => { if (!(key in meta.dataset)) delete live.dataset[key]; });
    Object.entries(meta.dataset).forEach(([key, value]) => {
      if (key === "liveClass") live.className = value;
      else live.dataset[key] = value;
    });
    delete live.dataset.liveClass;
    meta.replaceWith(Object.assign(document.createElement("div"), { id: "live-meta", hidden: true }));
  }
  socket.addEventListener("htmx:wsAfterMessage", () => {
    applyMeta();
    // The flash clears five seconds after it appeared: a later push (a bot's move) must not
    // restart the clock, or the message never goes away. A new message is a new element.
    const flash = document.getElementById("flash");
    if (flash && flash.textContent.trim() && !flash._timer) {
      flash._timer = setTimeout(() => { flash.innerHTML = ""; }, 5000);
    }
    if (kept) { restoreControls(kept); kept = null; }
    const now = readLive();
    if (now.tricks && last.tricks && now.tricks !== last.tricks) beep(520, 0.12);
    if (now.myTurn && !last.myTurn) beep(880, 0.18);
    if (announcer && now.announce && (now.announce !== last.announce || !announcer.textContent)) {
      announcer.textContent = now.announce;
    }
    if (now.over && !last.over) {
      const result = document.getElementById("result");
      if (result) result.scrollIntoView({ block: "nearest" });
    }
    // A keyboard player keeps their place: the swap replaced the focused button, so focus the
    // first thing they may press now.
    if (focusInGame && (!document.activeElement || document.activeElement === document.body)) {
      const next = document.querySelector("#live .play-dock button:not([disabled]), #live #game button:not([disabled])");
      if (next) next.focus({ preventScroll: true });
    }
    last = now;
  });
  // The dismissal vote's countdown runs from the deadline the server stored (RULING S12).
  setInterval(() => {
    document.querySelectorAll("[data-deadline]").forEach((el) => {
      const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
      const text = interpolate(gettext("%(seconds)s s"), { seconds: left }, true);
      if (el.textContent !== text) el.textContent = text; // a write repaints: only on a change
    });
  }, 500);
  // Issue 53: "Copy link" beside the invitation link. The panel is swapped by htmx, so the click
  // is heard on the document; the words come with the button, in the page's language.
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const field = document.querySelector(button.dataset.copy);
    const said = document.getElementById(button.dataset.copyStatus);
    const tell = (text) => {
      if (said) said.textContent = text;
    };
    const fallback = () => {
      field.select();
      tell(document.execCommand("copy") ? button.dataset.copied : button.dataset.copyFailed);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(() => tell(button.dataset.copied), fallback);
    } else {
      fallback();
    }
  });
})();
