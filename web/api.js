// @ts-check
// The service's public API, typed from the declarations openapi-typescript generates
// from its OpenAPI schema (tests/web/test_client_types.py checks this file with tsc).
// Nothing here knows a game's rules: the views and the legal actions come from the API.

/** @typedef {import("@api").components["schemas"]} Schemas */
/** @typedef {import("@api").paths} Paths */
/** @typedef {import("@api").operations} Operations */
/** @typedef {Schemas["Problem"]} Problem */
/** @typedef {Schemas["MatchDetail"]} MatchDetail */
/** @typedef {Schemas["MatchPage"]} MatchPage */
/** @typedef {Schemas["MatchSummary"]} MatchSummary */
/** @typedef {Schemas["Game"]} Game */
/** @typedef {Schemas["GameView"]} GameView */
/** @typedef {Schemas["GolfView"]} GolfView */
/** @typedef {Schemas["GolfAction"]} GolfAction */
/** @typedef {Schemas["GameAction"]} GameAction */
/** @typedef {Schemas["ActResult"]} ActResult */
/** @typedef {Schemas["EventPage"]} EventPage */
/** @typedef {Schemas["Event"]} GameEvent */
/** @typedef {Schemas["Hint"]} Hint */
/** @typedef {Schemas["Audit"]} Audit */
/** @typedef {Schemas["User"]} User */
/** @typedef {Schemas["Registered"]} Registered */
/** @typedef {Schemas["Token"]} Token */
/** @typedef {Schemas["MatchCreate"]} MatchCreate */
/** @typedef {Paths["/api/accounts/register"]["post"]["requestBody"]["content"]["application/json"]} RegisterRequest */
/** @typedef {Paths["/api/auth/token"]["post"]["requestBody"]["content"]["application/json"]} LogInRequest */
/** @typedef {Paths["/api/me/password"]["post"]["requestBody"]["content"]["application/json"]} PasswordChangeRequest */
/** @typedef {NonNullable<Operations["matches_list"]["parameters"]["query"]>} MatchListQuery */
/** @typedef {NonNullable<Operations["matches_events_retrieve"]["parameters"]["query"]>} EventsQuery */
/** @typedef {Operations["matches_stream_retrieve"]} StreamOperation */
/** @typedef {NonNullable<StreamOperation["parameters"]["query"]>} StreamQuery */
/**
 * One line of the stream as NDJSON: the schema says a string; it is one event as JSON, as in
 * the events list (the schema's Event union).
 * @typedef {StreamOperation["responses"][200]["content"]["application/x-ndjson"]} StreamLine
 */

const TOKEN_KEY = "card-games-token";
const NDJSON = "application/x-ndjson";

/**
 * How long a request may go unanswered (its answer's head and body), in ms: a connection
 * that died without a word (a phone gone to sleep, a router that forgot it) answers
 * nothing, and the page would wait for ever.
 */
export const REQUEST_TIMEOUT_MS = 30000;
/** The same for the audit record, whose pages hold up to 5000 whole events each. */
const AUDIT_TIMEOUT_MS = 120000;
/** The service sends a keep-alive on a stream after this long with nothing to send
 * (`PUSH_HEARTBEAT_SECONDS`, docs/realtime.md), in ms. */
export const HEARTBEAT_MS = 15000;
/** A stream that sends nothing at all for this long, two keep-alives missed, is taken as
 * lost (the connection died without a word), in ms. */
export const STREAM_IDLE_MS = 2 * HEARTBEAT_MS;

/** An answer of the API that is not a success: its problem+json, or a network failure. */
export class ApiError extends Error {
  /**
   * @param {number} status 0 when the network failed
   * @param {Problem | null} problem
   * @param {string} message
   * @param {number | null} [retryAfter] the seconds of a Retry-After header (a 429, a 503)
   */
  constructor(status, problem, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.problem = problem;
    this.retryAfter = retryAfter;
  }

  /** What a person reads: the problem's title and detail, and each field's messages. */
  get readable() {
    const problem = this.problem;
    if (!problem) return this.message;
    const fields = Object.entries(problem.errors ?? {}).map(
      ([field, messages]) => `${field}: ${messages.join(" ")}`,
    );
    return [`${problem.title}: ${problem.detail}`, ...fields].join("\n");
  }
}

