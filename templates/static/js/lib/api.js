// The JSON API client (API.md): same origin, the session cookie identifies the player. Every
// page calls the service through the named calls below, never by building a URL itself. Each
// answer and each failure to reach the server is told to lib/connection.js (its banner).

import { back, lost, reached } from "./connection.js";

export class ApiError extends Error {
  constructor(status, code, message, detail) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail || {};
  }
}

// Seconds the last answer of `path` asked to wait before asking again (its Retry-After), 0
// without one: a busy server answers a long poll at once with it (docs/API_LAYER.md).
const retryAfter = new Map();
export const retryAfterS = (path) => retryAfter.get(path) || 0;

// `credentials`: "same-origin" (the session cookie identifies the player), or "omit" for a read
// that is the same for everyone, so that nginx answers it from a published file or its cache.
async function request(method, path, body, headers = {}, credentials = "same-origin") {
  const options = {
    method,
    credentials,
    headers: { Accept: "application/json", ...headers },
  };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (e) {
    lost();
    throw new ApiError(0, "network", String(e));
  }
  if (!reached(response.status)) {
    lost();
    throw new ApiError(0, "network", `the front answered ${response.status}`);
  }
  back();
  retryAfter.set(path, Number(response.headers.get("Retry-After")) || 0);
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code || `http_${response.status}`,
      error.message || response.statusText, error);
  }
  return data;
}

const get = (path) => request("GET", path);
const getPublic = (path) => request("GET", path, undefined, {}, "omit");
const post = (path, body, headers) => request("POST", path, body, headers);
// A creation's Idempotency-Key (docs/TABLES.md): the same key for a retry of one submission.
const once = (key) => (key ? { "Idempotency-Key": key } : {});
const remove = (path) => request("DELETE", path, {});
const put = (path, body) => request("PUT", path, body);
const query = (params) => new URLSearchParams(
  Object.entries(params).filter(([, v]) => v !== null && v !== undefined)).toString();
const attemptUrl = (id) => `/api/attempts/${encodeURIComponent(id)}`;
// A start answers {"attempt": A} (or a bare id in older answers): the attempt's id either way.
const startedId = (result) => (typeof result.attempt === "object" ? result.attempt.id : result.attempt);

// Days
// `game`: null for the unmarked daily (API v1's answers), else another daily game's name, sent as
// `game` (the Gin daily, docs/GIN_DAILY.md).
export const today = (game = null) => get(game ? `/api/daily?${query({ game })}` : "/api/daily");
export const day = (date, game = null) => get(`/api/daily/${date}${game ? `?${query({ game })}` : ""}`);
export const days = (limit, before = null, game = null) =>
  get(`/api/days?${query({ limit, before, game })}`);

// Attempts
export const startAttempt = (date, name, game = null) =>
  post(`/api/daily/${date}/attempts`, game ? { name, game } : { name }).then(startedId);
export const startPractice = (date, name, game = null) =>
  post(`/api/daily/${date}/practice`, game ? { name, game } : { name }).then(startedId);
export const attempt = (id) => get(attemptUrl(id)).then((data) => data.attempt);
export const sendMove = (id, move, seq) => post(`${attemptUrl(id)}/moves`, { move, seq });
export const hint = (id) => get(`${attemptUrl(id)}/hint`);
export const gameLog = (id) => get(`${attemptUrl(id)}/log`);
// A verified attempt's analysis: {"status": "queued"} (202) until the worker has computed it.
// `part`: {hand: N} for a Gin match's hand (default its first), else nothing (the one round).
export const analysis = (id, mode = "view", part = {}) =>
  get(`${attemptUrl(id)}/analysis?${query({ mode, ...part })}`);
// The verdict, answered as soon as it exists or after `wait` seconds with the current state
// (a long poll; 404 where the service does not offer it).
// The answer's `retryAfterS`: the seconds a busy server asked to wait before the next ask.
export async function verification(id, wait) {
  const path = `${attemptUrl(id)}/verification?${query({ wait })}`;
  const data = await get(path);
  return { ...data.verification, retryAfterS: retryAfterS(path) };
}

// The week's tournament (docs/EVENTS.md): `game` the page's, `week` YYYY-Www (null: this week's).
const eventUrl = (game, week) =>
  `/api/events/${encodeURIComponent(game)}${week ? `/${encodeURIComponent(week)}` : ""}`;
