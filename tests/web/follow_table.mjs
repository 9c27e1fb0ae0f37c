// How a table follows its match, in headless Chromium: through the event stream (GET
// stream, NDJSON, with the token), reconnecting after a network loss, long-polling only
// when the stream answers that there are no streams, and letting its stream go when the
// table is left. A registers in the page; A creates a one-hole six-card Golf match with
// one open seat through the API, and B (registered through the API) joins it. The script
// then moves for A or B through the API (never through the page), so the page learns of
// every move only by following the match:
//
//   1. the table follows through one NDJSON stream, not the long-poll, and shows B's move;
//   2. the table is left for the lobby and opened again 12 times (more than the service's
//      10 waits and streams per account): every stream opened is let go, and the table
//      still shows the next move;
//   3. the network goes down (the page reaches the service through a proxy here, which
//      drops every connection and refuses new ones): the table says "reconnecting"; a
//      move is made meanwhile; the network comes back: the banner goes and the table
//      shows the move;
//      Then each stream is dropped as soon as it has opened: the table waits longer
//      before each next one (2 s, then 4 s, not 2 s again and again);
//   4. the stream answers 406 (as a service without streams would): the table long-polls
//      the log instead and still shows the next move;
//   5. the stream answers 429 with Retry-After: 0: the table says "reconnecting" and tries
//      again no sooner than after 1 s;
//   6. the stream answers 403 account_suspended: the table shows the API's message, says
//      it no longer follows the match (not "reconnecting") and opens no other stream;
//   7. A's token is revoked through the API while the stream is open, and the connection
//      drops: the stream opened again is answered 401, and the page forgets the token,
//      says to log in again, shows the log-in form and opens no other stream; A logs in
//      again in the page, which shows the table again (its address kept);
//   8. the match is played to its end: the page shows it ended, and opens no more streams.
//
//   node tests/web/follow_table.mjs <base url> <screenshot dir>
//
// Prints, last, a summary line {"done": true, ...}.
import { createServer, connect } from "node:net";
import { launch, newPage, register, say } from "./harness.mjs";

const [base] = process.argv.slice(2);
if (!base) throw new Error("usage: follow_table.mjs <base url> <screenshot dir>");
const DEADLINE = Date.now() + 150_000;
const LEAVE_AND_OPEN = 12;

const summary = { done: false, steps: {} };

// the page's network: a proxy to the service that can go down (every connection dropped,
// new ones refused) and come back, or drop each stream as soon as it has opened
const service = new URL(base);
const network = { up: true, sockets: new Set(), dropStreams: false };
const proxy = createServer((client) => {
  if (!network.up) {
    client.destroy();
    return;
  }
  const upstream = connect(Number(service.port), service.hostname);
  for (const socket of [client, upstream]) {
    network.sockets.add(socket);
    // a connection closed on either side is closed on the other (as without a proxy)
    socket.on("close", () => {
      network.sockets.delete(socket);
      client.destroy();
      upstream.destroy();
    });
    socket.on("error", () => socket.destroy());
  }
  // a stream asked for while streams are dropped: cut once its answer has begun, as a
  // dropped connection (the test server ends a stream's body by closing the connection, so
  // its answer is given a length that the cut leaves short)
  let stream = false;
  client.on("data", (chunk) => {
    if (network.dropStreams && /^GET \/api\/matches\/[^/]+\/stream\?/m.test(chunk.toString("latin1"))) stream = true;
  });
  client.pipe(upstream);
  upstream.on("data", (chunk) => {
    if (!stream) {
      client.write(chunk);
      return;
    }
    const text = chunk.toString("latin1");
    const framed = /^(content-length|transfer-encoding):/im.test(text);
    client.write(framed ? chunk : Buffer.from(text.replace("\r\n", "\r\nContent-Length: 1048576\r\n"), "latin1"));
    stream = false;
    setTimeout(() => upstream.destroy(), 50);
  });
});
await new Promise((resolve) => proxy.listen(0, resolve));
const pageBase = `${service.protocol}//${service.hostname}:${proxy.address().port}`;
function networkDown() {
  network.up = false;
  for (const socket of network.sockets) socket.destroy();
}

const browser = await launch();