/**
 * The account changed in another tab (a log-in or log-out there): this page's request is
 * not sent, as the page still shows the account it began with.
 */
export class AccountChanged extends ApiError {
  constructor() {
    super(0, null, "You logged in or out in another tab: this tab now shows that account.");
  }
}

/** @returns {string | null} */
export function savedToken() {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** @param {string | null} token */
export function saveToken(token) {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
  pageToken = token;
}

/**
 * The token this page sends: the one saved when it last showed a page, logged in or out.
 * The saved one is every tab's: a log-in or log-out in another tab changes it, and this
 * page, which still shows the account it began with, sends nothing more with it (else it
 * would act for the other account under this one's name); it is told instead.
 * @type {string | null}
 */
let pageToken = savedToken();
/** @type {Array<() => void>} */
const accountListeners = [];

/** The saved token is this page's from now on (it shows a page from the start). */
export function bindSavedToken() {
  pageToken = savedToken();
  return pageToken;
}

/** Calls `listener` when the saved token is no longer this page's. @param {() => void} listener */
export function onAccountChange(listener) {
  accountListeners.push(listener);
}

/** Whether the saved token is this page's (not another tab's log-in since). */
export function savedTokenIsOurs() {
  return savedToken() === pageToken;
}

/** Whether the saved token is another than this page's (the listeners are told so). */
function accountChanged() {
  if (savedTokenIsOurs()) return false;
  for (const listener of accountListeners) queueMicrotask(listener);
  return true;
}

// (in a page; the module is also read where there is none: the verifier's tests, in Node)
if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === TOKEN_KEY || event.key === null) accountChanged();
  });
}

/** @param {unknown} body @returns {body is Problem} */
function isProblem(body) {
  return typeof body === "object" && body !== null && "title" in body && "detail" in body;
}

/**
 * What a person reads of an error answer without a problem (a proxy's or a load
 * balancer's page while the service is down or restarting): "HTTP 502" said nothing.
 * @param {number} status
 */
function statusText(status) {
  if (status === 502 || status === 503 || status === 504) return "The service is unavailable right now; try again in a moment.";
  if (status >= 500) return `The service failed on this request (error ${status}); try again in a moment.`;
  if (status === 429) return "The service is busy: wait a moment, then try again.";
  return `The service refused this request (error ${status}).`;
}

/**
 * A signal that aborts when any of `signals` does: `AbortSignal.any` where the browser has
 * it (Chrome 116, Firefox 124, Safari 17.4), else the same made of a controller (without
 * it, every table failed to load). Its listeners on the others go once it aborts (or with
 * them: a table's, when the table closes).
 * @param {AbortSignal[]} signals
 * @returns {AbortSignal}
 */
export function anySignal(signals) {
  if (typeof AbortSignal.any === "function") return AbortSignal.any(signals);
  const any = new AbortController();
  for (const signal of signals) {
    if (signal.aborted) {
      any.abort(signal.reason);
      break;
    }
    signal.addEventListener("abort", () => any.abort(signal.reason), { once: true, signal: any.signal });
  }
  return any.signal;
}

/** @param {unknown} error @returns {boolean} */
function isAbort(error) {
  return error instanceof DOMException && error.name === "AbortError";
}

/**
 * Runs `work` (a request) with a signal that aborts when `signal` does, or after `ms`:
 * then the request fails with an ApiError that says the service did not answer in time
 * (an abort of `signal` stays an AbortError).
 * @template T
 * @param {number} ms @param {AbortSignal | undefined} signal
 * @param {(signal: AbortSignal) => Promise<T>} work
 * @returns {Promise<T>}
 */
async function timed(ms, signal, work) {
  const timer = new AbortController();
  const clock = setTimeout(() => timer.abort(), ms);
  try {
    return await work(signal ? anySignal([signal, timer.signal]) : timer.signal);
  } catch (error) {
    if (timer.signal.aborted && !signal?.aborted) {
      throw new ApiError(0, null, `The service did not answer in ${Math.round(ms / 1000)} s: check your connection, then try again.`);
    }
    throw error;
  } finally {
    clearTimeout(clock);
  }
}

