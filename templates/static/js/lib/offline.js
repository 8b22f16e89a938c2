// The site installed as an app: the service worker (/sw.js, served by the pages blueprint)
// keeps the versioned static files for a returning player and shows the offline page when the
// network is gone; it never keeps the API, a live game or a page.

export function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // a browser that refuses it (private mode, an insecure origin) plays on without
  });
}