export const eventOf = (game, week = null) => get(eventUrl(game, week)).then((data) => data.event);
// The next deal: {n, attempt: A, token}; played through the attempts' routes like a daily game.
export const startEventDeal = (game, week, name) => post(`${eventUrl(game, week)}/deals`, { name });
// The standings in windows (docs/EVENTS.md): asked without credentials (every "you" false),
// the first one as nginx publishes it (offset=0&limit=STANDINGS_WINDOW, in this order), or with
// them (`own`: the app's answer, read from its place index, never a file up to a minute old);
// the caller's own place is a read of its own.
export const STANDINGS_WINDOW = 100;
export const eventStandingsWindow = (game, week, offset = 0, own = false) =>
  (own ? get : getPublic)(
    `${eventUrl(game, week)}/standings?${query({ offset, limit: STANDINGS_WINDOW })}`);
export const eventMyPlace = (game, week) => get(`${eventUrl(game, week)}/standings/me`);
// A calendar month's season standing: each player's best four events of the month summed.
export const eventSeason = (game, month) =>
  get(`${eventUrl(game, null)}/seasons/${encodeURIComponent(month)}`);

// Rankings
export const dayBoard = (date, offset, limit, game = null) =>
  get(`/api/leaderboard/${date}?${query({ offset, limit, game })}`);
export const aroundBoard = (date, id, radius, game = null) =>
  get(`/api/leaderboard/${date}/around/${encodeURIComponent(id)}?${query({ radius, game })}`);
export const allTimeBoard = (offset, limit, game = null) =>
  get(`/api/leaderboard/all-time?${query({ offset, limit, game })}`);

// The replay viewer's positions of a finished game of a closed day (pages blueprint).
export const replayPositions = (id) => get(`/replay/${encodeURIComponent(id)}/positions`);

// Accounts (passkeys): each ceremony is options (with a single-use handle), then the answer.
export const signUpOptions = (name, attach = true) =>
  post("/api/account/signup/options", { name, attach });
export const signUp = (handle, credential) => post("/api/account", { handle, credential });
export const signInOptions = () => post("/api/account/signin/options", {});
export const signIn = (handle, credential) => post("/api/account/signin", { handle, credential });
export const account = () => get("/api/account").then((data) => data.account);
export const addDeviceOptions = () => post("/api/account/devices/options", {});
export const addDevice = (handle, credential, label) =>
  post("/api/account/devices", { handle, credential, label });
export const removeDevice = (id) =>
  remove(`/api/account/devices/${encodeURIComponent(id)}`).then((data) => data.account);
export const signOut = (everywhere = false) => post("/api/account/signout", { everywhere });
export const deleteAccount = () => remove("/api/account");
export const accountSettings = () => get("/api/account/settings").then((data) => data.settings);
export const saveAccountSettings = (changes) => put("/api/account/settings", changes).then((data) => data.settings);

// The daily habit: own streaks and statistics, a finished attempt's place in the field and
// share text, leagues.
export const myStats = () => get("/api/me/stats");
// The caller's finished games still kept, newest first, each with its replay page.
export const myGames = () => get("/api/me/games").then((data) => data.games);
export const place = (id) => get(`${attemptUrl(id)}/place`);
export const shareOf = (id, lang) => get(`${attemptUrl(id)}/share?${query({ lang })}`)
  .then((data) => data.text);
const leagueUrl = (code) => `/api/leagues/${encodeURIComponent(code)}`;
export const myLeagues = () => get("/api/leagues").then((data) => data.leagues);
export const createLeague = (name, key) =>
  post("/api/leagues", { name }, once(key)).then((data) => data.league);
export const league = (code, date = null) => get(`${leagueUrl(code)}?${query({ date })}`);
export const joinLeague = (code) => post(`${leagueUrl(code)}/join`, {}).then((data) => data.league);
export const leaveLeague = (code) => post(`${leagueUrl(code)}/leave`, {}).then((data) => data.league);

// Tables (API.md "Tables", docs/TABLES.md): whole games with friends and bots.
const tableUrl = (id) => `/api/tables/${encodeURIComponent(id)}`;
export const createTable = (spec, key) => post("/api/tables", spec, once(key));
export const joinTable = (invite, name) => post(`/api/tables/join/${encodeURIComponent(invite)}`, { name });
export const table = (id) => get(tableUrl(id)).then((data) => data.table);
export const startTable = (id) => post(`${tableUrl(id)}/start`, {}).then((data) => data.table);
export const sendTableMove = (id, move, seq) => post(`${tableUrl(id)}/moves`, { move, seq });
// The own seat's hint in its play phase, where the table's rules.hints allow it.
export const tableHint = (id) => get(`${tableUrl(id)}/hint`);
// A seat's round analysed (docs/TABLES.md "Analysis"): `part` is {round: N} or Gin's {hand: N},
// `seat` null for your own; {"status": "queued"} (202) until the worker has computed it.
export const tableAnalysis = (id, part, seat = null, mode = "view") =>
  get(`${tableUrl(id)}/analysis?${query({ ...part, seat, mode })}`);