/**
 * One request, answered: the token goes as a bearer token; an error answer becomes an
 * ApiError (an aborted request stays an AbortError).
 * @param {string} method
 * @param {string} path under /api
 * @param {{body?: unknown, headers?: Record<string, string>, signal?: AbortSignal}} [options]
 * @returns {Promise<Response>} a success (2xx), its body not read yet
 */
async function request(method, path, options = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", ...(options.headers ?? {}) };
  if (accountChanged()) throw new AccountChanged();
  const token = pageToken;
  if (token) headers.Authorization = `Bearer ${token}`;
  /** @type {RequestInit} */
  const init = { method, headers, credentials: "omit" };
  if (options.signal) init.signal = options.signal;
  if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  /** @type {Response} */
  let response;
  try {
    response = await fetch(`/api${path}`, init);
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(0, null, "The service cannot be reached: check your connection.");
  }
  if (response.ok) return response;
  /** @type {unknown} */
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  const problem = isProblem(body) ? body : null;
  const retryAfter = Number.parseInt(response.headers.get("Retry-After") ?? "", 10);
  const message = problem ? problem.title : statusText(response.status);
  throw new ApiError(response.status, problem, message, Number.isNaN(retryAfter) ? null : retryAfter);
}

/**
 * One request whose answer is JSON (null for a 204), answered whole within `timeout` ms
 * (REQUEST_TIMEOUT_MS unless told), else an ApiError says the service did not answer.
 * @param {string} method
 * @param {string} path under /api
 * @param {{body?: unknown, headers?: Record<string, string>, signal?: AbortSignal, timeout?: number}} [options]
 * @returns {Promise<unknown>}
 */
async function call(method, path, options = {}) {
  return timed(options.timeout ?? REQUEST_TIMEOUT_MS, options.signal, async (signal) => {
    const response = await request(method, path, { ...options, signal });
    if (response.status === 204) return null;
    try {
      return /** @type {unknown} */ (await response.json());
    } catch (error) {
      if (isAbort(error)) throw error;
      return null;
    }
  });
}

/** @param {RegisterRequest} request @returns {Promise<Registered>} */
export async function register(request) {
  return /** @type {Registered} */ (await call("POST", "/accounts/register", { body: request }));
}

/** @param {LogInRequest} request @returns {Promise<Token>} */
export async function logIn(request) {
  return /** @type {Token} */ (await call("POST", "/auth/token", { body: request }));
}

/** Revokes the token. */
export async function logOut() {
  await call("DELETE", "/auth/token");
}

/**
 * Changes the account's password: the answer is the account's new token (the new password
 * revoked the old one, on every device).
 * @param {PasswordChangeRequest} request @returns {Promise<Token>}
 */
export async function changePassword(request) {
  return /** @type {Token} */ (await call("POST", "/me/password", { body: request }));
}

/** @returns {Promise<User>} */
export async function me() {
  return /** @type {User} */ (await call("GET", "/me"));
}

/** @returns {Promise<Game[]>} */
export async function games() {
  return /** @type {Game[]} */ (await call("GET", "/games"));
}

/** @param {MatchListQuery} query @returns {Promise<MatchPage>} */
export async function matches(query) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  return /** @type {MatchPage} */ (await call("GET", `/matches?${params}`));
}

/**
 * The page of matches a list's `next` link names, with the query it writes (the same
 * filters, and a cursor where the order allows one: no match skipped or repeated).
 * @param {string} next @returns {Promise<MatchPage>}
 */
export async function matchesAt(next) {
  const { search } = new URL(next, globalThis.location?.href ?? "http://localhost/");
  return /** @type {MatchPage} */ (await call("GET", `/matches${search}`));
}

/** @param {MatchCreate} request @returns {Promise<MatchDetail>} */
export async function createMatch(request) {
  return /** @type {MatchDetail} */ (await call("POST", "/matches", { body: request }));
}

/**
 * Takes an open seat of a match waiting for players (the first one, without `seat`).
 * @param {string} id @returns {Promise<MatchDetail>}
 */
export async function join(id) {
  return /** @type {MatchDetail} */ (await call("POST", `/matches/${encodeURIComponent(id)}/join`, { body: {} }));
}

