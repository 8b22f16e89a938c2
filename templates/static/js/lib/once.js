// A form that creates something (a table, a league) sends an Idempotency-Key (docs/TABLES.md):
// a fresh one per submission, the same one when that submission is sent again because its answer
// was lost (no answer, a 503, the first try still running), so the server makes it only once.

const LOST = (err) => err.status === 0 || err.status === 503
  || (err.status === 409 && err.code === "idempotency_key_in_use");
const TRIES = 3;
const PAUSE_MS = 1000; // the service's Retry-After

function freshKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16)); // also outside a secure context
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// `submit(body, send)`: `send(key)` with this submission's key, asked again while its answer is
// lost; a submission of the same body after a lost answer keeps the key, any other a new one.
export function submissions() {
  let pending = null; // { body, key }: a submission whose answer never came
  return async (body, send) => {
    const text = JSON.stringify(body);
    const key = pending && pending.body === text ? pending.key : freshKey();
    pending = { body: text, key };
    for (let n = 1; ; n += 1) {
      try {
        const done = await send(key);
        pending = null;
        return done;
      } catch (err) {
        if (!LOST(err)) pending = null; // answered (a 422, a 429): the next try is a new one
        if (!LOST(err) || n >= TRIES) throw err;
        await pause(PAUSE_MS);
      }
    }
  };
}