export const setBotLevel = (id, seat, level) =>
  post(`${tableUrl(id)}/seats/${seat}`, { level }).then((data) => data.table);
export const resignTable = (id) => post(`${tableUrl(id)}/resign`, {});
export const rematchTable = (id) => post(`${tableUrl(id)}/rematch`, {}).then((data) => data.table);
// A rematch's waiting room: accept it, or decline it (the offer ends for everyone).
export const acceptRematch = (id) => post(`${tableUrl(id)}/accept`, {}).then((data) => data.table);
export const declineRematch = (id) => post(`${tableUrl(id)}/decline`, {}).then((data) => data.table);
// Say no to the pending resign proposal (R8): the game goes on.
export const declineResign = (id) => post(`${tableUrl(id)}/resign/decline`, {}).then((data) => data.table);
// End the game as an away seat's forfeit (T.seats[n].claimable).
export const claimGame = (id, seat) => post(`${tableUrl(id)}/claim`, { seat }).then((data) => data.table);
// Gin's "Wiederholen": the same seeded match at a new table (docs/TABLES.md).
export const repeatTable = (id) => post(`${tableUrl(id)}/replay-same`, {}).then((data) => data.table);
export const tableRecord = (id) => get(`${tableUrl(id)}/record`);
export const tablePositions = (id) => get(`/tables/${encodeURIComponent(id)}/replay/positions`);

// Playing with strangers (docs/LOBBY.md): public tables, the quick match, ratings, table talk.
export const joinPublicTable = (id, name) => post(`${tableUrl(id)}/join`, { name });
export const lobby = (game = null) => get(`/api/lobby?${query({ game })}`);
export const joinMatch = (spec) => post("/api/match", spec).then((data) => data.match);
export const currentMatch = () => get("/api/match").then((data) => data.match);
export const leaveMatch = () => remove("/api/match").then((data) => data.match);
export const ratingsBoard = (game, offset, limit, provisional = null) =>
  get(`/api/ratings/${encodeURIComponent(game)}?${query({ offset, limit, provisional })}`);
export const sayPhrase = (id, phrase) => post(`${tableUrl(id)}/phrases`, { phrase });
export const muteSeat = (id, seat, muted) => post(`${tableUrl(id)}/mute`, { seat, muted });

// A named event stream of one document (the lobby's `lobby`, the ticket's `match`): onMessage(doc)
// for every message; EventSource reconnects by itself, a closed one is reopened after 2 s.
function documentEvents(url, name, onMessage) {
  let source = null;
  let stopped = false;
  const open = () => {
    source = new EventSource(url);
    source.addEventListener("open", back);
    source.addEventListener(name, (e) => onMessage(JSON.parse(e.data)));
    source.addEventListener("error", () => {
      lost();
      if (source.readyState === EventSource.CLOSED && !stopped) setTimeout(open, 2000);
    });
  };
  open();
  return { close: () => { stopped = true; source.close(); } };
}
export const lobbyEvents = (onMessage, game = null) =>
  documentEvents(`/api/lobby/events?${query({ game })}`, "lobby", onMessage);
export const matchEvents = (onMessage) => documentEvents("/api/match/events", "match", onMessage);

// The table's live stream (Server-Sent Events): onMessage({seq, events, deadline, table}) for
// every message after seq `after` (null: the table now). EventSource reconnects by itself with Last-Event-ID; when it gives up (closed),
// a new one resumes with ?after= the last seq seen, so no event is missed.
// onPhrase(p): the table talk's phrases (docs/LOBBY.md), not numbered as events.
export function tableEvents(id, after, onMessage, onState = () => {}, onPhrase = () => {}) {
  let last = after;
  let source = null;
  let stopped = false;
  const open = () => {
    const after = last === null ? "" : `?after=${last}`;
    source = new EventSource(`${tableUrl(id)}/events${after}`);
    source.addEventListener("open", () => {
      back();
      onState("open");
    });
    source.addEventListener("table", (e) => {
      const message = JSON.parse(e.data);
      last = message.seq;
      onMessage(message);
    });
    source.addEventListener("phrase", (e) => onPhrase(JSON.parse(e.data)));
    source.addEventListener("error", () => {
      lost();
      onState("error");
      if (source.readyState === EventSource.CLOSED && !stopped) setTimeout(open, 2000);
    });
  };
  open();
  return { close: () => { stopped = true; source.close(); } };
}