/**
 * Leaves a match under way: a COM of the game's middle level plays your seat from then on
 * (you read the match as a spectator); the last player to leave aborts it instead. A lobby
 * and a local match are not left (409 `cannot_leave`). Answers 204: nothing to return.
 * @param {string} id @returns {Promise<void>}
 */
export async function leave(id) {
  await call("POST", `/matches/${encodeURIComponent(id)}/leave`);
}

/**
 * Aborts a match: its creator's while it waits for players, or while no one else has
 * joined it (`can_abort` in its detail says whether you may). The seed is revealed.
 * @param {string} id @returns {Promise<MatchDetail>}
 */
export async function abort(id) {
  return /** @type {MatchDetail} */ (await call("POST", `/matches/${encodeURIComponent(id)}/abort`, { body: {} }));
}

/** @param {string} id @param {AbortSignal} [signal] @returns {Promise<MatchDetail>} */
export async function match(id, signal) {
  return /** @type {MatchDetail} */ (await call("GET", `/matches/${encodeURIComponent(id)}`, signal ? { signal } : {}));
}

/**
 * Your view as it was after `version` events (the latest version: your view now).
 * @param {string} id @param {number} version @param {AbortSignal} [signal]
 * @returns {Promise<GameView>}
 */
export async function stateAt(id, version, signal) {
  const path = `/matches/${encodeURIComponent(id)}/states/${version}`;
  return /** @type {GameView} */ (await call("GET", path, signal ? { signal } : {}));
}

/**
 * A random (version 4) UUID for an Idempotency-Key. Not crypto.randomUUID: a page served
 * over plain HTTP from any host but localhost is no secure context, which has no
 * randomUUID, while getRandomValues exists everywhere.
 * @returns {string}
 */
export function randomUuid() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40; // version 4
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // the RFC 9562 variant
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Sends an action. With `version`, sends it as If-Match: a 412 then says the table moved.
 * @param {string} id @param {GameAction} action @param {number | null} version
 * @returns {Promise<ActResult>}
 */
export async function act(id, action, version) {
  /** @type {Record<string, string>} */
  const headers = { "Idempotency-Key": randomUuid() };
  if (version !== null) headers["If-Match"] = `"${version}"`;
  const path = `/matches/${encodeURIComponent(id)}/actions`;
  return /** @type {ActResult} */ (await call("POST", path, { body: action, headers }));
}

/** @param {string} id @returns {Promise<Hint>} */
export async function hint(id) {
  return /** @type {Hint} */ (await call("GET", `/matches/${encodeURIComponent(id)}/hint`));
}

/** The audit record's largest page: a match's longest log in a few requests. */
const AUDIT_PAGE = 5000;

/**
 * The full record of an ended match: every event whole, the seed and its commitment (the
 * pages joined: their events and their chain faults).
 * @param {string} id @returns {Promise<Audit>}
 */
export async function audit(id) {
  const path = `/matches/${encodeURIComponent(id)}/audit?limit=${AUDIT_PAGE}`;
  const record = /** @type {Audit} */ (await call("GET", path, { timeout: AUDIT_TIMEOUT_MS }));
  let page = record;
  while (page.has_more) {
    page = /** @type {Audit} */ (await call("GET", `${path}&after=${page.next_after}`, { timeout: AUDIT_TIMEOUT_MS }));
    record.events.push(...page.events);
    record.chain_faults.push(...page.chain_faults);
  }
  return { ...record, next_after: page.next_after, has_more: false };
}

/**
 * Long-polls the log: answers as soon as there are events after `query.after` (waiting
 * up to `query.wait` seconds for one, and REQUEST_TIMEOUT_MS more for the answer).
 * @param {string} id @param {EventsQuery} query @param {AbortSignal} signal
 * @returns {Promise<EventPage>}
 */
export async function events(id, query, signal) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const path = `/matches/${encodeURIComponent(id)}/events?${params}`;
  const timeout = REQUEST_TIMEOUT_MS + (query.wait ?? 0) * 1000;
  return /** @type {EventPage} */ (await call("GET", path, { signal, timeout }));
}