/** Sends a request to the API as the holder of `token`; the JSON answer. */
async function call(token, method, path, body) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    headers["Idempotency-Key"] = crypto.randomUUID();
  }
  const response = await fetch(`${base}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

function checkTime(what) {
  if (Date.now() > DEADLINE) throw new Error(`out of time: ${what}`);
}

try {
  const { page, consoleErrors } = await newPage(browser);

  // every request of the page to the match's stream and log, and whether it is still open
  const requests = [];
  const open = new Set();
  page.on("request", (request) => {
    const url = request.url();
    if (!/\/api\/matches\/[^/]+\/(stream|events)\?/.test(url)) return;
    const headers = request.headers();
    requests.push({ request, at: Date.now(), url, kind: url.includes("/stream?") ? "stream" : "events", accept: headers.accept, bearer: (headers.authorization ?? "").startsWith("Bearer ") });
    open.add(request);
  });
  page.on("requestfinished", (request) => open.delete(request));
  const failedAt = new Map();
  page.on("requestfailed", (request) => {
    open.delete(request);
    failedAt.set(request, Date.now());
  });
  const openStreams = () => [...open].filter((r) => r.url().includes("/stream?")).length;

  // A in the page, B through the API; the match: A and an open seat, which B takes
  await page.goto(`${pageBase}/`);
  const alice = await register(page, pageBase, "follow");
  const tokenA = await page.evaluate(() => localStorage.getItem("card-games-token"));
  const bob = `${alice}-b`;
  const tokenB = (await call(null, "POST", "/accounts/register", { username: bob, password: "a-long-pass-phrase-9" })).token;
  const created = await call(tokenA, "POST", "/matches", { game: "golf", preset: "six-card", holes: 1, seats: [{ type: "me" }, { type: "open" }] });
  const matchId = created.id;
  await call(tokenB, "POST", `/matches/${matchId}/join`, {});
  summary.match = matchId;
  const players = [
    { name: "A", token: tokenA, swapped: new Set() },
    { name: "B", token: tokenB, swapped: new Set() },
  ];

  /** One legal move, through the API, of whoever may move (B first); its version after. */
  async function someoneMoves() {
    for (;;) {
      checkTime("waiting for a seat to act");
      for (const p of [...players].reverse()) {
        const detail = await call(p.token, "GET", `/matches/${matchId}`);
        const view = detail.view;
        if (detail.status !== "active") throw new Error(`the match is ${detail.status}`);
        if (view.seat === null || !view.seats_to_act.includes(view.seat) || !view.legal_actions.length) continue;
        // a card swapped in where none was swapped before turns the grids up, so the hole ends
        const legal = view.legal_actions.filter((a) => a.type !== "undo");
        const action = legal.find((a) => a.type === "swap" && !p.swapped.has(a.position)) ?? legal[0] ?? view.legal_actions[0];
        if (action.type === "swap") p.swapped.add(action.position);
        const result = await call(p.token, "POST", `/matches/${matchId}/actions`, action);
        say({ by: p.name, action, version: result.version });
        return result.version;
      }
      await page.waitForTimeout(50);
    }
  }
  const shownVersion = () => page.evaluate(() => Number(document.querySelector(".game-table")?.getAttribute("data-version") ?? -1));
  const showsVersion = (version, timeout = 20_000) =>
    page.waitForFunction((v) => Number(document.querySelector(".game-table")?.getAttribute("data-version")) >= v, version, { timeout });
  const openTable = async () => {
    await page.evaluate((id) => (location.hash = `#/match/${id}`), matchId);
    await page.locator(".game-table").waitFor();
  };

  // 1. one NDJSON stream, with the token; B's move arrives through it
  await openTable();
  const before = await shownVersion();
  const moved = await someoneMoves();
  await showsVersion(moved);
  summary.steps.stream = {
    before,
    moved,
    shown: await shownVersion(),
    streams: requests.filter((r) => r.kind === "stream").length,
    polls: requests.filter((r) => r.kind === "events").length,
    accept: requests[0]?.accept,
    bearer: requests.every((r) => r.bearer),
    after: requests[0] ? new URL(requests[0].url).searchParams.get("after") : null,
  };

  // 2. the table left and opened again, more times than an account's streams at once
  const streamsBefore = requests.filter((r) => r.kind === "stream").length;
  const leaveTable = async () => {
    await page.evaluate(() => (location.hash = "#/"));
    await page.getByRole("heading", { name: /^New .* match$/ }).waitFor();
  };
  for (let i = 0; i < LEAVE_AND_OPEN; i += 1) {
    checkTime("leaving and opening the table");
    await leaveTable();
    const opened = requests.length;
    await openTable();
    // the table has asked for its stream before it is left
    while (requests.length === opened) {
      checkTime("a reopened table's stream");
      await page.waitForTimeout(20);
    }
  }
  const settle = Date.now() + 5_000;
  while (openStreams() > 1 && Date.now() < settle) await page.waitForTimeout(50);
  const stillOpen = openStreams();
  const afterLeaving = await someoneMoves();
  await showsVersion(afterLeaving);
  summary.steps.leave = {
    times: LEAVE_AND_OPEN,
    streams: requests.filter((r) => r.kind === "stream").length - streamsBefore,
    open: stillOpen,
    moved: afterLeaving,
    shown: await shownVersion(),
    polls: requests.filter((r) => r.kind === "events").length,
  };

  // 3. the network goes down and comes back
  const banner = page.locator(".connection");
  networkDown();
  await page.waitForFunction(() => (document.querySelector(".connection")?.textContent ?? "").includes("reconnecting"), null, { timeout: 20_000 });
  const lostText = await banner.textContent();
  const whileOffline = await someoneMoves();
  const shownOffline = await shownVersion();
  network.up = true;
  await showsVersion(whileOffline, 30_000);
  await page.waitForFunction(() => (document.querySelector(".connection")?.textContent ?? "") === "");
  summary.steps.network = { banner: lostText, moved: whileOffline, shownWhileOffline: shownOffline, shown: await shownVersion(), bannerAfter: await banner.textContent() };

  // 3b. streams that open and drop at once: the table waits longer before each next one
  // (the stream open now is cut, which the test server's streams take for their end: it is
  // opened again at once; that one drops: 2 s; the next drops too: 4 s, not 2 s again)
  const streamRequests = () => requests.filter((r) => r.kind === "stream");
  const streamsLive = streamRequests().length;
  network.dropStreams = true;
  for (const socket of network.sockets) socket.destroy();
  while (streamRequests().length < streamsLive + 3) {
    checkTime("streams that drop at once");
    await page.waitForTimeout(50);
  }
  network.dropStreams = false;
  const dropping = streamRequests().slice(streamsLive, streamsLive + 3);
  const waited = (i) => (failedAt.has(dropping[i].request) ? dropping[i + 1].at - failedAt.get(dropping[i].request) : null);
  summary.steps.dropAtOnce = {
    opened: (await Promise.all(dropping.slice(0, 2).map((r) => r.request.response()))).every((r) => r !== null),
    waited: [waited(0), waited(1)],
    banner: await banner.textContent(),
  };

  // 4. a service without streams: the table long-polls instead
  const notAcceptable = {
    type: "about:blank",
    title: "Not acceptable",
    status: 406,
    detail: "this service sends no event streams",
    code: "not_acceptable",
  };
  await page.route(/\/api\/matches\/[^/]+\/stream\?/, (route) =>
    route.fulfill({ status: 406, contentType: "application/problem+json", body: JSON.stringify(notAcceptable) }),
  );
  const pollsBefore = requests.filter((r) => r.kind === "events").length;
  await leaveTable();
  await openTable();
  while (requests.filter((r) => r.kind === "events").length === pollsBefore) {
    checkTime("the long-poll after a 406");
    await page.waitForTimeout(20);
  }
  const polled = await someoneMoves();
  await showsVersion(polled);
  const poll = requests.filter((r) => r.kind === "events").at(-1);
  summary.steps.fallback = { moved: polled, shown: await shownVersion(), polls: requests.filter((r) => r.kind === "events").length - pollsBefore, wait: new URL(poll.url).searchParams.get("wait") };
  await page.unroute(/\/api\/matches\/[^/]+\/stream\?/);

  // 5. a stream answered 429 with Retry-After: 0: the table waits at least 1 s between tries
  const streamsCount = () => requests.filter((r) => r.kind === "stream").length;
  // what the stream is answered while routed (the table's retries meet the latest answer)
  let answer = null;
  const answerStream = async (status, problem, headers = {}) => {
    const first = answer === null;
    answer = { status, headers, contentType: "application/problem+json", body: JSON.stringify({ type: "about:blank", status, ...problem }) };
    if (first) await page.route(/\/api\/matches\/[^/]+\/stream\?/, (route) => route.fulfill(answer));
  };
  await answerStream(429, { title: "Too many waiters", detail: "this account has too many waits and streams open", code: "too_many_waiters" }, { "Retry-After": "0" });
  await leaveTable();
  const streamsBusy = streamsCount();
  await openTable();
  await page.waitForTimeout(2_000);
  summary.steps.retryAfter = { streams: streamsCount() - streamsBusy, banner: await banner.textContent() };

  // 6. the account refused (403 account_suspended): the table says why and stops following
  const errors = page.locator("#errors");
  const suspended = { title: "Account suspended", detail: "this account is suspended", code: "account_suspended" };
  await answerStream(403, suspended);
  await page.waitForFunction((detail) => (document.querySelector("#errors")?.textContent ?? "").includes(detail), suspended.detail, { timeout: 10_000 });
  const streamsRefused = streamsCount();
  await page.waitForTimeout(2_500);
  summary.steps.suspended = {
    message: await errors.locator("p").textContent(),
    streamsLater: streamsCount() - streamsRefused,
    banner: await banner.textContent(),
    table: await page.locator(".game-table").count(),
    token: (await page.evaluate(() => localStorage.getItem("card-games-token"))) === tokenA,
  };
  await page.unroute(/\/api\/matches\/[^/]+\/stream\?/);

  // 7. the token revoked (DELETE /api/auth/token) while the stream is open; the network
  // blinks, so the table opens its stream again and is answered 401: the page forgets the
  // token, says to log in again, shows the log-in form and opens no stream; logged in
  // again at the table's address, A has the table again, which follows on
  await leaveTable();
  const streamsOpened = streamsCount();
  await openTable();
  while (streamsCount() === streamsOpened) {
    checkTime("the stream before the token is revoked");
    await page.waitForTimeout(20);
  }
  await call(tokenA, "DELETE", "/auth/token");
  networkDown();
  network.up = true;
  await page.waitForFunction(() => (document.querySelector("#errors")?.textContent ?? "").includes("log in again"), null, { timeout: 15_000 });
  const streamsLoggedOut = streamsCount();
  await page.getByRole("button", { name: "Log in" }).waitFor();
  await page.waitForTimeout(2_500);
  summary.steps.revoked = {
    message: await errors.locator("p").textContent(),
    streamsLater: streamsCount() - streamsLoggedOut,
    banner: await banner.count(),
    loginForm: await page.getByRole("button", { name: "Log in" }).count(),
    token: await page.evaluate(() => localStorage.getItem("card-games-token")),
  };
  const streamsNow = streamsCount();
  await page.getByLabel("Name").fill(alice);
  await page.getByLabel("Password").fill("a-long-pass-phrase-9");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.locator(".game-table").waitFor();
  players[0].token = await page.evaluate(() => localStorage.getItem("card-games-token"));

  // 8. to the end of the match, every move through the API; then no stream is opened again
  let last = await shownVersion();
  let moves = 0;
  for (;;) {
    checkTime("playing the match to its end");
    const detail = await call(players[0].token, "GET", `/matches/${matchId}`);
    if (detail.status !== "active") {
      last = detail.version;
      summary.status = detail.status;
      break;
    }
    await someoneMoves();
    moves += 1;
  }
  await showsVersion(last, 60_000);
  await page.locator('.game-table[data-phase="finished"]').waitFor();
  const streamsAtEnd = requests.filter((r) => r.kind === "stream").length;
  await page.waitForTimeout(2_500);
  summary.steps.end = {
    moves,
    version: last,
    shown: await shownVersion(),
    streams: streamsAtEnd - streamsNow,
    streamsLater: requests.filter((r) => r.kind === "stream").length - streamsAtEnd,
    open: openStreams(),
    polls: requests.filter((r) => r.kind === "events").length - pollsBefore - summary.steps.fallback.polls,
  };

  // the errors Chromium logs for requests that failed on purpose here are expected
  const expected = /net::ERR_(CONNECTION_RESET|CONNECTION_CLOSED|EMPTY_RESPONSE|CONNECTION_REFUSED|CONTENT_LENGTH_MISMATCH|SOCKET_NOT_CONNECTED)|status of (401|403|406|429)/;
  summary.consoleErrors = consoleErrors.filter((e) => !expected.test(e));
  summary.done = true;
} finally {
  await browser.close();
  networkDown();
  proxy.close();
  say(summary);
}
