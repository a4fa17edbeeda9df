{% autoescape off %}// The site's service worker (pages/pwa.py says what it keeps, and why nothing else).
// Named after the static files' hashed names: a deploy that changes one starts a new cache.
const STATIC_CACHE = "static-" + {{ version }};
const PRIVATE_CACHE = "private";
const PRECACHE = {{ precache }};
const STATIC_PREFIX = {{ static_prefix }};
const OFFLINE_URL = {{ offline_url }};
const ANONYMOUS_OFFLINE = OFFLINE_URL + "?anonymous";
const OWNER_KEY = "/__offline-owner__";
const REFRESH_MS = 60 * 1000;  // a busy player's pages refresh it at most once a minute

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(STATIC_CACHE);
    await cache.addAll(PRECACHE);
    // The page for nobody in particular, fetched without cookies: it can hold nothing private.
    const page = await fetch(OFFLINE_URL, { credentials: "omit" });
    if (page.ok) await cache.put(ANONYMOUS_OFFLINE, page);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== STATIC_CACHE && name !== PRIVATE_CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

async function owner(cache) {
  const stored = await cache.match(OWNER_KEY);
  return stored ? stored.json() : { account: "", at: 0 };
}

// A page says who is signed in ("" for nobody). The stored offline page is another account's, or
// nobody's any more: drop it before anything else, then store this account's own.
async function accountIs(account) {
  const previous = await owner(await caches.open(PRIVATE_CACHE));
  if (previous.account !== account) await caches.delete(PRIVATE_CACHE);
  if (!account) return;
  if (previous.account === account && Date.now() - previous.at < REFRESH_MS) return;
  const page = await fetch(OFFLINE_URL, { credentials: "same-origin", cache: "no-store" });
  if (!page.ok) return;
  const cache = await caches.open(PRIVATE_CACHE);
  await cache.put(OFFLINE_URL, page);
  await cache.put(OWNER_KEY, new Response(JSON.stringify({ account: account, at: Date.now() })));
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "account") event.waitUntil(accountIs(String(data.account || "")));
});

async function offlinePage() {
  const own = await (await caches.open(PRIVATE_CACHE)).match(OFFLINE_URL);
  if (own) return own;
  const anonymous = await caches.match(ANONYMOUS_OFFLINE);
  return anonymous || new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain" } });
}

async function staticFile(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    const cache = await caches.open(STATIC_CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(staticFile(request));
  } else if (request.mode === "navigate") {
    // Pages always come from the network; only when there is none does the offline page stand in.
    event.respondWith(fetch(request).catch(offlinePage));
  }
  // Everything else (fragments, the table's socket, JSON) goes to the network untouched and is never kept.
});

// Web Push: the payload holds the text in the player's language, the tag that collapses a table's
// notices into one, and where a click leads. A newer push with the same tag replaces the notice shown.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {}; }
  const title = data.title || self.registration.scope;
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.tag || undefined,
    renotify: Boolean(data.tag),
    icon: PRECACHE.find((name) => name.indexOf("icon-192") !== -1),
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data || {}).url || "/", self.location.origin).href;
  event.waitUntil((async () => {
    for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
      if (client.url === target && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(target);
  })());
});
{% endautoescape %}