/**
 * Follows the log as it is written: GET stream as NDJSON (one event a line, an empty line
 * to keep alive) from after `query.after`. Answers the stream (its events one by one, until
 * it ends: the match has ended, or the stream lived its time, and it is read again from the
 * last seq), or null when the match has ended with nothing after `after` (204). Aborting
 * `signal`, or closing the stream, lets the connection go. A stream not answered within
 * REQUEST_TIMEOUT_MS, or silent for STREAM_IDLE_MS once answered, fails as a lost
 * connection does.
 * @param {string} id @param {StreamQuery & {after: number}} query @param {AbortSignal} signal
 * @returns {Promise<EventStream | null>}
 */
export async function stream(id, query, signal) {
  const path = `/matches/${encodeURIComponent(id)}/stream?after=${query.after}`;
  // (the time limit is the answer's head's: the body is watched by the EventStream)
  const response = await timed(REQUEST_TIMEOUT_MS, signal, (both) => request("GET", path, { headers: { Accept: NDJSON }, signal: both }));
  if (response.status === 204 || !response.body) return null;
  return new EventStream(response.body.getReader());
}

/**
 * The events of a stream's body, a line each, read as they arrive (whether or not they are
 * taken yet), so that a reader can tell that more have come (`pending`): the moves of one
 * commit (a COM's card and its going out) arrive together. A line cut short by a dropped
 * connection is not an event. A stream that sends nothing, not even its keep-alive line,
 * for `idleMs` is cut: its connection died without a word (no error comes of that, only
 * silence), and it fails as a lost connection does.
 */
export class EventStream {
  /** @param {ReadableStreamDefaultReader<Uint8Array>} reader @param {number} [idleMs] */
  constructor(reader, idleMs = STREAM_IDLE_MS) {
    this.reader = reader;
    this.idleMs = idleMs;
    /** @type {GameEvent[]} events that have arrived, not taken yet */
    this.queue = [];
    this.ended = false;
    /** @type {unknown} why the stream ended early (the connection dropped, or was aborted) */
    this.failure = null;
    /** @type {(() => void) | null} */
    this.wake = null;
    /** @type {ReturnType<typeof setTimeout> | null} the watchdog: cuts a silent stream */
    this.idle = null;
    void this.read();
  }

  /** (Re)starts the watchdog: the stream has `idleMs` to send something. */
  watch() {
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.lose("The connection to the service was lost: it sent nothing for a while."), this.idleMs);
  }

  /** Cuts the stream as lost (the connection is let go; its reader is told `message`). @param {string} message */
  lose(message) {
    if (this.ended) return;
    this.failure = new ApiError(0, null, message);
    this.close();
  }

  async read() {
    const decoder = new TextDecoder();
    let buffered = "";
    try {
      this.watch();
      for (let chunk = await this.reader.read(); !chunk.done; chunk = await this.reader.read()) {
        this.watch();
        buffered += decoder.decode(chunk.value, { stream: true });
        for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
          /** @type {StreamLine} */
          const line = buffered.slice(0, end).trim();
          buffered = buffered.slice(end + 1);
          if (line) this.queue.push(/** @type {GameEvent} */ (JSON.parse(line))); // an empty line keeps alive
        }
        this.notify();
      }
    } catch (error) {
      this.failure ??= isAbort(error) ? error : new ApiError(0, null, "The connection to the service was lost.");
    }
    this.unwatch();
    this.ended = true;
    this.notify();
  }

  notify() {
    const wake = this.wake;
    this.wake = null;
    if (wake) wake();
  }

  /** How many events have arrived and are not taken yet. */
  get pending() {
    return this.queue.length;
  }

  /** The next event, as soon as it has arrived; null once the stream has ended (an
   * ApiError, or the AbortError, when it was cut). @returns {Promise<GameEvent | null>} */
  async next() {
    while (this.queue.length === 0 && !this.ended) await new Promise((resolve) => (this.wake = () => resolve(undefined)));
    const event = this.queue.shift();
    if (event) return event;
    if (this.failure) throw this.failure;
    return null;
  }

  /** Lets the connection go (the events are no longer read). */
  close() {
    this.unwatch();
    this.reader.cancel().catch(() => {});
  }

  unwatch() {
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = null;
  }
}
