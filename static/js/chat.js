// Table chat over the table's own socket (issue 23). The server sends chat frames as JSON
// ({"chat": {...}}), which this script takes before htmx would swap them as HTML. Everything
// a person typed goes into the page as text nodes (textContent), never as markup, so it is
// escaped and links in it are plain text.
(function () {
  const socket = document.getElementById("table-socket");
  const panel = document.getElementById("chat");
  if (!socket || !panel) return;
  const log = document.getElementById("chat-log");
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-text");
  const sendButton = form.querySelector("button[type=submit]");
  const notice = document.getElementById("chat-notice");
  const phrases = document.getElementById("chat-phrases");
  const room = document.getElementById("chat-room");
  const spectatorsButton = document.getElementById("chat-spectators");
  const mutedLine = document.getElementById("chat-muted");
  const MAX_SHOWN = 200;
  let ws = null;
  let state = null;
  let roomKey = null;
  let pending = null; // the text last sent, put back in the box if the server refuses it
  let noticeTimer = null;

  function send(message) {
    if (ws) ws.send(JSON.stringify(message));
  }

  function node(tag, className, text) {
    const el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  }

  // Which room this viewer is in follows the table's status and whether they hold a seat;
  // when either changes the server is asked for the chat again (RULING P25).
  function currentRoomKey() {
    const live = document.getElementById("live");
    if (!live) return null;
    return `${live.dataset.status}|${live.querySelector(".seat.me") ? "player" : "watcher"}`;
  }

  // A passing notice (an error, a confirmation) stays its six seconds even when a fresh chat
  // state arrives meanwhile; the state's own standing notice comes back after it.
  function showNotice(text, kind, sticky) {
    clearTimeout(noticeTimer);
    noticeTimer = null;
    notice.textContent = text;
    notice.className = `chat-notice small ${kind || ""}`;
    notice.hidden = !text;
    if (text && !sticky) {
      noticeTimer = setTimeout(() => showNotice(state && state.notice ? state.notice : "", "warn", true), 6000);
    }
  }

  function messageItem(message) {
    const item = node("li", `chat-msg ${message.channel}`);
    item.dataset.id = message.id;
    item.dataset.author = message.author_id;
    // The reader's own clock time, from the instant the server sends every viewer alike (issue 53).
    const at = new Date(message.at);
    const label = isNaN(at) ? message.at : at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const time = node("time", "chat-time", label);
    time.dateTime = message.at;
    item.append(time, " ");
    if (message.channel === "spectators" && state && state.channels.length > 1) {
      item.append(node("span", "tag", gettext("watching")), " ");
    }
    // RULING P54: a name stands in <bdi>, so a right-to-left name cannot reorder the line.
    const author = node("span", "chat-author");
    author.append(node("bdi", "", message.author));
    // The words too: a message in Arabic among Estonian ones keeps its own direction.
    item.append(author, " ", node("bdi", "chat-text", message.text));
    if (state && message.author_id !== state.me) {
      const tools = node("span", "chat-tools");
      const report = node("button", "link small chat-report", gettext("Report"));
      report.type = "button";
      report.title = interpolate(gettext("Report %(name)s's message to the moderators"), { name: message.author }, true);
      const mute = node("button", "link small chat-mute", gettext("Mute"));
      mute.type = "button";
      mute.title = interpolate(gettext("Stop seeing %(name)s's messages (only you)"), { name: message.author }, true);
      tools.append(report, " ", mute);
      item.append(" ", tools);
    }
    return item;
  }

  // Issue 37: what came in while the chat was out of sight, counted on the jump button.
  // The jump button (phones) and the folded panel's tab (laptops) show the same count.
  const unread = document.querySelectorAll(".chat-unread");
  let unseen = 0;
  let inSight = true;
  function showUnseen() {
    unread.forEach((badge) => {
      badge.hidden = unseen === 0;
      badge.textContent = unseen > 99 ? "99+" : String(unseen);
    });
  }
  if (unread.length && "IntersectionObserver" in window) {
    new IntersectionObserver((entries) => {
      inSight = entries.some((entry) => entry.isIntersecting);
      if (inSight) { unseen = 0; showUnseen(); }
    }).observe(log);
  }

  // On a laptop the player folds the panel beside the table to a tab and back; the browser keeps the choice.
  const FOLDED = "chat-collapsed";
  const frame = panel.closest(".table-with-chat");
  const tab = document.getElementById("chat-tab");
  const collapse = document.getElementById("chat-collapse");
  function fold(folded, remember) {
    if (!frame) return;
    frame.classList.toggle(FOLDED, folded);
    tab.setAttribute("aria-expanded", "false");
    collapse.setAttribute("aria-expanded", String(!folded));
    if (remember) {
      try { localStorage.setItem(FOLDED, folded ? "1" : "0"); } catch (error) { /* private mode: this page only */ }
    }
  }
  let stored = null;
  try { stored = localStorage.getItem(FOLDED); } catch (error) { /* private mode */ }
  fold(stored === "1", false);
  collapse.addEventListener("click", () => { fold(true, true); tab.focus(); });
  tab.addEventListener("click", () => { fold(false, true); collapse.focus(); });

  function append(message, counted) {
    if (counted && !inSight && !(state && message.author_id === state.me)) { unseen += 1; showUnseen(); }
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    log.append(messageItem(message));
    while (log.children.length > MAX_SHOWN) log.firstElementChild.remove();
    if (atBottom || (state && message.author_id === state.me)) log.scrollTop = log.scrollHeight;
  }

  function applyState(next) {
    state = next;
    log.replaceChildren();
    next.messages.forEach((message) => append(message, false));
    log.scrollTop = log.scrollHeight;
    const both = next.channels.length > 1;
    room.textContent = next.write === "players"
      ? (both ? gettext("players' chat · spectators' shown too") : gettext("players' chat"))
      : gettext("spectators' chat · players' shown too");
    input.disabled = sendButton.disabled = !next.can_write;
    input.maxLength = next.max_length;
    input.placeholder = next.write === "players" ? gettext("Say something to the table…") : gettext("Say something to the watchers…");
    if (noticeTimer === null) showNotice(next.notice, "warn", true);
    phrases.replaceChildren(...next.phrases.map((phrase) => {
      const button = node("button", "small secondary chat-phrase", phrase);
      button.type = "button";
      button.disabled = !next.can_write;
      return button;
    }));
    spectatorsButton.hidden = !next.is_host;
    spectatorsButton.textContent = next.spectator_chat ? gettext("Turn spectators' chat off") : gettext("Turn spectators' chat on");
    mutedLine.replaceChildren();
    mutedLine.hidden = !next.muted_users.length;
    if (next.muted_users.length) {
      mutedLine.append(gettext("Muted by you:") + " ");
      next.muted_users.forEach((user, index) => {
        // Inside a sentence the name is isolated as plain text does it (FSI … PDI, as <bdi> would).
        const name = `\u2068${user.name}\u2069`;
        const unmute = node("button", "link small chat-unmute", interpolate(gettext("%(name)s (unmute)"), { name }, true));
        unmute.type = "button";
        unmute.dataset.user = user.id;
        if (index) mutedLine.append(", ");
        mutedLine.append(unmute);
      });
    }
  }

  function handle(frame) {
    if (frame.type === "state") {
      applyState(frame);
    } else if (frame.type === "message") {
      if (state && frame.message.author_id === state.me) pending = null;
      append(frame.message, true);
    } else if (frame.type === "hide") {
      const item = log.querySelector(`li[data-id="${Number(frame.id)}"]`);
      if (item) item.remove();
    } else if (frame.type === "error") {
      if (pending !== null && !input.value) input.value = pending;
      pending = null;
      showNotice(frame.message, "error");
    } else if (frame.type === "notice") {
      showNotice(frame.message, "good");
    }
  }

  function say(text) {
    text = text.trim();
    if (!text || !state) return;
    pending = text;
    send({ command: "chat_send", channel: state.write, text });
  }

  socket.addEventListener("htmx:wsOpen", (event) => {
    ws = event.detail.socketWrapper;
    roomKey = currentRoomKey();
    send({ command: "chat_sync" }); // on every (re)connect: what was said meanwhile
  });
  socket.addEventListener("htmx:wsBeforeMessage", (event) => {
    const text = event.detail.message;
    if (typeof text !== "string" || !text.startsWith('{"chat"')) return;
    event.preventDefault(); // not HTML: htmx must not swap it
    let frame;
    try {
      frame = JSON.parse(text).chat;
    } catch (error) {
      return;
    }
    handle(frame);
  });
  socket.addEventListener("htmx:wsAfterMessage", () => {
    const key = currentRoomKey();
    if (key !== roomKey) {
      roomKey = key;
      send({ command: "chat_sync" });
    }
  });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    say(input.value);
    input.value = "";
  });
  phrases.addEventListener("click", (event) => {
    const button = event.target.closest(".chat-phrase");
    if (button) say(button.textContent);
  });
  log.addEventListener("click", (event) => {
    const item = event.target.closest("li.chat-msg");
    if (!item) return;
    const author = item.querySelector(".chat-author").textContent;
    if (event.target.closest(".chat-report")) {
      const reason = window.prompt(interpolate(gettext("Why do you report this message from %(name)s?"), { name: author }, true));
      if (reason && reason.trim()) send({ command: "chat_report", id: Number(item.dataset.id), reason: reason.trim() });
    } else if (event.target.closest(".chat-mute")) {
      if (window.confirm(interpolate(gettext("Stop seeing %(name)s's messages? Only you are affected."), { name: author }, true))) {
        send({ command: "chat_mute", user: Number(item.dataset.author) });
      }
    }
  });
  mutedLine.addEventListener("click", (event) => {
    const button = event.target.closest(".chat-unmute");
    if (button) send({ command: "chat_unmute", user: Number(button.dataset.user) });
  });
  spectatorsButton.addEventListener("click", () => {
    if (state) send({ command: "chat_spectators", on: !state.spectator_chat });
  });
})();
