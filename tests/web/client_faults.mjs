// The web client against a fake API, in headless Chromium: the page's own files (web/,
// with the service's Content-Security-Policy) and an API answered by this script
// (context.route), so that what a live service does only now and then (a turn timed out
// while a choice is open, a token revoked between two moves, a slow read overtaken) happens
// at once, every time. Each scenario runs in a context of its own and reports what it saw:
//
//   plainHttp      the page at http://cards.test (no secure context: no crypto.randomUUID)
//                  sends a move, with a v4 UUID as its Idempotency-Key; a move whose answer
//                  is unreadable leaves the table drawn again, not busy, and says so;
//   sendingShown   a move whose answer takes a while: "Sending your move…", aria-busy, the
//                  table's cursor saying so, until it comes;
//   statusWithoutProblem a move answered 502, then 500, by a proxy's page (no problem+json):
//                  said in a sentence, not "HTTP 502";
//   staleChoice    "Discard and turn up a card…" and a hint, then the server deals the next
//                  hole (the page sent nothing): both are gone; during the opening flips a
//                  hint stays while another seat flips;
//   loggedOut*     a 401 on a move, a hint, a past version: the token is forgotten and the
//                  log-in form shown, as for any other 401;
//   logInAgain     logged out at a table, the player logs in again: the table, not the lobby;
//   historyRace    a slow past version answered after "Back to live", or after a later
//                  pick: not shown;
//   lobbyPages     25 matches of yours and 22 open ones, 20 a page: "More…" adds the rest,
//                  one that was joined meanwhile (gone from the open list) skipping none;
//   golfSeen       a Golf card seen before an undo is named in its label;
//   golfPoints     the points beside a Golf seat's name: the face-up cards' "before matched
//                  columns" in play, the hole's score once it is over;
//   golfStockSeen  the cards on top of the Golf stock seen before an undo (`stock_seen`) are
//                  shown under the stock and named in its label;
//   liveRegions    after a move of this page's, then another seat's (from the stream), the
//                  prompt and the move log are the same elements, never off the page, their
//                  text new (a live region newly put on the page is not announced);
//   heartsSeen     Hearts cards seen before an undo, back in a COM's hand, are shown;
//   skipLink       "Skip to the game" focuses the page's content, the table left in place;
//   moveRefused*   a bid refused (422), the service down (503), the network down: the bid
//                  cards chosen and the hint stay; passStale: a pass refused as stale (409)
//                  keeps, at the table read again, the cards still legal and the hint;
//   logOvertaken   another seat's bid just before this page's, in no answer and skipped by
//                  the stream: logged once, in order;
//   seatLeft       a COM moves for a seat the page has as a player's (the player left, in a
//                  log from before seat_handed_over): the match is read again, the COM named;
//   seatHandedOver a player's seat handed to a COM (seat_handed_over): the match is read
//                  again, the COM named, and the log says so;
//   holeOverTooLate "Next hole" refused (422) as the pause had ended on its own: the table
//                  read again, as for a stale move, not the rules' refusal;
//   contractRegion the contract of the bid cards picked is one live region, kept;
//   lastDealShown  the last deal's shown bid cards and a failed revealer's contract;
//   bidCaption     Ninety-Nine bid cards laid aside (yours, a revealer's) under a caption:
//                  whose, and the contract they make;
//   ninetyNineTexts "You lead first", what the others do (bidding, a premium call), and
//                  no "to lead" once the match is over;
//   lastTrickOfDeal the deal's last trick, played by this page, said in the next deal;
//   heartsLastTrickOfDeal the same in Hearts, and the moon said in one sentence;
//   ninetyNineYourBidShown "Your bid is shown" in the move log;
//   historyKeys    the history slider moved with the arrow keys keeps the keyboard, and so
//                  does "Back to live";
//   leaveMatch     "Leave this match…" at a player's table: the confirm dismissed sends
//                  nothing, accepted sends POST leave and shows the lobby;
//   leaveQuestion  the leave confirm() says what leaving does, as the match is then: a COM
//                  plays your seat while another player sits there, else it is aborted;
//   leaveRefused   a leave refused (409 cannot_leave): the message shown, the button kept
//                  and usable;
//   noLeaveButton  no "Leave this match…" for a spectator, a local match, a lobby, an
//                  ended match, nor once the match ends while it is shown;
//   leaveWhenFilled a lobby of yours shown as its last seat is taken (seat_taken): the
//                  button comes (and "Cancel this match…" goes); for a spectator of it, not;
//   cancelLobby    "Cancel this match…" on a lobby its reader may abort (can_abort) alone:
//                  the confirm dismissed sends nothing, accepted sends POST abort and
//                  shows the lobby;
//   timerTicks     a timed match opened: the turn timer counts down from the first view;
//   holeOverNext   "Next hole" after another human's "next": sent without If-Match (every
//                  human says it at once), so no 412;
//   dealHeadings   a Hearts or Ninety-Nine table's heading: "Deal 1 of 3" where the rules
//                  set the deals, else "Deal 1 · to 100" (not the most deals allowed);
//   scoresFit      Hearts' scores at four and five seats fit the side column at 1280 px and
//                  390 px (a COM's level, and a long username, in the head's title);
//   scoreCaptions  the scores' caption: "the match ends at 100", or "after 3 deals, or when
//                  a total reaches 100" where the rules set the deals;
//   heartsPassingWords Hearts' pass direction, to a player ("to your left") and to a
//                  spectator ("each player passes to the left"); the seats still choosing
//                  marked so, not "to play";
//   finalTurnsBanner Golf's final-turns banner: one live region kept, empty outside them;
//   newMatchCounts the new-match form offers only the COMs and open seats that make a
//                  table the preset allows (Golf, Hearts of 3 to 5, hearts-classic of 4),
//                  and a target score where the game plays to one;
//   otherTab       a log-out in another tab shows this one the log-in form; a log-in as
//                  another account there is never sent from this tab under this one's
//                  name, a click made before it heard of it included;
//   refusedAfterOtherTab a 401 on this page's move, answered after another tab saved
//                  another account's token: that token is kept;
//   addresses      a match's address in capitals or ending in "/" opens it; one naming no
//                  match says so over the lobby; an unknown match links to the lobby (no
//                  "Try again" that cannot succeed);
//   verifyFailures the audit record unreadable (503): said, and "Check again" asks again;
//                  a 401 there logs out as every other 401 does;
//   retryAfterCapped a stream told to wait an hour (429, Retry-After: 3600) asks again
//                  within a minute;
//   doubleSubmit   "Start the match" and "Log in" clicked twice, and Enter pressed, while
//                  the answer is on its way: one request each, the buttons disabled meanwhile;
//   silentStream   a stream that sends nothing, not even its keep-alive, for 30 s (a
//                  connection that died without a word; a server of this script's holds
//                  it open): let go, "reconnecting" said, and read again;
//   unreachableCleared a move that could not reach the service, the network down: its
//                  message goes once the stream is read again;
//   silentMove     a move never answered: after 30 s it fails, said, and is offered again;
//   offlineOnline  the device offline: the stream cut at once, "reconnecting" said; back
//                  online: the stream read again at once, not after the back-off;
//   usernamesAsWritten "h66bob" is never "H66bob" (Golf's, Hearts' and Ninety-Nine's
//                  move logs, headings, tables of tricks); "You", "COM 2" still capitalised;
//   abortReason    every game's table says why a match was aborted, from its view's
//                  end_reason, whether it was aborted while shown or opened aborted;
//   deadlineFromAnswer a timed match: the deadline after your move is the action's
//                  answer's, with no read of the match for it;
//   localListed    a local match in your list: "2 players on this device", with or
//                  without COMs, and no empty "against";
//   youNamed       an opponent whose username is "you" is not taken for you: its grid
//                  is "you's grid", yours "Your grid"; the card it drew "you's drawn card";
//   passwordChange the account's "Password" form: a wrong password now said, the form and
//                  the token kept; the right one sends both, keeps the new token, and
//                  says so, with the way back to the lobby; one answered after the player
//                  went to the lobby keeps its token and leaves the lobby shown; one
//                  answered after a log-out leaves the account logged out.
//
//   CLIENT_FAULTS_ONLY=name,name runs those scenarios alone.
//
//   node tests/web/client_faults.mjs <content security policy> [<screenshot dir>]
//
// Prints, last, a summary line {"done": true, "scenarios": {name: {..., error}}}.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { launch, newPage, say } from "./harness.mjs";

const [policy] = process.argv.slice(2);
if (!policy) throw new Error("usage: client_faults.mjs <content security policy> [<screenshot dir>]");
const WEB = new URL("../../web/", import.meta.url);
// localhost is a secure context even over plain HTTP; any other host is not
const LOCAL = "http://localhost:8000";
const PLAIN = "http://cards.test:8000";
const ID = "11111111-2222-4333-8444-555555555555";
const TOKEN = "a-token";
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits (in this script's time) until `test()` holds, for at most 5 s. */
const until = async (test) => {
  for (let i = 0; i < 50 && !test(); i += 1) await sleep(100);
};

// --- the fake API's answers ----------------------------------------------------------------

const json = (status, body) => ({ status, contentType: status >= 400 ? "application/problem+json" : "application/json", body: JSON.stringify(body) });
const problem = (status, code, title, detail) => json(status, { type: "about:blank", title, status, detail, code });
const unauthorized = () => problem(401, "authentication_failed", "Authentication failed", "Invalid token.");
/** An answer the network never gives (the request fails in the page: a TypeError). */
const NETWORK_DOWN = { abort: true };
/** The request goes on to `url` instead (a server of this script's that can hold an answer
 * open, its body sent bit by bit: `route.fulfill` sends a whole body at once). */
const continueTo = (url) => ({ continueTo: url });

function golfView(version, over = {}) {
  return {
    game: "golf", seat: 0, version, phase: "place", hole: 1, holes: 2, rows: 2, cols: 3, dealer: 1,
    players: ["human", "com"], seats_to_act: [0],
    grids: [["QH", null, null, null, "6D", null], ["4C", "KS", null, null, null, null]],
    seen: [], flips_left: [0, 0], stock_size: 32, stock_seen: [], discard: ["JD"], discard_top: "JD",
    drawn: { seat: 0, source: "stock", card: "KD" }, drawn_seen: false, turns_in_hole: 3, max_turns: 240,
    final_turns: null, end_reason: null, face_up_totals: [16, 4], totals: [0, 0], hole_scores: [],
    hole_finishers: [], last_hole_grids: [], winners: [], undo_available: false,
    legal_actions: [{ type: "swap", position: 0 }, { type: "swap", position: 1 }, { type: "discard", flip: 1 }, { type: "discard", flip: 2 }],
    ...over,
  };
}

/** A new hole's opening flips: every grid face down, every seat to turn up two cards. */
function golfFlips(version, over = {}) {
  const down = [null, null, null, null, null, null];
  return golfView(version, {
    phase: "flips", hole: 2, drawn: null, flips_left: [2, 2], seats_to_act: [0, 1], grids: [down, down], face_up_totals: [0, 0],
    legal_actions: down.map((_, position) => ({ type: "reveal", position })),
    ...over,
  });
}

function heartsView(version, over = {}) {
  const hand = ["5C", "9C", "JC", "3D", "8D", "KD", "2S", "7S", "QS", "4H", "TH", "AH"];
  return {
    game: "hearts", seat: 0, version, phase: "playing", deal: 1, deals: 16, dealer: 0,
    players: ["human", "com", "com", "com"], seats_to_act: [1], direction: "left",
    hand, hands: [hand, null, null, null], hand_sizes: [12, 12, 12, 12], removed: [], pass: null,
    passes_chosen: [], leader: 1, to_act: 1, trick: [], tricks: [], taken: [0, 0, 0, 0], jack: null,
    hearts_broken: false, totals: [0, 0, 0, 0], deal_scores: [], last_deal: null, target_score: 100,
    winners: [], end_reason: null, legal_actions: [], undo_available: false, seen: [],
    ...over,
  };
}

function detail(view) {
  const seat = (index) => (view.players[index] === "com"
    ? { index, kind: "com", username: null, com_level: "easy", to_act: false }
    : { index, kind: "human", username: "alice", com_level: null, to_act: true });
  return {
    id: ID, game: view.game, preset: view.game === "golf" ? "six-card" : "hearts", status: "active", version: view.version,
    round: 1, rounds: 2, totals: view.totals, seats: view.players.map((_, i) => seat(i)), your_seat: 0, your_turn: true,
    practice: false, created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z", rules: {}, hints_enabled: true,
    turn_timeout: null, round_pause_seconds: null, local: false, seed_commitment: "00", seed: null, winners: [], view,
  };
}

function summary(i, over = {}) {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, game: "golf", preset: "six-card", status: "finished",
    version: 5, round: 1, rounds: 1, totals: [0, 0],
    seats: [{ index: 0, kind: "human", username: "alice", com_level: null, to_act: false }, { index: 1, kind: "com", username: null, com_level: "easy", to_act: false }],
    your_seat: 0, your_turn: false, practice: false, created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z",
    ...over,
  };
}

/** One page of `all`, as the API pages a list: 20 a page, `next` while there are more. */
function pageOf(all, query) {
  // as the API pages the order no move changes: from the match after `before`, and a
  // `next` link with the same query and the page's last match as its cursor
  const size = Number(query.get("page_size") ?? 20);
  const before = query.get("before");
  const from = before === null ? 0 : all.findIndex((m) => m.id === before) + 1;
  const results = all.slice(from, from + size);
  const following = new URLSearchParams(query);
  following.set("before", results.at(-1)?.id ?? "");
  const next = from + size < all.length ? `${LOCAL}/api/matches?${following}` : null;
  return json(200, { count: all.length - from, next, previous: null, results });
}

/** GET /api/games for the lobby: Golf alone. */
const GAMES = [{ name: "golf", title: "Golf", description: "Golf.", round_name: "hole", seats: { min: 2, max: 6 }, presets: [{ name: "six-card", seats: { min: 2, max: 6 }, rules: { grid: "2x3", jokers: false, opening_flips: "simultaneous", final_turns: "one_each" } }], default_preset: "six-card", default_seats: { "six-card": [{}, {}] }, com_levels: ["easy"], default_com_level: "easy" }];

/**
 * A match the fake API serves: its views by version, and events released one by one to
 * the stream (held open meanwhile, as a stream with nothing new is).
 */
function fakeMatch(views) {
  const match = { views: new Map(views.map((v) => [v.version, v])), events: [], wake: () => {} };
  match.release = (event) => {
    match.events.push(event);
    match.wake();
  };
  match.stream = async (after) => {
    let ready = match.events.filter((e) => e.seq > after);
    if (!ready.length) {
      await Promise.race([sleep(1500), new Promise((resolve) => (match.wake = resolve))]);
      ready = match.events.filter((e) => e.seq > after);
    }
    const body = ready.map((e) => `${JSON.stringify(e)}\n`).join("") || "\n";
    return { status: 200, contentType: "application/x-ndjson", body };
  };
  // the match now: its first view, or the last event released since
  const now = () => match.views.get(Math.max(views[0].version, ...match.events.map((e) => e.seq)));
  match.answer = async (method, path, query) => {
    if (path === "/me") return json(200, { id: 1, username: "alice", email: "", is_staff: false });
    if (path === `/matches/${ID}`) return json(200, detail(now()));
    const state = new RegExp(`^/matches/${ID}/states/(\\d+)$`).exec(path);
    if (state && match.views.has(Number(state[1]))) return json(200, match.views.get(Number(state[1])));
    if (path === `/matches/${ID}/stream`) return match.stream(Number(query.get("after")));
    return problem(404, "not_found", "Not found", `${method} ${path} is not faked here`);
  };
  return match;
}

const event = (seq, type, seat, data) => ({ seq, type, schema_version: 1, actor: seat === null ? "timer:0" : `seat:${seat}`, seat, created_at: "2026-01-01T00:00:00Z", data });

// --- the page ------------------------------------------------------------------------------

const browser = await launch();
/** The console errors of the scenario's pages (a request answered 4xx aside: on purpose). */
let pageErrors = [];
const EXPECTED = /the server responded with a status of (4\d\d|50[023])|net::ERR_FAILED|net::ERR_INTERNET_DISCONNECTED/;

/**
 * A page of the web client at `origin`, its API answered by `answer(method, path, query,
 * request)` (null: the match's own answers), logged in and showing `hash`; with `clock`,
 * its timers are Playwright's fake ones from the start (run by page.clock.runFor).
 */
async function open(answer, { origin = LOCAL, hash = `#/match/${ID}`, clock = false } = {}) {
  const { page, consoleErrors } = await newPage(browser);
  if (clock) await page.clock.install();
  // (a request sent on to a server of this script's, continueTo, goes to the loopback address)
  await page.context().grantPermissions(["local-network-access"]);
  page.setDefaultTimeout(10_000);
  pageErrors.push(consoleErrors);
  const requests = [];
  await page.context().route(`${origin}/**`, async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    let response;
    if (url.pathname === "/") {
      response = { status: 200, contentType: "text/html; charset=utf-8", headers: { "Content-Security-Policy": policy }, body: readFileSync(new URL("index.html", WEB)) };
    } else if (url.pathname.startsWith("/static/web/")) {
      const name = url.pathname.slice("/static/web/".length);
      const type = name.endsWith(".js") ? "text/javascript" : name.endsWith(".css") ? "text/css" : "image/svg+xml";
      response = { status: 200, contentType: type, body: readFileSync(new URL(name, WEB)) };
    } else if (url.pathname.startsWith("/api/")) {
      const path = url.pathname.slice("/api".length);
      requests.push({ method: request.method(), path, query: url.search, headers: request.headers() });
      response = await answer(request.method(), path, url.searchParams, request);
    } else response = { status: 404, body: "" };
    if (response === NETWORK_DOWN) await route.abort("failed").catch(() => {});
    else if (response.continueTo) await route.continue({ url: response.continueTo }).catch(() => {});
    else await route.fulfill(response).catch(() => {}); // (the page may be gone meanwhile)
  });
  await page.goto(`${origin}/`);
  await page.evaluate((token) => localStorage.setItem("card-games-token", token), TOKEN);
  await page.evaluate((to) => (location.hash = to), hash);
  return { page, requests, consoleErrors };
}

/** What a table says of itself, and the page around it. */
async function tableState(page) {
  return page.evaluate(() => {
    const table = document.querySelector(".game-table");
    const errors = document.getElementById("errors");
    return {
      version: table ? Number(table.getAttribute("data-version")) : null,
      phase: table?.getAttribute("data-phase") ?? null,
      busy: table?.getAttribute("data-busy") ?? null,
      history: table?.getAttribute("data-history") ?? null,
      prompt: table?.querySelector(".prompt")?.textContent ?? null,
      hint: table?.querySelector(".hint")?.textContent || null,
      hinted: table ? table.querySelectorAll(".hinted").length : 0,
      clickable: table ? table.querySelectorAll(".seat.mine button").length : 0,
      toolbar: table ? [...table.querySelectorAll(".actions button")].map((b) => b.textContent) : [],
      message: errors && !errors.hidden ? (errors.querySelector("p")?.textContent ?? "") : null,
      token: localStorage.getItem("card-games-token"),
      loginForm: document.querySelectorAll("form.login").length,
    };
  });
}

const atVersion = (page, version) => page.locator(`.game-table[data-version="${version}"][data-busy="false"]`).waitFor({ timeout: 10_000 });

// --- the scenarios -------------------------------------------------------------------------

const scenarios = {};

scenarios.plainHttp = async () => {
  const match = fakeMatch([golfView(10), golfView(11, { phase: "draw", drawn: null, legal_actions: [{ type: "draw" }] })]);
  let unreadable = false;
  const { page, requests } = await open(async (method, path, query) => {
    if (method === "POST" && path === `/matches/${ID}/actions`) {
      // the second move's answer cannot be read (a proxy's page, say): the table fails in the page
      if (unreadable) return { status: 200, contentType: "application/json", body: "<html>not JSON</html>" };
      unreadable = true;
      return json(200, { version: 11, events: [event(11, "card_swapped", 0, { card: "KD", position: 0, replaced: "QH" })], view: match.views.get(11) });
    }
    return match.answer(method, path, query);
  }, { origin: PLAIN });
  const context = await page.evaluate(() => ({ secure: window.isSecureContext, randomUUID: typeof crypto.randomUUID }));
  await atVersion(page, 10);
  await page.locator('.seat.mine button[data-position="0"]').click();
  await atVersion(page, 11);
  const moved = await tableState(page);
  await page.locator(".pile.stock").click();
  await page.locator("#errors:not([hidden])").waitFor({ timeout: 5_000 });
  const failed = await tableState(page);
  const posts = requests.filter((r) => r.method === "POST");
  return { context, keys: posts.map((r) => r.headers["idempotency-key"]), moved, failed, stockOffered: await page.locator("button.pile.stock").count() };
};

scenarios.sendingShown = async () => {
  // a move whose answer takes a while: the table says it is being sent
  const match = fakeMatch([golfView(10), golfView(11, { phase: "draw", drawn: null, legal_actions: [{ type: "draw" }] })]);
  let release = () => {};
  const held = new Promise((resolve) => (release = resolve));
  const { page } = await open(async (method, path, query) => {
    if (method === "POST" && path === `/matches/${ID}/actions`) {
      await held;
      return json(200, { version: 11, events: [event(11, "card_swapped", 0, { card: "KD", position: 0, replaced: "QH" })], view: match.views.get(11) });
    }
    return match.answer(method, path, query);
  });
  const busy = () => page.evaluate(() => {
    const table = document.querySelector(".game-table");
    return { ariaBusy: table?.getAttribute("aria-busy") ?? null, cursor: table ? getComputedStyle(table).cursor : null };
  });
  await atVersion(page, 10);
  const before = { ...(await tableState(page)), ...(await busy()) };
  await page.locator('.seat.mine button[data-position="0"]').click();
  await page.locator('.game-table[data-busy="true"]').waitFor();
  const sending = { ...(await tableState(page)), ...(await busy()) };
  release();
  await atVersion(page, 11);
  return { before, sending, answered: { ...(await tableState(page)), ...(await busy()) } };
};

scenarios.statusWithoutProblem = async () => {
  // a move answered by a proxy's page, not the service's problem: a 502, then a 500
  const match = fakeMatch([golfView(10)]);
  const statuses = [502, 500];
  const { page } = await open(async (method, path, query) => {
    if (method === "POST" && path === `/matches/${ID}/actions`) {
      return { status: statuses.shift(), contentType: "text/html", body: "<html><h1>Bad Gateway</h1></html>" };
    }
    return match.answer(method, path, query);
  });
  const message = async () => {
    await page.locator("#errors:not([hidden])").waitFor();
    const text = await page.locator("#errors p").textContent();
    await page.getByRole("button", { name: "Dismiss the message" }).click();
    return text;
  };
  await atVersion(page, 10);
  await page.locator('.seat.mine button[data-position="0"]').click();
  const badGateway = await message();
  await atVersion(page, 10);
  await page.locator('.seat.mine button[data-position="0"]').click();
  return { badGateway, serverError: await message() };
};

scenarios.staleChoice = async () => {
  const match = fakeMatch([golfView(10), golfFlips(11), golfFlips(12, { grids: [Array(6).fill(null), ["9S", null, null, null, null, null]], flips_left: [2, 1] })]);
  const { page } = await open(async (method, path, query) => {
    if (path === `/matches/${ID}/hint`) {
      const flips = match.events.length > 0;
      return json(200, flips ? { action: { type: "reveal", position: 3 }, reason: "Turn up card 4." } : { action: { type: "discard", flip: 1 }, reason: "Discard the king, turning up card 2." });
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  await page.getByRole("button", { name: "Hint" }).click();
  await page.locator(".hint:not(:empty)").waitFor();
  await page.getByRole("button", { name: "Discard and turn up a card…" }).click();
  const choosing = await tableState(page);
  // the turn timer moves on, and the next hole is dealt: nothing this page sent
  match.release(event(11, "hole_dealt", null, { hole: 2 }));
  await atVersion(page, 11);
  const dealt = await tableState(page);
  // in the opening flips every seat acts at once: the other seat's flip leaves the hint
  await page.getByRole("button", { name: "Hint" }).click();
  await page.locator(".hint:not(:empty)").waitFor();
  match.release(event(12, "card_revealed", 1, { seat: 1, position: 0, card: "9S" }));
  await atVersion(page, 12);
  return { choosing, dealt, otherFlipped: await tableState(page) };
};

/** A 401 on one request the player makes (`kind`): what the page does then. */
async function loggedOut(kind) {
  const match = fakeMatch([golfView(10)]);
  const refuse = { move: `/matches/${ID}/actions`, hint: `/matches/${ID}/hint`, history: `/matches/${ID}/states/5` }[kind];
  const { page, requests } = await open(async (method, path, query) => (path === refuse ? unauthorized() : match.answer(method, path, query)));
  await atVersion(page, 10);
  if (kind === "move") await page.locator('.seat.mine button[data-position="0"]').click();
  else if (kind === "hint") await page.getByRole("button", { name: "Hint" }).click();
  else await page.locator("#history").fill("5");
  await page.locator("form.login").waitFor({ timeout: 5_000 });
  const state = await tableState(page);
  return { ...state, refused: requests.filter((r) => r.path === refuse).length };
}
scenarios.loggedOutMove = () => loggedOut("move");
scenarios.loggedOutHint = () => loggedOut("hint");
scenarios.loggedOutHistory = () => loggedOut("history");

scenarios.logInAgain = async () => {
  // logged out at a table (a 401 on a move), the player logs in again there
  const match = fakeMatch([golfView(10)]);
  let refused = false;
  const { page } = await open(async (method, path, query) => {
    if (method === "POST" && path === `/matches/${ID}/actions` && !refused) {
      refused = true;
      return unauthorized();
    }
    if (method === "POST" && path === "/auth/token") return json(200, { token: "a-new-token" });
    if (path === "/games") return json(200, GAMES);
    if (path === "/matches") return pageOf([], query);
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  await page.locator('.seat.mine button[data-position="0"]').click();
  await page.locator("form.login").waitFor();
  const loggedOut = await page.evaluate(() => location.hash);
  await page.getByLabel("Name").fill("alice");
  await page.getByLabel("Password").fill("pw-alice-123");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForFunction(() => localStorage.getItem("card-games-token") === "a-new-token");
  await page.locator(".game-table, .lobby").first().waitFor();
  return { loggedOut, hash: await page.evaluate(() => location.hash), table: await page.locator(".game-table").count(), lobby: await page.locator(".lobby").count() };
};

scenarios.historyRace = async () => {
  const match = fakeMatch([golfView(10)]);
  const { page } = await open(async (method, path, query) => {
    const state = new RegExp(`^/matches/${ID}/states/(\\d+)$`).exec(path);
    if (state && Number(state[1]) < 10) {
      if (Number(state[1]) === 2) await sleep(700); // a slow read
      return json(200, golfView(Number(state[1]), { legal_actions: [], turns_in_hole: Number(state[1]) }));
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  const slider = page.locator("#history");
  // a slow past version, then "Back to live" before it comes
  await slider.fill("9");
  await page.locator('.game-table[data-history="true"][data-version="9"]').waitFor();
  await slider.fill("2");
  await page.getByRole("button", { name: "Back to live" }).click();
  await sleep(1000);
  const afterLive = await tableState(page);
  // a slow past version overtaken by a later pick
  await slider.fill("2");
  await slider.fill("7");
  await page.locator('.game-table[data-history="true"][data-version="7"]').waitFor();
  await sleep(1000);
  return { afterLive, overtaken: await tableState(page) };
};

scenarios.lobbyPages = async () => {
  // your 25 matches, newest first: the oldest, on page 2, is waiting for your move; the
  // newest two, Hearts played to a target (`rounds` is the most it can last) and Golf
  const played = [{ game: "hearts", preset: "hearts", round: 3, rounds: 16 }, { round: 2, rounds: 9 }];
  const mine = Array.from({ length: 25 }, (_, i) => summary(i, { ...played[i], ...(i === 24 ? { status: "active", your_turn: true } : {}) }));
  const waiting = Array.from({ length: 22 }, (_, i) =>
    summary(100 + i, { ...played[i], round: 0, status: "waiting", your_seat: null, seats: [{ index: 0, kind: "human", username: `bob${i}`, com_level: null, to_act: false }, { index: 1, kind: "open", username: null, com_level: null, to_act: false }] }),
  );
  const games = [{ ...GAMES[0], ends_at_target: false }, { ...GAMES[0], name: "hearts", title: "Hearts", round_name: "deal", ends_at_target: true }];
  const { page, requests } = await open(async (method, path, query) => {
    if (path === "/me") return json(200, { id: 1, username: "alice", email: "", is_staff: false });
    if (path === "/games") return json(200, games);
    if (path === "/matches") return pageOf(query.get("mine") === "true" ? mine : waiting, query);
    return problem(404, "not_found", "Not found", path);
  }, { hash: "#/" });
  const lists = () => page.evaluate(() => ({
    mine: document.querySelectorAll(".my-matches li").length,
    yourTurn: [...document.querySelectorAll(".my-matches li")].filter((li) => li.textContent.includes("your turn")).length,
    open: document.querySelectorAll(".open-matches li").length,
    more: [...document.querySelectorAll("button.more")].filter((b) => b.checkVisibility()).map((b) => b.getAttribute("aria-label")),
  }));
  await page.locator(".my-matches li").first().waitFor();
  const first = await lists();
  const texts = await page.evaluate(() => ["my-matches", "open-matches"].map((list) =>
    [...document.querySelectorAll(`.${list} li`)].slice(0, 3).map((li) => li.textContent.trim())));
  waiting.splice(4, 1); // someone takes the fifth open match's seat: it leaves the list
  await page.getByRole("button", { name: "More of your matches" }).click();
  await page.locator(".my-matches li").nth(24).waitFor();
  const focused = await page.evaluate(() => document.activeElement?.closest("li")?.textContent ?? null);
  await page.getByRole("button", { name: "More open matches" }).click();
  await page.locator(".open-matches li").nth(21).waitFor();
  const pages = requests.filter((r) => r.path === "/matches").map((r) => r.query);
  return { first, after: await lists(), focused, pages, texts };
};

scenarios.golfSeen = async () => {
  const match = fakeMatch([golfView(10, { seen: [{ seat: 0, position: 1, card: "9H" }] })]);
  const { page } = await open(match.answer);
  await atVersion(page, 10);
  const cell = page.locator('.seat.mine [data-position="1"]');
  return { label: await cell.getAttribute("aria-label"), text: await cell.innerText(), tag: await cell.evaluate((n) => n.tagName) };
};

scenarios.golfPoints = async () => {
  // beside each seat's name: in play, the face-up cards' points (not the grid's score: a
  // matched column counts until the hole is scored); once the hole is over, its score
  const points = async (view, rules) => {
    const match = fakeMatch([view]);
    const { page } = await open(async (method, path, query) => (path === `/matches/${ID}` ? json(200, { ...detail(view), rules }) : match.answer(method, path, query)));
    await atVersion(page, view.version);
    return page.locator(".seat .showing").allTextContents();
  };
  const grids = [["KS", "7S", "3H", "KH", "7H", "3D"], ["6H", "4D", "AD", "6S", "AS", "2H"]];
  const over = golfView(40, { phase: "hole_over", drawn: null, grids, face_up_totals: [40, 20], hole_scores: [[0, 4]], hole_finishers: [0], totals: [0, 4], seats_to_act: [0], legal_actions: [{ type: "next" }] });
  return {
    columns: await points(golfView(10), { lines: "columns" }),
    none: await points(golfView(10), { lines: "none" }),
    over: await points(over, { lines: "columns" }),
  };
};

scenarios.golfStockSeen = async () => {
  const draw = { phase: "draw", drawn: null, stock_seen: ["9H", "2C"], legal_actions: [{ type: "draw" }, { type: "take_discard" }] };
  const match = fakeMatch([golfView(10, draw)]);
  const { page } = await open(match.answer);
  await atVersion(page, 10);
  const stock = page.locator(".middle .pile.stock");
  return {
    label: await stock.getAttribute("aria-label"),
    tag: await stock.evaluate((n) => n.tagName),
    text: await page.locator(".middle figure:has(.pile.stock)").innerText(),
    byLabel: await page.getByRole("button", { name: "seen before an undo: the 9 of hearts next" }).count(),
  };
};

scenarios.liveRegions = async () => {
  const mine = golfView(11, { phase: "draw", drawn: null, seats_to_act: [1], grids: [["KD", null, null, null, "6D", null], ["4C", "KS", null, null, null, null]], discard: ["JD", "QH"], discard_top: "QH", legal_actions: [] });
  const theirs = golfView(12, { phase: "draw", drawn: null, seats_to_act: [0], grids: mine.grids, discard: ["JD", "QH"], discard_top: "QH", legal_actions: [{ type: "draw" }, { type: "take_discard" }] });
  const match = fakeMatch([golfView(10), mine, theirs]);
  const { page } = await open(async (method, path, query) => {
    if (method === "POST" && path === `/matches/${ID}/actions`) {
      return json(200, { version: 11, events: [event(11, "card_swapped", 0, { card: "KD", position: 0, replaced: "QH" })], view: mine });
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  // the live regions marked, and every node taken off the page noted from now on
  await page.evaluate(() => {
    document.querySelector(".game-table .prompt").marked = true;
    document.querySelector(".game-table .move-log ol").marked = true;
    window.removed = [];
    new MutationObserver((records) => records.forEach((r) => window.removed.push(...r.removedNodes))).observe(document.body, { childList: true, subtree: true });
  });
  const regions = () => page.evaluate(() => {
    const prompt = document.querySelector(".game-table .prompt");
    const log = document.querySelector(".game-table .move-log ol");
    // a node is taken off the page when it, or a node holding it, is removed
    const left = (node) => window.removed.some((r) => r === node || r.contains(node));
    return {
      version: Number(document.querySelector(".game-table").getAttribute("data-version")),
      samePrompt: prompt?.marked === true,
      sameLog: log?.marked === true,
      left: [...(left(prompt) ? ["prompt"] : []), ...(left(log) ? ["log"] : [])],
      prompt: prompt?.textContent ?? null,
      log: [...(log?.children ?? [])].map((li) => li.textContent),
    };
  });
  const start = await regions();
  await page.locator('.seat.mine button[data-position="0"]').click();
  await atVersion(page, 11);
  const moved = await regions();
  // COM 1's turn, from the stream
  match.release(event(12, "card_swapped", 1, { card: "9S", position: 2, replaced: "2D" }));
  await atVersion(page, 12);
  return { start, moved, otherMoved: await regions() };
};

scenarios.skipLink = async () => {
  const match = fakeMatch([golfView(10)]);
  const { page } = await open(match.answer);
  await atVersion(page, 10);
  await page.locator("a.skip").focus();
  await page.keyboard.press("Enter");
  await sleep(300);
  return {
    hash: await page.evaluate(() => location.hash),
    table: await page.locator(".game-table").count(),
    focused: await page.evaluate(() => document.activeElement?.id ?? null),
  };
};

scenarios.heartsSeen = async () => {
  const match = fakeMatch([heartsView(20, { seen: [{ seat: 1, card: "9H" }, { seat: 1, card: "2D" }] })]);
  const { page } = await open(match.answer);
  await atVersion(page, 20);
  return { texts: await page.locator(".opponent .seen-cards").allTextContents(), seats: await page.locator(".opponent:has(.seen-cards)").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-seat"))) };
};

// --- Hearts and Ninety-Nine tables ----------------------------------------------------------

const HAND = ["5C", "9C", "JC", "3D", "8D", "KD", "2S", "7S", "QS", "4H", "TH", "AH"];
const HAND13 = [...HAND, "6C"];
/** Every pass of three cards of `hand`. */
function passes(hand) {
  const out = [];
  for (let i = 0; i < hand.length; i += 1) for (let j = i + 1; j < hand.length; j += 1) for (let k = j + 1; k < hand.length; k += 1) out.push({ type: "pass", cards: [hand[i], hand[j], hand[k]] });
  return out;
}
/** Hearts' passing: every seat to choose three cards at once. */
function heartsPassing(version, over = {}) {
  return heartsView(version, { phase: "passing", hand: HAND13, hands: [HAND13, null, null, null], hand_sizes: [13, 13, 13, 13], seats_to_act: [0, 1, 2, 3], passes_chosen: [false, false, false, false], leader: null, to_act: null, legal_actions: passes(HAND13), ...over });
}
function ninetyNineView(version, over = {}) {
  const hand = ["9H", "6S", "8S", "9S", "JS", "KS", "7D", "9D", "JD"];
  return {
    game: "ninety-nine", seat: 0, version, phase: "playing", deal: 1, most_deals: 34, target_score: 100, premium_bids: true, dealer: 0, eldest: 1, trumps: null,
    players: ["human", "com", "com"], seats_to_act: [0], dealt: [["6C", "TC", "6H", ...hand], null, null], hands: [hand, null, null], hand_sizes: [9, 9, 9], has_bid: [true, true, true],
    bid_cards: [["6C", "TC", "6H"], null, null], contracts: [8, null, null], premium: { calls: ["pass", "pass", "pass"], seat: null, kind: null, shown: false },
    trick: { leader: 1, plays: [] }, tricks: [], tricks_won: [0, 0, 0], totals: [0, 0, 0], deal_scores: [], last_deal: null, winners: [], end_reason: null, legal_actions: [], ...over,
  };
}
const focused = (page) => page.evaluate(() => ({ tag: document.activeElement?.tagName ?? null, inTable: Boolean(document.activeElement?.closest(".game-table")) }));
const PASS_HINT = { action: { type: "pass", cards: ["QS", "TH", "AH"] }, reason: "Pass the queen of spades and two high hearts." };

scenarios.focusAfterPlay = async () => {
  const lead = [{ seat: 2, card: "6D" }, { seat: 3, card: "JD" }];
  const mine = heartsView(20, { seats_to_act: [0], to_act: 0, leader: 2, trick: lead, legal_actions: ["3D", "8D", "KD"].map((card) => ({ type: "play", card })) });
  const rest = HAND.filter((c) => c !== "3D");
  const played = heartsView(21, { hand: rest, hands: [rest, null, null, null], hand_sizes: [11, 12, 11, 11], seats_to_act: [1], to_act: 1, leader: 2, trick: [...lead, { seat: 0, card: "3D" }] });
  const again = heartsView(22, { hand: rest, hands: [rest, null, null, null], hand_sizes: [11, 11, 11, 11], seats_to_act: [0], to_act: 0, leader: 3, trick: [{ seat: 3, card: "2C" }], legal_actions: ["5C", "9C"].map((card) => ({ type: "play", card })) });
  const match = fakeMatch([mine, played, again]);
  const { page } = await open(async (method, path, query) => {
    if (method === "POST" && path === `/matches/${ID}/actions`) {
      await sleep(300);
      return json(200, { version: 21, events: [event(21, "card_played", 0, { seat: 0, card: "3D" })], view: played });
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, 20);
  await page.locator('.seat.mine button[data-card="3D"]').focus();
  await page.keyboard.press("Enter");
  await sleep(100);
  const busy = await focused(page);
  await atVersion(page, 21);
  match.release(event(22, "card_played", 3, { seat: 3, card: "2C" }));
  await atVersion(page, 22);
  return { busy, yourTurnAgain: await focused(page) };
};

scenarios.jackOfDiamonds = async () => {
  const view = heartsView(40, { jack: 2, tricks: [{ trick: 1, leader: 1, cards: ["2C", "AC", "KC", "7C"], winner: 2, points: 0 }] });
  const facts = async (rules) => {
    const match = fakeMatch([view]);
    const { page } = await open(async (method, path, query) => (path === `/matches/${ID}` ? json(200, { ...detail(view), rules }) : match.answer(method, path, query)));
    await atVersion(page, 40);
    return page.locator(".game-table .facts").textContent();
  };
  return { off: await facts({ jack_of_diamonds: "off" }), counted: await facts({ jack_of_diamonds: "minus_10" }) };
};

scenarios.hintWhileOthersPass = async () => {
  const match = fakeMatch([heartsPassing(10), heartsPassing(11, { seats_to_act: [0, 2, 3], passes_chosen: [false, true, false, false] })]);
  const { page } = await open(async (method, path, query) => {
    if (path === `/matches/${ID}/hint`) {
      await sleep(800); // the search, meanwhile another seat passes
      return json(200, PASS_HINT);
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  await page.locator('.seat.mine button[data-card="5C"]').click();
  await page.getByRole("button", { name: "Hint" }).click();
  await sleep(200);
  match.release(event(11, "cards_passed", 1, { seat: 1, to: 2, cards: [null, null, null] }));
  await atVersion(page, 11);
  await page.locator(".hint:not(:empty)").waitFor({ timeout: 3_000 }).catch(() => {});
  return { state: await tableState(page), chosen: await page.locator('.seat.mine button[aria-pressed="true"]').count() };
};

scenarios.timerPassedForYou = async () => {
  const passed = heartsPassing(11, { seats_to_act: [1, 2, 3], passes_chosen: [true, false, false, false], pass: { cards: ["JC", "QS", "AH"], to: 1, received: null, from: null }, legal_actions: [] });
  const match = fakeMatch([heartsPassing(10), passed]);
  const { page } = await open(async (method, path, query) => (path === `/matches/${ID}/hint` ? json(200, PASS_HINT) : match.answer(method, path, query)));
  await atVersion(page, 10);
  await page.getByRole("button", { name: "Hint" }).click();
  await page.locator(".hint:not(:empty)").waitFor();
  await page.locator('.seat.mine button[data-card="5C"]').click();
  // the turn timer chose seat 0's pass (actor timer:0)
  match.release({ ...event(11, "cards_passed", 0, { seat: 0, to: 1, cards: ["JC", "QS", "AH"] }), actor: "timer:0" });
  await atVersion(page, 11);
  return { state: await tableState(page), log: await page.locator(".move-log li").allTextContents() };
};

scenarios.premiumPrompt = async () => {
  const premium = { calls: [null, "declare", "pass"], seat: 1, kind: "declare", shown: false };
  const match = fakeMatch([ninetyNineView(12, { phase: "premium", premium, dealer: 1, eldest: 2, legal_actions: [{ type: "reveal" }, { type: "pass" }] })]);
  const { page } = await open(match.answer);
  await atVersion(page, 12);
  return tableState(page);
};

scenarios.hintInHistory = async () => {
  const now = heartsView(20, { seats_to_act: [0], to_act: 0, leader: 2, trick: [{ seat: 2, card: "6D" }], legal_actions: ["3D", "8D", "KD"].map((card) => ({ type: "play", card })) });
  const match = fakeMatch([now]);
  const { page } = await open(async (method, path, query) => {
    if (path === `/matches/${ID}/hint`) return json(200, { action: { type: "play", card: "KD" }, reason: "Play the king of diamonds." });
    const past = new RegExp(`^/matches/${ID}/states/(\\d+)$`).exec(path);
    if (past && Number(past[1]) < 20) return json(200, heartsView(Number(past[1]), { hand: [...HAND, "QC"], hands: [[...HAND, "QC"], null, null, null], hand_sizes: [13, 13, 13, 13], seats_to_act: [2] }));
    return match.answer(method, path, query);
  });
  await atVersion(page, 20);
  await page.getByRole("button", { name: "Hint" }).click();
  await page.locator(".hint:not(:empty)").waitFor();
  await page.locator("#history").fill("5");
  await page.locator('.game-table[data-history="true"][data-version="5"]').waitFor();
  const past = await tableState(page);
  await page.getByRole("button", { name: "Back to live" }).click();
  await page.locator('.game-table[data-history="false"][data-version="20"]').waitFor();
  return { past, live: await tableState(page) };
};

scenarios.lastTrick = async () => {
  const lead = [{ seat: 1, card: "6D" }, { seat: 2, card: "QD" }, { seat: 3, card: "JD" }];
  const mine = heartsView(20, { seats_to_act: [0], to_act: 0, leader: 1, trick: lead, legal_actions: ["3D", "8D", "KD"].map((card) => ({ type: "play", card })) });
  const rest = HAND.filter((c) => c !== "KD");
  const won = { trick: 2, leader: 1, cards: ["6D", "QD", "JD", "KD"], winner: 0, points: 0 };
  const next = heartsView(22, { hand: rest, hands: [rest, null, null, null], hand_sizes: [11, 11, 11, 11], seats_to_act: [0], to_act: 0, leader: 0, trick: [], tricks: [won], legal_actions: rest.map((card) => ({ type: "play", card })) });
  const match = fakeMatch([mine, next]);
  const { page } = await open(async (method, path, query) => {
    if (method === "POST" && path === `/matches/${ID}/actions`) return json(200, { version: 22, events: [event(21, "card_played", 0, { seat: 0, card: "KD" }), event(22, "trick_won", null, won)], view: next });
    return match.answer(method, path, query);
  });
  await atVersion(page, 20);
  await page.locator('.seat.mine button[data-card="KD"]').click();
  await atVersion(page, 22);
  return { last: await page.locator(".game-table .last-trick").allTextContents() };
};

scenarios.hintRegion = async () => {
  const match = fakeMatch([heartsPassing(10)]);
  const { page } = await open(async (method, path, query) => (path === `/matches/${ID}/hint` ? json(200, PASS_HINT) : match.answer(method, path, query)));
  await atVersion(page, 10);
  await page.evaluate(() => (document.querySelector(".game-table .hint").marked = true)); // (on the page, empty)
  await page.getByRole("button", { name: "Hint" }).click();
  await page.locator(".hint:not(:empty)").waitFor();
  await page.locator('.seat.mine button[data-card="5C"]').click();
  return page.evaluate(() => ({ same: document.querySelector(".game-table .hint")?.marked === true, role: document.querySelector(".game-table .hint")?.getAttribute("role"), text: document.querySelector(".game-table .hint")?.textContent }));
};

const HAND12 = ["8C", "9C", "7H", "8H", "JH", "AH", "6S", "9S", "QS", "KS", "JD", "QD"];
/** Every bid of three cards of `hand`. */
const bids = (hand) => passes(hand).map(({ cards }) => ({ type: "bid", cards }));
/** Ninety-Nine's bidding: every seat to lay three cards aside at once. */
function ninetyNineBidding(version, over = {}) {
  return ninetyNineView(version, {
    phase: "bidding", seats_to_act: [0, 1, 2], dealt: [HAND12, null, null], hands: [HAND12, null, null], hand_sizes: [12, 12, 12], has_bid: [false, false, false],
    bid_cards: [null, null, null], contracts: [null, null, null], premium: { calls: [null, null, null], seat: null, kind: null, shown: false }, legal_actions: bids(HAND12), ...over,
  });
}
const BID_HINT = { action: { type: "bid", cards: ["8C", "JH", "QD"] }, reason: "Lay aside the 8 of clubs, the jack of hearts and the queen of diamonds: 5 tricks." };
/** The choice in progress, the hint and the move that sends them, as the page shows them. */
const choiceState = (page) => page.evaluate(() => {
  const table = document.querySelector(".game-table");
  const send = table?.querySelector('.actions button[data-action="bid"], .actions button[data-action="pass"]');
  const errors = document.getElementById("errors");
  return {
    version: Number(table?.getAttribute("data-version")),
    chosen: [...(table?.querySelectorAll('.hand.mine button[aria-pressed="true"]') ?? [])].map((b) => b.getAttribute("data-card")),
    hint: table?.querySelector(".hint")?.textContent || null,
    hinted: [...(table?.querySelectorAll(".hand.mine .hinted") ?? [])].map((n) => n.getAttribute("data-card")),
    send: send ? { text: send.textContent, disabled: send.disabled } : null,
    message: errors && !errors.hidden ? (errors.querySelector("p")?.textContent ?? "") : null,
  };
});

/** A bid refused (`kind`): the cards chosen and the hint, before and after. */
async function refusedBid(kind) {
  const refusal = {
    refused: () => problem(422, "illegal_action", "The rules forbid this move", "Not now."),
    down: () => problem(503, "service_unavailable", "Service unavailable", "Try again in a moment."),
    network: () => NETWORK_DOWN,
  }[kind];
  const mine = ["8C", "JH", "QD"];
  const v11 = ninetyNineBidding(11, { has_bid: [true, false, false], seats_to_act: [1, 2], hands: [HAND12.filter((c) => !mine.includes(c)), null, null], hand_sizes: [9, 12, 12], bid_cards: [mine, null, null], contracts: [5, null, null], legal_actions: [] });
  const match = fakeMatch([ninetyNineBidding(10), v11]);
  let posts = 0;
  const { page } = await open(async (method, path, query) => {
    if (path === `/matches/${ID}/hint`) return json(200, BID_HINT);
    if (method === "POST" && path === `/matches/${ID}/actions`) {
      posts += 1; // the first is refused, the one sent again goes
      return posts === 1 ? refusal() : json(200, { version: 11, events: [event(11, "bid_made", 0, { seat: 0, cards: mine })], view: v11 });
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  await page.getByRole("button", { name: "Hint" }).click();
  await page.locator(".hint:not(:empty)").waitFor();
  for (const card of ["8C", "JH", "QD"]) await page.locator(`.hand.mine button[data-card="${card}"]`).click();
  const before = await choiceState(page);
  await page.locator('.actions button[data-action="bid"]').click();
  await page.locator("#errors:not([hidden])").waitFor({ timeout: 5_000 });
  await atVersion(page, 10);
  const after = await choiceState(page);
  await page.locator('.actions button[data-action="bid"]').click(); // sent again: it goes
  await atVersion(page, 11);
  return { posts, before, after, sentAgain: await choiceState(page) };
}
scenarios.moveRefusedRules = () => refusedBid("refused");
scenarios.moveRefusedDown = () => refusedBid("down");
scenarios.moveRefusedNetwork = () => refusedBid("network");

scenarios.passStale = async () => {
  // read again at 11: another seat has passed (this seat still to choose), and the jack of
  // clubs is (for the test's sake) in no pass offered any more
  const again = heartsPassing(11, { seats_to_act: [0, 2, 3], passes_chosen: [false, true, false, false], legal_actions: passes(HAND13.filter((c) => c !== "JC")) });
  const match = fakeMatch([heartsPassing(10), again]);
  const { page } = await open(async (method, path, query) => {
    if (path === `/matches/${ID}/hint`) return json(200, PASS_HINT);
    if (method === "POST" && path === `/matches/${ID}/actions`) return json(409, { type: "about:blank", title: "Version conflict", status: 409, detail: "The match moved on.", code: "version_conflict", current_version: 11 });
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  await page.getByRole("button", { name: "Hint" }).click();
  await page.locator(".hint:not(:empty)").waitFor();
  for (const card of ["5C", "JC", "QS"]) await page.locator(`.hand.mine button[data-card="${card}"]`).click();
  await page.locator('.actions button[data-action="pass"]').click();
  await atVersion(page, 11);
  await page.locator("#errors:not([hidden])").waitFor({ timeout: 5_000 });
  return choiceState(page);
};

scenarios.logOvertaken = async () => {
  const mine = ["8C", "JH", "QD"];
  const rest = HAND12.filter((c) => !mine.includes(c));
  const v11 = ninetyNineBidding(11, { has_bid: [false, true, false], seats_to_act: [0, 2], hand_sizes: [12, 9, 12] });
  const v12 = ninetyNineBidding(12, { has_bid: [true, true, false], seats_to_act: [2], hands: [rest, null, null], hand_sizes: [9, 9, 12], bid_cards: [mine, null, null], contracts: [5, null, null], legal_actions: [] });
  const match = fakeMatch([ninetyNineBidding(10), v11, v12]);
  // COM 1 bid (11) just before this page's bid (12): the answer carries 12 alone
  const theirs = event(11, "bid_made", 1, { seat: 1, cards: [null, null, null] });
  const ours = event(12, "bid_made", 0, { seat: 0, cards: mine });
  const { page, requests } = await open(async (method, path, query) => {
    if (method === "POST" && path === `/matches/${ID}/actions`) return json(200, { version: 12, events: [ours], view: v12 });
    if (path === `/matches/${ID}/events`) {
      const after = Number(query.get("after"));
      const events = [theirs, ours].filter((e) => e.seq > after).slice(0, Number(query.get("limit") ?? 100));
      return json(200, { events, version: 12, next_after: events.at(-1)?.seq ?? after, has_more: false });
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  for (const card of mine) await page.locator(`.hand.mine button[data-card="${card}"]`).click();
  await page.locator('.actions button[data-action="bid"]').click();
  await atVersion(page, 12);
  // the stream brings both only now, after the answer
  match.release(theirs);
  match.release(ours);
  await sleep(1000);
  return { log: await page.locator(".move-log li").allTextContents(), reads: requests.filter((r) => r.path.endsWith("/events")).map((r) => r.query) };
};

/**
 * Bob's seat (1) goes to a COM at version 11, as the event `released` tells the page (the
 * view then made by `afterOf(flips)`): how often the page read the match, its log, and
 * whether it still names bob.
 */
async function seatToCom(afterOf, released) {
  const flips = golfFlips(10, { hole: 1, players: ["human", "human"] });
  const after = golfFlips(11, { hole: 1, ...afterOf(flips) });
  const match = fakeMatch([flips, after]);
  const bob = { index: 1, kind: "human", username: "bob", com_level: null, to_act: true };
  const com = { index: 1, kind: "com", username: null, com_level: "normal", to_act: true };
  let reads = 0;
  const { page } = await open(async (method, path, query) => {
    if (path === `/matches/${ID}`) {
      reads += 1;
      const view = match.views.get(Math.max(10, ...match.events.map((e) => e.seq)));
      return json(200, { ...detail(view), seats: [detail(view).seats[0], match.events.length ? com : bob] });
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  const readsBefore = reads;
  match.release(released);
  await atVersion(page, 11);
  await sleep(300);
  return { readsBefore, reads, log: await page.locator(".move-log li").allTextContents(), names: await page.locator(".game-table").evaluate((t) => t.textContent.includes("bob")) };
}

// bob (seat 1) left before the log said so: a COM plays his seat, and no event tells it
scenarios.seatLeft = () => seatToCom(
  (flips) => ({ players: ["human", "human"], flips_left: [2, 1], grids: [flips.grids[0], ["4C", null, null, null, null, null]] }),
  { ...event(11, "card_revealed", 1, { seat: 1, position: 0, card: "4C" }), actor: "com:normal:1" },
);

// bob (seat 1) left: the log says so, and a COM plays his seat
scenarios.seatHandedOver = () => seatToCom(
  () => ({ players: ["human", "com"] }),
  { ...event(11, "seat_handed_over", 1, { seat: 1 }), actor: "user:7:1" },
);

scenarios.contractRegion = async () => {
  const match = fakeMatch([ninetyNineBidding(10)]);
  const { page } = await open(match.answer);
  await atVersion(page, 10);
  const region = () => page.evaluate(() => {
    const node = document.querySelector(".game-table .contract-live");
    return { same: node?.marked === true, role: node?.getAttribute("role") ?? null, text: node?.textContent ?? null, contract: node?.getAttribute("data-contract") ?? null };
  });
  await page.evaluate(() => (document.querySelector(".game-table .contract-live").marked = true));
  await page.locator('.hand.mine button[data-card="8C"]').click();
  await page.locator('.hand.mine button[data-card="JH"]').click();
  return region();
};

const B0 = ["8C", "JH", "QD"];
const B2 = ["7C", "8D", "9D"];
/** Deal 1 scored: you made 5; COM 1 missed (its bid unseen); COM 2 revealed and missed 3. */
const DEAL_1 = {
  deal: 1, tricks: [5, 2, 2], made: [true, false, false], contracts: [5, null, 3], bid_cards: [B0, null, B2], premium_seat: 2, premium: "reveal",
  points: [{ tricks: 5, bonus: 20, premium: 60, total: 85 }, { tricks: 2, bonus: 0, premium: 60, total: 62 }, { tricks: 2, bonus: 0, premium: -120, total: -118 }],
  totals: [85, 62, -118],
};
const dealTwo = (version) => ninetyNineBidding(version, { deal: 2, dealer: 1, eldest: 2, trumps: "H", last_deal: DEAL_1, deal_scores: [[85, 62, -118]], totals: [85, 62, -118] });

scenarios.lastDealShown = async () => {
  const match = fakeMatch([dealTwo(44)]);
  const { page } = await open(match.answer);
  await atVersion(page, 44);
  return {
    lines: await page.locator(".last-deal li").evaluateAll((items) => items.map((li) => ({
      seat: li.getAttribute("data-seat"),
      text: li.firstChild?.textContent ?? "",
      bid: [...li.querySelectorAll(".bid-cards .card")].map((c) => c.getAttribute("data-card")),
      label: li.querySelector(".bid-cards")?.getAttribute("aria-label") ?? null,
    }))),
  };
};

scenarios.bidCaption = async () => {
  // your bid cards laid aside, and the bid a revealer showed: captioned, whose and what
  const premium = { calls: ["pass", "reveal", "pass"], seat: 1, kind: "reveal", shown: true };
  const view = ninetyNineView(20, { premium, bid_cards: [["6C", "TC", "6H"], ["7C", "8D", "9D"], null], contracts: [8, 3, null], hands: [ninetyNineView(0).hands[0], ["7S", "8S", "TS", "JS", "QS", "KS", "AS", "7H", "8H"], null] });
  const match = fakeMatch([view]);
  const { page } = await open(match.answer);
  await atVersion(page, 20);
  const bids = await page.evaluate(() => [...document.querySelectorAll(".bid")].map((bid) => ({
    seat: bid.closest(".seat")?.getAttribute("data-seat") ?? null,
    caption: bid.querySelector(".bid-caption")?.textContent ?? null,
    visible: bid.querySelector(".bid-caption")?.checkVisibility() ?? false,
    cards: [...bid.querySelectorAll(".bid-cards .card")].map((c) => c.getAttribute("data-card")),
  })));
  return { bids };
};

scenarios.ninetyNineTexts = async () => {
  const seen = async (view, read) => {
    const match = fakeMatch([view]);
    const { page } = await open(match.answer);
    await atVersion(page, view.version);
    return page.evaluate(read);
  };
  const marks = () => [...document.querySelectorAll(".opponent .to-act-mark")].map((n) => n.textContent);
  const youFirst = { dealer: 2, eldest: 0 };
  const bidding = await seen(ninetyNineBidding(10, youFirst), () => ({ facts: document.querySelector(".facts")?.textContent, marks: [...document.querySelectorAll(".opponent .to-act-mark")].map((n) => n.textContent) }));
  const premium = { calls: ["pass", null, null], seat: null, kind: null, shown: false };
  const calling = await seen(ninetyNineView(13, { ...youFirst, phase: "premium", premium, seats_to_act: [1] }), marks);
  const end = ninetyNineView(90, { ...youFirst, phase: "finished", seats_to_act: [], winners: [0], hands: [[], [], []], hand_sizes: [0, 0, 0], trick: { leader: 0, plays: [] } });
  const over = await seen(end, () => document.querySelector(".trick .empty-trick")?.textContent ?? null);
  return { bidding, calling, over };
};

scenarios.lastTrickOfDeal = async () => {
  const t9 = { trick: 9, leader: 1, plays: [[1, "TS"], [2, "QH"], [0, "9S"]], winner: 1 };
  const known = { has_bid: [true, true, true], bid_cards: [B0, null, B2], contracts: [5, null, 3], premium: { calls: [null, "pass", "reveal"], seat: 2, kind: "reveal", shown: true } };
  const v40 = ninetyNineView(40, { ...known, hands: [["9S"], null, []], dealt: [HAND12, null, null], hand_sizes: [1, 0, 0], tricks_won: [5, 1, 2], trick: { leader: 1, plays: [{ seat: 1, card: "TS" }, { seat: 2, card: "QH" }] }, legal_actions: [{ type: "play", card: "9S" }] });
  const match = fakeMatch([v40, dealTwo(44)]);
  const { page } = await open(async (method, path, query) => {
    if (method === "POST" && path === `/matches/${ID}/actions`) {
      const events = [event(41, "card_played", 0, { seat: 0, card: "9S" }), event(42, "trick_won", null, t9), event(43, "deal_scored", null, DEAL_1), event(44, "deal_started", null, { deal: 2, dealer: 1, trumps: "H", hands: [HAND12, Array(12).fill(null), Array(12).fill(null)] })];
      return json(200, { version: 44, events, view: dealTwo(44) });
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, 40);
  await page.locator('.hand.mine button[data-card="9S"]').click();
  await atVersion(page, 44);
  return { last: await page.locator(".game-table .last-trick").allTextContents() };
};

scenarios.heartsLastTrickOfDeal = async () => {
  const t13 = { trick: 13, leader: 1, cards: ["KS", "3H", "QS", "AH"], winner: 1, points: 15 };
  const v40 = heartsView(40, { hand: ["AH"], hands: [["AH"], null, null, null], hand_sizes: [1, 0, 0, 0], seats_to_act: [0], to_act: 0, trick: ["KS", "3H", "QS"], leader: 1, taken: [11, 0, 0, 0], hearts_broken: true, legal_actions: [{ type: "play", card: "AH" }] });
  // deal 1 went to you, every point: the moon
  const lastDeal = { deal: 1, taken: [26, 0, 0, 0], jack: null, moon: 0, scores: [0, 26, 26, 26], totals: [0, 26, 26, 26] };
  const dealTwo = heartsView(44, { deal: 2, direction: "hold", seats_to_act: [1], last_deal: lastDeal, deal_scores: [[0, 26, 26, 26]], totals: [0, 26, 26, 26] });
  const match = fakeMatch([v40, dealTwo]);
  const { page } = await open(async (method, path, query) => {
    if (method === "POST" && path === `/matches/${ID}/actions`) {
      const events = [event(41, "card_played", 0, { seat: 0, card: "AH" }), event(42, "trick_won", null, t13), event(43, "deal_scored", null, lastDeal), event(44, "cards_dealt", null, { deal: 2, dealer: 1, direction: "hold" })];
      return json(200, { version: 44, events, view: dealTwo });
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, 40);
  await page.locator('.hand.mine button[data-card="AH"]').click();
  await atVersion(page, 44);
  return { last: await page.locator(".game-table .last-trick").allTextContents(), moon: await page.locator(".game-table .moon").textContent() };
};

// the log says "Your bid is shown", not "You's"
scenarios.ninetyNineYourBidShown = async () => {
  const premium = { calls: ["declare", "pass", "pass"], seat: 0, kind: "declare", shown: false };
  const calling = ninetyNineView(13, { phase: "premium", premium, seats_to_act: [2], legal_actions: [] });
  const shown = ninetyNineView(14, { premium: { ...premium, shown: true }, contracts: [5, null, null], bid_cards: [B0, null, null] });
  const match = fakeMatch([calling, shown]);
  const { page } = await open(match.answer);
  await atVersion(page, 13);
  // (shown as COM 2's pass ended the premium round: its actor's)
  match.release({ ...event(14, "premium_shown", null, { seat: 0, contract: 5, cards: B0 }), actor: "com:easy:2" });
  await atVersion(page, 14);
  return { log: await page.locator(".move-log li").allTextContents() };
};

// the history slider keeps the keyboard: two arrow presses go two versions back, and "Back
// to live" leaves the keyboard on the slider
scenarios.historyKeys = async () => {
  const match = fakeMatch([golfView(10)]);
  const { page } = await open(async (method, path, query) => {
    const state = new RegExp(`^/matches/${ID}/states/(\\d+)$`).exec(path);
    if (state && Number(state[1]) < 10) return json(200, golfView(Number(state[1]), { legal_actions: [], turns_in_hole: Number(state[1]) }));
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  await page.locator("#history").focus();
  await page.keyboard.press("ArrowLeft");
  await page.locator('.game-table[data-history="true"][data-version="9"]').waitFor();
  await page.keyboard.press("ArrowLeft");
  await page.locator('.game-table[data-history="true"][data-version="8"]').waitFor();
  const focused = () => page.evaluate(() => document.activeElement?.id ?? document.activeElement?.tagName ?? null);
  const onSlider = await focused();
  await page.getByRole("button", { name: "Back to live" }).click();
  await page.locator('.game-table[data-history="false"][data-version="10"]').waitFor();
  return { onSlider, afterLive: await focused() };
};

// --- leaving a match ------------------------------------------------------------------------

const FINISHED = { phase: "finished", drawn: null, seats_to_act: [], legal_actions: [], winners: [0] };
/** No content, as the API answers a leave. */
const NO_CONTENT = { status: 204, body: "" };

/**
 * The table of a match (`views`, its detail changed by `over`), the lobby behind it, and
 * `POST leave` answered by `leave()`.
 */
async function leavePage(views, { over = {}, leave = () => NO_CONTENT, abort = () => json(200, {}) } = {}) {
  const match = fakeMatch(views);
  const { page, requests } = await open(async (method, path, query) => {
    if (method === "POST" && path === `/matches/${ID}/leave`) return leave();
    if (method === "POST" && path === `/matches/${ID}/abort`) return abort();
    if (path === `/matches/${ID}`) return json(200, { ...JSON.parse((await match.answer(method, path, query)).body), ...over });
    if (path === "/games") return json(200, GAMES);
    if (path === "/matches") return pageOf([], query);
    return match.answer(method, path, query);
  });
  return { match, page, requests };
}
const leaveButton = (page) => page.getByRole("button", { name: "Leave this match…" });
/** The requests to leave the match: method and bearer token each. */
const leaves = (requests) => requests.filter((r) => r.path === `/matches/${ID}/leave`).map((r) => `${r.method} ${r.headers.authorization}`);
/** What the page around the table shows of leaving (any button that says "leave"). */
const leaveState = (page, requests) => page.evaluate(([sent, aborts]) => {
  const button = [...document.querySelectorAll("button")].find((b) => /leave/i.test(`${b.textContent} ${b.getAttribute("aria-label") ?? ""}`));
  const cancel = [...document.querySelectorAll("button")].find((b) => /cancel/i.test(b.textContent ?? ""));
  const errors = document.getElementById("errors");
  return {
    cancel: cancel ? { text: cancel.textContent, visible: cancel.checkVisibility(), inTable: Boolean(cancel.closest(".game-table")) } : null,
    aborts,
    button: button ? { text: button.textContent, type: button.getAttribute("type"), disabled: button.disabled, visible: button.checkVisibility(), inTable: Boolean(button.closest(".game-table")) } : null,
    hash: location.hash,
    table: document.querySelectorAll(".game-table").length,
    lobby: document.querySelectorAll(".lobby").length,
    message: errors && !errors.hidden ? (errors.querySelector("p")?.textContent ?? "") : null,
    leaves: sent,
  };
}, [leaves(requests), requests.filter((r) => r.path === `/matches/${ID}/abort`).map((r) => r.method)]);

/** Answers the next dialog (accepting it or not), noting its type and message. */
const answerDialog = (page, dialogs, accept) => page.once("dialog", (dialog) => {
  dialogs.push({ type: dialog.type(), message: dialog.message() });
  void (accept ? dialog.accept() : dialog.dismiss());
});

/** Alice's seat and bob's, at a match of two players. */
const WITH_BOB = [
  { index: 0, kind: "human", username: "alice", com_level: null, to_act: true },
  { index: 1, kind: "human", username: "bob", com_level: null, to_act: false },
];

scenarios.leaveMatch = async () => {
  const { page, requests } = await leavePage([golfView(10, { players: ["human", "human"] })], { over: { seats: WITH_BOB } });
  await atVersion(page, 10);
  const shown = await leaveState(page, requests);
  const dialogs = [];
  answerDialog(page, dialogs, false);
  await leaveButton(page).click();
  await sleep(500);
  const dismissed = await leaveState(page, requests);
  answerDialog(page, dialogs, true);
  await leaveButton(page).click();
  await page.locator(".lobby").waitFor();
  return { shown, dialogs, dismissed, accepted: await leaveState(page, requests) };
};

scenarios.leaveQuestion = async () => {
  // what leaving does, asked as the match is: alone with COMs, it is aborted; with bob, a
  // COM plays your seat, until bob leaves (seat_handed_over) and you are the last player
  const ask = async (page) => {
    const dialogs = [];
    answerDialog(page, dialogs, false);
    await leaveButton(page).click();
    await until(() => dialogs.length > 0);
    return dialogs[0]?.message ?? null;
  };
  const alone = await leavePage([golfView(10)]);
  await atVersion(alone.page, 10);
  const withComs = await ask(alone.page);
  const views = [golfView(10, { players: ["human", "human"] }), golfView(11, { players: ["human", "com"] })];
  const { match, page } = await leavePage(views, { over: { seats: WITH_BOB } });
  // (bob's seat is a COM's once the log says so)
  await page.context().route(`${LOCAL}/api/matches/${ID}`, async (route) => {
    const seats = match.events.length ? [WITH_BOB[0], { index: 1, kind: "com", username: null, com_level: "normal", to_act: false }] : WITH_BOB;
    await route.fulfill(json(200, { ...detail(match.views.get(match.events.length ? 11 : 10)), seats }));
  });
  await atVersion(page, 10);
  const withBob = await ask(page);
  match.release({ ...event(11, "seat_handed_over", 1, { seat: 1 }), actor: "user:7:1" });
  await atVersion(page, 11);
  await sleep(200);
  return { withComs, withBob, bobLeft: await ask(page) };
};

scenarios.leaveRefused = async () => {
  const refusal = () => problem(409, "cannot_leave", "Cannot leave", "a local match is not left: abort it instead");
  const { page, requests } = await leavePage([golfView(10)], { leave: refusal });
  await atVersion(page, 10);
  const dialogs = [];
  answerDialog(page, dialogs, true);
  await leaveButton(page).click();
  await page.locator("#errors:not([hidden])").waitFor();
  const refused = await leaveState(page, requests);
  // pressed again, it asks again and sends again
  answerDialog(page, dialogs, true);
  await leaveButton(page).click();
  for (let i = 0; i < 50 && leaves(requests).length < 2; i += 1) await sleep(100);
  await sleep(200);
  return { refused, dialogs: dialogs.length, again: await leaveState(page, requests) };
};

scenarios.noLeaveButton = async () => {
  const seen = async (views, over) => {
    const { page, requests } = await leavePage(views, { over });
    await atVersion(page, views[0].version);
    return leaveState(page, requests);
  };
  const spectator = await seen([golfView(10, { seat: null, phase: "draw", drawn: null, legal_actions: [] })], { your_seat: null, your_turn: false });
  const local = await seen([golfView(10)], { local: true });
  const openSeats = [{ index: 0, kind: "human", username: "alice", com_level: null, to_act: false }, { index: 1, kind: "open", username: null, com_level: null, to_act: false }];
  const waiting = await seen([golfFlips(10, { hole: 1, players: ["human", "open"], seats_to_act: [], legal_actions: [] })], { status: "waiting", your_turn: false, seats: openSeats });
  const ended = await seen([golfView(12, FINISHED)], { status: "finished", your_turn: false, winners: [0] });
  // a match that ends while its table is shown: the button goes then
  const match = fakeMatch([golfView(10, { seats_to_act: [1], legal_actions: [] }), golfView(11, FINISHED)]);
  const { page, requests } = await open(match.answer);
  await atVersion(page, 10);
  const before = await leaveState(page, requests);
  match.release(event(11, "match_finished", null, { winners: [0] }));
  await atVersion(page, 11);
  return { spectator, local, waiting, ended, endsWhileShown: { before, after: await leaveState(page, requests) } };
};

scenarios.cancelLobby = async () => {
  // a lobby of yours (you may abort it: can_abort), and one you joined (you may not)
  const openSeats = [{ index: 0, kind: "human", username: "alice", com_level: null, to_act: false }, { index: 1, kind: "open", username: null, com_level: null, to_act: false }];
  const lobby = [golfFlips(10, { hole: 1, players: ["human", "open"], seats_to_act: [], legal_actions: [] })];
  const waiting = { status: "waiting", your_turn: false, seats: openSeats };
  const joined = await leavePage(lobby, { over: { ...waiting, can_abort: false } });
  await atVersion(joined.page, 10);
  const notYours = await leaveState(joined.page, joined.requests);
  const { page, requests } = await leavePage(lobby, { over: { ...waiting, can_abort: true } });
  await atVersion(page, 10);
  const shown = await leaveState(page, requests);
  const dialogs = [];
  answerDialog(page, dialogs, false);
  await page.getByRole("button", { name: "Cancel this match…" }).click();
  await sleep(500);
  const dismissed = await leaveState(page, requests);
  answerDialog(page, dialogs, true);
  await page.getByRole("button", { name: "Cancel this match…" }).click();
  await page.locator(".lobby").waitFor();
  return { notYours, shown, dialogs, dismissed, accepted: await leaveState(page, requests) };
};

// --- a timed turn, the next hole, a lobby that fills, the new-match form -------------------

scenarios.timerTicks = async () => {
  // a timed match opened: the deadline of the version shown is the match's detail's
  const deadline = new Date(Date.now() + 65_000).toISOString();
  const match = fakeMatch([golfView(10, { phase: "draw", drawn: null, legal_actions: [{ type: "draw" }, { type: "take_discard" }] })]);
  const { page } = await open(async (method, path, query) => {
    if (path === `/matches/${ID}`) {
      const now = JSON.parse((await match.answer(method, path, query)).body);
      return json(200, { ...now, turn_timeout: 90, view: { ...now.view, turn_deadline: deadline } });
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  const timer = () => page.locator(".turn-timer").evaluate((t) => ({ hidden: t.hidden, text: t.textContent, seconds: Number(t.dataset.seconds) }));
  const first = await timer();
  await sleep(2200);
  return { first, later: await timer() };
};

scenarios.deadlineFromAnswer = async () => {
  // a timed match at 10, your swap to make; the answer (11) carries the next deadline
  const [first, next] = [65_000, 85_000].map((ms) => new Date(Date.now() + ms).toISOString());
  const after = golfView(11, { phase: "draw", drawn: null, seats_to_act: [1], legal_actions: [], turn_deadline: next });
  const match = fakeMatch([golfView(10), after]);
  const { page, requests } = await open(async (method, path, query) => {
    if (method === "POST" && path === `/matches/${ID}/actions`) {
      return json(200, { version: 11, events: [event(11, "card_swapped", 0, { seat: 0, position: 0, card: "KD", replaced: "QH" })], view: after });
    }
    if (path === `/matches/${ID}`) {
      const now = JSON.parse((await match.answer(method, path, query)).body);
      return json(200, { ...now, turn_timeout: 90, view: { ...now.view, turn_deadline: first } });
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  const reads = () => requests.filter((r) => r.method === "GET" && r.path === `/matches/${ID}`).length;
  const before = reads();
  await page.locator('.seat.mine button[data-position="0"]').click();
  await atVersion(page, 11);
  await sleep(500); // (time for a read, were one sent)
  const deadline = await page.locator(".turn-timer").evaluate((t) => ({ hidden: t.hidden, at: t.dataset.deadline }));
  return { expected: next, deadline, readsAfterMove: reads() - before };
};

scenarios.localListed = async () => {
  const mine = (index) => ({ index, kind: "human", username: "alice", com_level: null, to_act: false });
  const com = (index) => ({ index, kind: "com", username: null, com_level: "easy", to_act: false });
  const matches = [
    summary(1, { seats: [mine(0), mine(1)] }),
    summary(2, { seats: [mine(0), mine(1), com(2)] }),
    summary(3, { seats: [mine(0), com(1)] }),
  ];
  const { page } = await open(async (method, path, query) => {
    if (path === "/me") return json(200, { id: 1, username: "alice", email: "", is_staff: false });
    if (path === "/games") return json(200, GAMES);
    if (path === "/matches") return pageOf(query.get("mine") === "true" ? matches : [], query);
    return problem(404, "not_found", "Not found", path);
  }, { hash: "#/" });
  await page.locator(".my-matches li").nth(2).waitFor();
  return { texts: await page.locator(".my-matches li").allTextContents() };
};

/** Two humans after hole 1 (both to say they are ready: `next`), and hole 2 dealt (12). */
function holeOverAndNext() {
  const over = {
    phase: "hole_over", players: ["human", "human"], seats_to_act: [0, 1], drawn: null, end_reason: "final_turns_done",
    grids: [["QH", "2C", "3D", "4S", "6D", "9H"], ["4C", "KS", "5H", "5D", "7C", "8C"]], hole_scores: [[30, 33]], totals: [30, 33], hole_finishers: [1],
    legal_actions: [{ type: "next" }],
  };
  return { over, dealt: golfFlips(12, { players: ["human", "human"], totals: [30, 33] }) };
}

scenarios.holeOverNext = async () => {
  // after a hole, both humans say they are ready; the other one did first (the match at
  // 11 on the server, this page still at 10): with If-Match "10" that would be a 412
  const { over, dealt } = holeOverAndNext();
  const match = fakeMatch([golfView(10, over)]);
  const posts = [];
  const { page } = await open(async (method, path, query, sent) => {
    if (method === "POST" && path === `/matches/${ID}/actions`) {
      const named = sent.headers()["if-match"] ?? null;
      posts.push({ ifMatch: named, body: JSON.parse(sent.postData() ?? "null") });
      const stale = { type: "about:blank", title: "Precondition failed", status: 412, detail: "the match is at version 11, not 10", code: "precondition_failed", current_version: 11 };
      if (named !== null && named !== '"11"') return { ...json(412, stale), headers: { ETag: '"11"' } };
      return json(200, { version: 12, events: [event(12, "hole_dealt", null, { hole: 2 })], view: dealt });
    }
    if (path === `/matches/${ID}/events`) return json(200, { events: [], version: 12, next_after: Number(query.get("after")), has_more: false });
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  await page.getByRole("button", { name: "Next hole" }).click();
  await page.locator('.game-table[data-busy="false"]:not([data-version="10"]), #errors:not([hidden])').first().waitFor({ timeout: 5_000 });
  await sleep(300);
  return { posts, after: await tableState(page) };
};

scenarios.holeOverTooLate = async () => {
  // "Next hole" pressed as the pause ended on its own (its bound ran out, the server said
  // it for everyone): without If-Match the rules refuse it (422), as a stale move would be
  const { over, dealt } = holeOverAndNext();
  const match = fakeMatch([golfView(10, over), dealt]);
  let posted = false;
  const { page } = await open(async (method, path, query) => {
    if (method === "POST" && path === `/matches/${ID}/actions`) {
      posted = true;
      return problem(422, "wrong_phase", "Illegal action", "this move is not allowed in phase flips");
    }
    if (path === `/matches/${ID}` && posted) return json(200, detail(dealt));
    if (path === `/matches/${ID}/events`) return json(200, { events: [], version: 12, next_after: Number(query.get("after")), has_more: false });
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  await page.getByRole("button", { name: "Next hole" }).click();
  await page.locator('.game-table[data-busy="false"]:not([data-version="10"]), #errors:not([hidden])').first().waitFor({ timeout: 5_000 });
  await sleep(500);
  return { after: await tableState(page) };
};

scenarios.leaveWhenFilled = async () => {
  // a lobby (one seat open) shown, of yours or watched: the last seat is taken meanwhile
  const fills = async (spectator) => {
    const who = spectator ? { seat: null, legal_actions: [] } : {};
    const lobby = golfFlips(5, { hole: 1, players: ["human", "open"], seats_to_act: [], legal_actions: [], ...who });
    const full = golfFlips(6, { hole: 1, players: ["human", "human"], ...who });
    const match = fakeMatch([lobby, full]);
    const first = { index: 0, kind: "human", username: spectator ? "carol" : "alice", com_level: null, to_act: false };
    const { page, requests } = await open(async (method, path, query) => {
      if (path === `/matches/${ID}`) {
        const now = JSON.parse((await match.answer(method, path, query)).body);
        const filled = match.events.length > 0;
        const second = filled ? { index: 1, kind: "human", username: "bob", com_level: null, to_act: true } : { index: 1, kind: "open", username: null, com_level: null, to_act: false };
        return json(200, { ...now, status: filled ? "active" : "waiting", your_seat: spectator ? null : 0, your_turn: filled && !spectator, seats: [first, second], can_abort: !spectator });
      }
      return match.answer(method, path, query);
    });
    await atVersion(page, 5);
    const before = await leaveState(page, requests);
    match.release(event(6, "seat_taken", 1, { seat: 1 }));
    await atVersion(page, 6);
    await sleep(200);
    return { before, after: await leaveState(page, requests) };
  };
  return { player: await fills(false), spectator: await fills(true) };
};

scenarios.dealHeadings = async () => {
  const heading = async (view, rules) => {
    const match = fakeMatch([view]);
    const { page } = await open(async (method, path, query) => (path === `/matches/${ID}` ? json(200, { ...detail(view), rules }) : match.answer(method, path, query)));
    await atVersion(page, view.version);
    return page.locator(".game-table .table-head h2").textContent();
  };
  return {
    hearts: await heading(heartsView(10), {}),
    heartsOfThree: await heading(heartsView(10), { max_deals: 3 }),
    ninetyNine: await heading(ninetyNineView(10, { target_score: 60 }), { target_score: 60 }),
  };
};

scenarios.scoresFit = async () => {
  // Hearts at four and five seats, the scores of three deals, at a desktop's width and a
  // phone's: every table of results fits its column
  const fit = async (players, width) => {
    const scores = players.map((_, seat) => (seat * 7) % 26);
    const view = heartsView(40, {
      players, hands: players.map((_, seat) => (seat === 0 ? HAND : null)), hand_sizes: players.map(() => 12), taken: players.map(() => 0),
      totals: players.map((_, seat) => 3 * scores[seat]), deal_scores: [scores, scores, scores],
    });
    const seats = players.map((kind, index) => (kind === "com"
      ? { index, kind, username: null, com_level: "normal", to_act: false }
      : { index, kind, username: index === 0 ? "alice" : "margaret-hamilton", com_level: null, to_act: false }));
    const match = fakeMatch([view]);
    const { page } = await open(async (method, path, query) => (path === `/matches/${ID}` ? json(200, { ...detail(view), seats }) : match.answer(method, path, query)));
    await page.setViewportSize({ width, height: 900 });
    await atVersion(page, 40);
    return page.evaluate(() => ({
      clipped: [...document.querySelectorAll(".results")].map((box) => box.scrollWidth - box.clientWidth),
      page: document.documentElement.scrollWidth - window.innerWidth,
      heads: [...document.querySelectorAll(".results:not(.taken) thead th")].map((th) => [th.textContent, th.getAttribute("title")]),
      caption: document.querySelector(".results:not(.taken) caption")?.textContent ?? null,
    }));
  };
  const four = ["human", "com", "com", "com"];
  const five = ["human", "human", "com", "com", "com"];
  return { fourDesktop: await fit(four, 1280), fourPhone: await fit(four, 390), fiveDesktop: await fit(five, 1280), fivePhone: await fit(five, 390) };
};

scenarios.scoreCaptions = async () => {
  // the scores' caption says when the match ends: at the target, or after the deals set
  const caption = async (view, rules) => {
    const match = fakeMatch([view]);
    const { page } = await open(async (method, path, query) => (path === `/matches/${ID}` ? json(200, { ...detail(view), rules }) : match.answer(method, path, query)));
    await atVersion(page, view.version);
    return page.locator(".results caption", { hasText: "Scores" }).textContent();
  };
  return {
    hearts: await caption(heartsView(10), {}),
    heartsOfThree: await caption(heartsView(10), { max_deals: 3 }),
    ninetyNineOfOne: await caption(ninetyNineView(10, { target_score: 60 }), { target_score: 60, max_deals: 1 }),
  };
};

scenarios.heartsPassingWords = async () => {
  const facts = async (view, over) => {
    const match = fakeMatch([view]);
    const { page } = await open(async (method, path, query) => (path === `/matches/${ID}` ? json(200, { ...detail(view), ...over }) : match.answer(method, path, query)));
    await atVersion(page, view.version);
    return page.locator(".game-table .facts").textContent();
  };
  const watched = { seat: null, hand: [], hands: [null, null, null, null], legal_actions: [] };
  // COM 1 has chosen its pass, COM 2 and COM 3 are choosing theirs
  const choosing = heartsPassing(10, { passes_chosen: [false, true, false, false], seats_to_act: [0, 2, 3] });
  const match = fakeMatch([choosing]);
  const { page } = await open(match.answer);
  await atVersion(page, 10);
  const marks = await page.locator(".opponent .to-act-mark").allTextContents();
  return {
    marks,
    player: await facts(heartsPassing(10), {}),
    spectator: await facts(heartsPassing(10, watched), { your_seat: null, your_turn: false }),
    spectatorAcross: await facts(heartsPassing(10, { ...watched, direction: "across" }), { your_seat: null, your_turn: false }),
  };
};

scenarios.finalTurnsBanner = async () => {
  const draw = { phase: "draw", drawn: null, legal_actions: [] };
  const finalTurns = (turnsLeft) => ({ finisher: 1, turns_left: turnsLeft });
  const match = fakeMatch([
    golfView(19, { ...draw, seats_to_act: [1] }),
    golfView(20, { ...draw, seats_to_act: [0], final_turns: finalTurns(2), legal_actions: [{ type: "draw" }, { type: "take_discard" }] }),
    golfView(21, { ...draw, seats_to_act: [0], final_turns: finalTurns(1), legal_actions: [{ type: "draw" }, { type: "take_discard" }] }),
    golfView(22, { ...draw, phase: "hole_over", seats_to_act: [0], final_turns: finalTurns(0), legal_actions: [{ type: "next" }] }),
  ]);
  const { page } = await open(match.answer);
  await atVersion(page, 19);
  const banner = () => page.evaluate(() => {
    const node = document.querySelector(".game-table .final-turns");
    return { same: node?.marked === true, left: window.removed.some((r) => r === node || r.contains(node)), role: node?.getAttribute("role") ?? null, text: node?.textContent ?? null, count: document.querySelectorAll(".final-turns").length };
  });
  await page.evaluate(() => {
    window.removed = [];
    new MutationObserver((records) => records.forEach((r) => window.removed.push(...r.removedNodes))).observe(document.body, { childList: true, subtree: true });
    const node = document.querySelector(".game-table .final-turns");
    if (node) node.marked = true;
  });
  const seen = { before: await banner() };
  for (const version of [20, 21, 22]) {
    match.release(event(version, "card_swapped", 1, { card: "9S", position: 2, replaced: "2D" }));
    await atVersion(page, version);
    seen[version] = await banner();
  }
  return seen;
};

/** GET /api/games with Golf and Hearts (a preset of 3 to 5 seats, one of 4 only). */
const TWO_GAMES = [
  ...GAMES,
  {
    name: "hearts", title: "Hearts", description: "Hearts.", round_name: "deal", seats: { min: 3, max: 5 },
    presets: [{ name: "hearts", seats: { min: 3, max: 5 }, rules: { passing: "none" } }, { name: "hearts-classic", seats: { min: 4, max: 4 }, rules: { passing: "rotate" } }],
    options: [{ name: "passing", doc: "how cards are passed", schema: { type: "string", enum: ["none", "rotate", "left", "right", "across"] }, default: "none" }],
    default_preset: "hearts", default_seats: { hearts: [{}, {}, {}, {}], "hearts-classic": [{}, {}, {}, {}] }, com_levels: ["easy"], default_com_level: "easy",
  },
];

scenarios.newMatchCounts = async () => {
  const created = [];
  const { page } = await open(async (method, path, query, req) => {
    if (path === "/me") return json(200, { id: 1, username: "alice", email: "", is_staff: false });
    if (path === "/games") return json(200, TWO_GAMES);
    if (method === "POST" && path === "/matches") {
      created.push(JSON.parse(req.postData() ?? "null"));
      return problem(400, "not_faked", "Not faked", "no match is made here");
    }
    if (path === "/matches") return pageOf([], query);
    return problem(404, "not_found", "Not found", path);
  }, { hash: "#/" });
  await page.locator("form.new-match").waitFor();
  const options = (id) => page.locator(`#${id} option`).allTextContents();
  /** every count of COMs offered, and the open seats then offered with it, by preset */
  const offered = async () => {
    const out = {};
    for (const preset of await page.locator("#preset option").allTextContents()) {
      await page.locator("#preset").selectOption(preset);
      out[preset] = { chosen: { opponents: await page.locator("#opponents").inputValue(), open: await page.locator("#open-seats").inputValue() }, open: {} };
      for (const coms of await options("opponents")) {
        await page.locator("#opponents").selectOption(coms);
        out[preset].open[coms] = await options("open-seats");
      }
    }
    return out;
  };
  const start = async () => {
    await page.getByRole("button", { name: "Start the match" }).click();
    await page.locator("#errors:not([hidden])").waitFor();
  };
  const golf = await offered();
  // Golf against no COM: a seat is left open for another player
  await page.locator("#preset").selectOption("six-card");
  await page.locator("#opponents").selectOption("0");
  const golfNoCom = await page.locator("#open-seats").inputValue();
  await start();
  await page.locator("#game").selectOption("hearts");
  await page.locator("form.new-match h2", { hasText: "Hearts" }).waitFor();
  const hearts = await offered();
  // the ways of passing: the preset's first, across only at a table of four
  await page.locator("#preset").selectOption("hearts");
  await page.locator("#opponents").selectOption("3");
  const passingAtFour = { chosen: await page.locator("#passing").inputValue(), ways: await page.locator("#passing option").evaluateAll((os) => os.map((o) => o.value)) };
  await page.locator("#opponents").selectOption("2");
  await page.locator("#open-seats").selectOption("0");
  const passingAtThree = await page.locator("#passing option").evaluateAll((os) => os.map((o) => o.value));
  // a table of 4 with 2 COMs: the fourth seat is an open one; across, until the target
  await page.locator("#preset").selectOption("hearts-classic");
  const classicChosen = await page.locator("#passing").inputValue();
  await page.locator("#opponents").selectOption("2");
  await page.locator("#passing").selectOption("across");
  await page.locator("#rounds").fill("");
  await start();
  // a target score of one's own
  await page.locator("#target").fill("50");
  await start();
  const golfTarget = await page.locator("#game").selectOption("golf").then(() => page.locator("#target").count());
  return { golf, golfNoCom, hearts, created, passingAtFour, passingAtThree, classicChosen, golfTarget };
};

scenarios.otherTab = async () => {
  // alice's table; then, in another tab of the same browser, a log-out, a log-in as bob
  const match = fakeMatch([golfView(10)]);
  const BOB = "bob-token";
  const { page, requests } = await open(async (method, path, query, request) => {
    const bob = request.headers().authorization === `Bearer ${BOB}`;
    if (path === "/me") return json(200, { id: bob ? 2 : 1, username: bob ? "bob" : "alice", email: "", is_staff: false });
    if (path === "/games") return json(200, GAMES);
    if (path === "/matches") return pageOf([], query);
    if (method === "POST") return problem(409, "version_conflict", "Version conflict", "not faked here");
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  const who = () => page.evaluate(() => ({
    who: document.querySelector(".who")?.textContent ?? null,
    table: document.querySelectorAll(".game-table").length,
    loginForm: document.querySelectorAll("form.login").length,
  }));
  const shown = await who();
  const other = await page.context().newPage();
  await other.goto(`${LOCAL}/`);
  await other.evaluate(() => localStorage.removeItem("card-games-token"));
  await page.locator("form.login").waitFor({ timeout: 5_000 });
  const loggedOutElsewhere = await who();
  await other.evaluate((token) => localStorage.setItem("card-games-token", token), TOKEN);
  await page.locator(".who", { hasText: "alice" }).waitFor({ timeout: 5_000 });
  await atVersion(page, 10);
  // bob's token saved as the page clicks, before it has heard of it (a storage event comes
  // a moment later): the move is not sent with bob's token under alice's name
  const sent = requests.length;
  await page.evaluate((token) => localStorage.setItem("card-games-token", token), BOB);
  await page.locator('.seat.mine button[data-position="0"]').click();
  await page.locator(".who", { hasText: "bob" }).waitFor({ timeout: 5_000 });
  const after = requests.slice(sent).map((r) => `${r.method} ${r.path} ${r.headers.authorization}`);
  await other.close();
  return { shown, loggedOutElsewhere, bobShown: await who(), after };
};

scenarios.refusedAfterOtherTab = async () => {
  // a move whose answer (401: this page's token revoked) comes after another tab saved
  // bob's token: bob's is kept
  const match = fakeMatch([golfView(10)]);
  let release = () => {};
  const answered = new Promise((resolve) => (release = resolve));
  const { page } = await open(async (method, path, query) => {
    if (method === "POST") {
      await answered;
      return unauthorized();
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  await page.locator('.seat.mine button[data-position="0"]').click();
  await sleep(300);
  await page.evaluate(() => localStorage.setItem("card-games-token", "bob-token"));
  release();
  await page.locator("#errors:not([hidden])").waitFor();
  await sleep(300);
  return { token: await page.evaluate(() => localStorage.getItem("card-games-token")) };
};

scenarios.addresses = async () => {
  // a match's address in capitals, ending in "/"; one that names no match; an unknown match
  const MISSING = "99999999-2222-4333-8444-555555555555";
  const match = fakeMatch([golfView(10)]);
  const { page, requests } = await open(async (method, path, query) => {
    if (path === "/games") return json(200, GAMES);
    if (path === "/matches") return pageOf([], query);
    if (path === `/matches/${MISSING}`) return problem(404, "match_not_found", "Match not found", "no such match");
    return match.answer(method, path, query);
  }, { hash: `#/match/${ID.toUpperCase()}/` });
  await atVersion(page, 10);
  const capitals = requests.filter((r) => r.path.startsWith("/matches/")).map((r) => r.path)[0];
  await page.evaluate(() => (location.hash = "#/match/nope"));
  await page.locator(".lobby").waitFor();
  const noMatch = (await tableState(page)).message;
  await page.evaluate((id) => (location.hash = `#/match/${id}`), MISSING);
  await page.getByRole("link", { name: "Back to the lobby" }).waitFor();
  const missing = { message: (await tableState(page)).message, tryAgain: await page.getByRole("button", { name: "Try again" }).count() };
  return { capitals, noMatch, missing };
};

scenarios.verifyFailures = async () => {
  // an ended match whose audit record cannot be read: a 503, then (checked again) a 401
  let audits = 0;
  const { page, requests } = await leavePage([golfView(12, FINISHED)], { over: { status: "finished", your_turn: false, winners: [0] } });
  await page.context().route(`${LOCAL}/api/matches/${ID}/audit**`, async (route) => {
    audits += 1;
    requests.push({ method: "GET", path: `/matches/${ID}/audit`, query: "", headers: route.request().headers() });
    await route.fulfill(audits === 1 ? problem(503, "service_unavailable", "Service unavailable", "try again") : unauthorized());
  });
  await page.goto(`${LOCAL}/#/match/${ID}`);
  await page.getByRole("button", { name: "Check again" }).waitFor();
  const failed = await page.evaluate(() => document.querySelector("[data-verdict]")?.textContent ?? null);
  await page.getByRole("button", { name: "Check again" }).click();
  await page.locator("form.login").waitFor();
  return { failed, audits, loggedOut: await tableState(page) };
};

scenarios.retryAfterCapped = async () => {
  // a stream answered 429 with an hour's Retry-After (a proxy's): asked again within a minute
  const match = fakeMatch([golfView(10)]);
  let streams = 0;
  const { page } = await open(async (method, path, query) => {
    if (path === `/matches/${ID}/stream`) {
      streams += 1;
      if (streams === 1) return { ...problem(429, "throttled", "Throttled", "slow down"), headers: { "Retry-After": "3600" } };
    }
    return match.answer(method, path, query);
  });
  await page.clock.install();
  await atVersion(page, 10);
  // the 429 read and its wait begun (a fake timer): only then is the clock run (the count
  // of streams goes up as the request comes, before the page has read its answer)
  await page.locator(".connection", { hasText: "reconnecting" }).waitFor();
  await page.clock.runFor(59_000);
  const before = streams;
  await page.clock.runFor(2_000);
  for (let i = 0; i < 50 && streams < 2; i += 1) await sleep(100);
  return { before, after: streams };
};

scenarios.doubleSubmit = async () => {
  // "Start the match", and then "Log in", clicked twice and Enter pressed while the answer
  // is on its way: one request each
  const match = fakeMatch([golfView(10)]);
  let release = () => {};
  let held = new Promise((resolve) => (release = resolve));
  const { page, requests } = await open(async (method, path, query) => {
    if (method === "POST" && (path === "/matches" || path === "/auth/token")) {
      await held;
      return path === "/matches" ? json(201, detail(golfView(10))) : json(200, { token: TOKEN });
    }
    if (path === "/games") return json(200, GAMES);
    if (path === "/matches") return pageOf([], query);
    return match.answer(method, path, query);
  }, { hash: "#/" });
  const posts = (path) => requests.filter((r) => r.method === "POST" && r.path === path).length;
  const start = page.getByRole("button", { name: "Start the match" });
  await start.dblclick();
  await page.locator("#rounds").press("Enter");
  await sleep(300);
  const creating = { posts: posts("/matches"), disabled: await start.isDisabled() };
  release();
  await atVersion(page, 10);
  const created = { posts: posts("/matches"), hash: await page.evaluate(() => location.hash) };
  // logged out: the log-in form
  held = new Promise((resolve) => (release = resolve));
  await page.evaluate(() => localStorage.removeItem("card-games-token"));
  await page.reload();
  await page.getByLabel("Name").fill("alice");
  await page.getByLabel("Password").fill("pw-alice-123");
  const logIn = page.getByRole("button", { name: "Log in" });
  await logIn.dblclick();
  await page.getByLabel("Password").press("Enter");
  await sleep(300);
  const loggingIn = { posts: posts("/auth/token"), disabled: [await logIn.isDisabled(), await page.getByRole("button", { name: "Register" }).isDisabled()] };
  release();
  await page.waitForFunction(() => localStorage.getItem("card-games-token") !== null);
  await sleep(300);
  return { creating, created, loggingIn, loggedIn: { posts: posts("/auth/token") } };
};

// --- a connection that dies without a word ------------------------------------------------

/**
 * A server of this script's for the match's stream: each stream asked for is answered (its
 * head sent at once) and held open, sending only what the scenario writes to it.
 */
async function streamServer() {
  const streams = [];
  const server = createServer((request, response) => {
    const stream = { url: request.url, closed: false, response };
    response.on("close", () => (stream.closed = true));
    response.writeHead(200, { "Content-Type": "application/x-ndjson", "Cache-Control": "no-store" });
    response.flushHeaders();
    streams.push(stream);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  return { streams, url: `http://127.0.0.1:${server.address().port}`, close };
}

/**
 * A Golf table at version 10 (its page's clock faked) whose stream is `server`'s, opened
 * once: the page, and its connection banner's text.
 * @param {Awaited<ReturnType<typeof streamServer>>} server
 */
async function atTableOn(server) {
  const match = fakeMatch([golfView(10)]);
  const { page } = await open(async (method, path, query) => {
    if (path === `/matches/${ID}/stream`) return continueTo(`${server.url}/stream?${query}`);
    return match.answer(method, path, query);
  }, { clock: true });
  await atVersion(page, 10);
  await until(() => server.streams.length === 1);
  return { page, banner: () => page.locator(".connection").textContent() };
}

scenarios.silentStream = async () => {
  // the stream's connection dies without a word: no error, no end, nothing more read
  const server = await streamServer();
  try {
    const { page, banner } = await atTableOn(server);
    const keepAlive = async () => {
      server.streams[0].response.write("\n");
      await sleep(300); // (the line reaches the page)
    };
    // a keep-alive line every 20 s (of the page's fake time): a minute, and the stream stays
    for (let i = 0; i < 3; i += 1) {
      await keepAlive();
      await page.clock.runFor(20_000);
    }
    await keepAlive();
    const kept = { banner: await banner(), streams: server.streams.length, closed: server.streams[0].closed };
    // then nothing at all: 29 s is not yet a lost connection, 31 s is
    await page.clock.runFor(29_000);
    await sleep(300);
    const quiet = { banner: await banner(), closed: server.streams[0].closed };
    await page.clock.runFor(2_000);
    await page.locator(".connection", { hasText: "reconnecting" }).waitFor();
    await until(() => server.streams[0].closed);
    const cut = { banner: await banner(), closed: server.streams[0].closed, streams: server.streams.length };
    // the stream read again after the back-off, from the version shown: the banner goes
    await page.clock.runFor(2_000);
    await until(() => server.streams.length === 2);
    await page.locator(".connection:empty").waitFor({ state: "attached" });
    return { kept, quiet, cut, again: { banner: await banner(), url: server.streams[1]?.url ?? null } };
  } finally {
    server.close();
  }
};

scenarios.offlineOnline = async () => {
  // the device goes offline (its network gone), then back online
  const server = await streamServer();
  try {
    const { page, banner } = await atTableOn(server);
    await page.context().setOffline(true);
    // said at once, with no clock run: the stream is let go
    await page.locator(".connection", { hasText: "reconnecting" }).waitFor({ timeout: 3_000 });
    await until(() => server.streams[0].closed);
    const offline = { banner: await banner(), closed: server.streams[0].closed };
    // three tries fail (after 2 s, 4 s, 8 s of back-off), and the next is 15 s away
    for (const ms of [2_000, 4_000, 8_000]) {
      await page.clock.runFor(ms);
      await sleep(300);
    }
    const tried = server.streams.length;
    await page.context().setOffline(false);
    // back online: tried at once, with no clock run
    await until(() => server.streams.length > tried);
    await page.locator(".connection:empty").waitFor({ state: "attached", timeout: 3_000 });
    return { offline, tried, streams: server.streams.length, online: await banner() };
  } finally {
    server.close();
  }
};

scenarios.unreachableCleared = async () => {
  // the network down: the stream drops, a move fails ("cannot be reached"); back up, the
  // stream is read again: the message goes with the banner
  const match = fakeMatch([golfView(10)]);
  let down = false;
  const { page } = await open(async (method, path, query) => {
    if (down && (path === `/matches/${ID}/stream` || path === `/matches/${ID}/actions`)) return NETWORK_DOWN;
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  down = true;
  await page.locator(".connection", { hasText: "reconnecting" }).waitFor();
  await page.locator('.seat.mine button[data-position="0"]').click();
  await page.locator("#errors:not([hidden])").waitFor();
  const failed = await tableState(page);
  down = false;
  await page.locator(".connection:empty").waitFor({ state: "attached", timeout: 10_000 });
  await sleep(200);
  return { failed, back: await tableState(page) };
};

scenarios.silentMove = async () => {
  // a move whose answer never comes (the connection died without a word)
  const match = fakeMatch([golfView(10)]);
  let release = () => {};
  const held = new Promise((resolve) => (release = resolve));
  const { page, requests } = await open(async (method, path, query) => {
    if (method === "POST" && path === `/matches/${ID}/actions`) {
      await held;
      return NETWORK_DOWN;
    }
    return match.answer(method, path, query);
  }, { clock: true });
  await atVersion(page, 10);
  await page.locator('.seat.mine button[data-position="0"]').click();
  await page.locator('.game-table[data-busy="true"]').waitFor();
  await page.clock.runFor(29_000);
  await sleep(300);
  const waiting = await tableState(page);
  await page.clock.runFor(2_000);
  await page.locator("#errors:not([hidden])").waitFor();
  const failed = await tableState(page);
  release();
  return { waiting, failed, posts: requests.filter((r) => r.method === "POST").length };
};

// --- seat names, an aborted match's reason ------------------------------------------------

/** A player whose username begins in lower case. */
const H66BOB = { index: 1, kind: "human", username: "h66bob", com_level: null, to_act: true };
const OPEN_SEAT = { index: 1, kind: "open", username: null, com_level: null, to_act: false };

/**
 * The table of `views`, seat 1 h66bob's (open while the view says so), the page read by
 * `read` at the first version and again after each of `events` is released.
 */
async function bobsTable(views, events, read) {
  const match = fakeMatch(views);
  const { page } = await open(async (method, path, query) => {
    if (path === `/matches/${ID}`) {
      const now = JSON.parse((await match.answer(method, path, query)).body);
      const waiting = now.view.players[1] === "open";
      return json(200, { ...now, status: waiting ? "waiting" : "active", seats: now.seats.map((s) => (s.index !== 1 ? s : waiting ? OPEN_SEAT : H66BOB)) });
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, views[0].version);
  const first = await page.evaluate(read);
  for (const released of events) {
    match.release(released);
    await atVersion(page, released.seq);
  }
  return { first, log: await page.locator(".move-log li").allTextContents(), last: await page.evaluate(read) };
}

scenarios.usernamesAsWritten = async () => {
  // h66bob takes the open seat of a Golf lobby, then turns up a card
  const down = [null, null, null, null, null, null];
  const golf = await bobsTable(
    [
      golfFlips(5, { hole: 1, players: ["human", "open"], seats_to_act: [], legal_actions: [] }),
      golfFlips(6, { hole: 1, players: ["human", "human"] }),
      golfFlips(7, { hole: 1, players: ["human", "human"], flips_left: [2, 1], grids: [down, ["4C", null, null, null, null, null]] }),
    ],
    [event(6, "seat_taken", 1, { seat: 1 }), event(7, "card_revealed", 1, { seat: 1, position: 0, card: "4C" })],
    () => null,
  );
  const heads = () => ({
    heading: document.querySelector('.opponent[data-seat="1"] h3')?.firstChild?.textContent ?? null,
    rows: [...document.querySelectorAll(".results tbody tr[data-seat] th")].map((th) => th.textContent),
    trick: [...document.querySelectorAll(".trick figcaption, .trick .empty-trick")].map((n) => n.textContent),
    facts: document.querySelector(".facts")?.textContent ?? null,
  });
  // h66bob leads in Hearts
  const people = ["human", "human", "com", "com"];
  const hearts = await bobsTable(
    [heartsView(20, { players: people }), heartsView(21, { players: people, trick: [{ seat: 1, card: "2C" }], hand_sizes: [12, 11, 12, 12], seats_to_act: [2], to_act: 2 })],
    [event(21, "card_played", 1, { seat: 1, card: "2C" })],
    heads,
  );
  // h66bob bids in Ninety-Nine, where h66bob leads first
  const three = ["human", "human", "com"];
  const ninetyNine = await bobsTable(
    [ninetyNineBidding(10, { players: three }), ninetyNineBidding(11, { players: three, has_bid: [false, true, false], seats_to_act: [0, 2], hand_sizes: [12, 9, 12] })],
    [event(11, "bid_made", 1, { seat: 1, cards: [null, null, null] })],
    heads,
  );
  return { golf: golf.log, hearts, ninetyNine };
};

scenarios.abortReason = async () => {
  const aborted = (seq) => ({ ...event(seq, "match_aborted", null, { reason: "power cut", seed: "5eed" }), actor: "staff:7" });
  const prompt = (page) => page.locator(".game-table .prompt").textContent();
  // a Hearts match aborted while its table is shown: the event says why
  const hearts = fakeMatch([heartsView(20), heartsView(21, { phase: "aborted", seats_to_act: [], to_act: null, end_reason: "power cut" })]);
  const shown = await open(hearts.answer);
  await atVersion(shown.page, 20);
  hearts.release(aborted(21));
  await atVersion(shown.page, 21);
  const whileShown = { prompt: await prompt(shown.page), log: await shown.page.locator(".move-log li").allTextContents() };
  // a match opened once aborted: the reason from its view, no read of the log
  const opened = async (view) => {
    const match = fakeMatch([view]);
    const { page, requests } = await open(async (method, path, query) => {
      if (path === `/matches/${ID}`) return json(200, { ...detail(view), status: "aborted", your_turn: false });
      if (path === `/matches/${ID}/events`) {
        const after = Number(query.get("after"));
        const events = [aborted(view.version)].filter((e) => e.seq > after).slice(0, Number(query.get("limit") ?? 100));
        return json(200, { events, version: view.version, next_after: events.at(-1)?.seq ?? after, has_more: false });
      }
      return match.answer(method, path, query);
    });
    await atVersion(page, view.version);
    // (the reason comes after the table is first drawn)
    for (let i = 0; i < 30 && !(await prompt(page)).includes(":"); i += 1) await sleep(100);
    return { prompt: await prompt(page), reads: requests.filter((r) => r.path.endsWith("/events")).map((r) => r.query) };
  };
  const over = { phase: "aborted", seats_to_act: [], legal_actions: [], end_reason: "power cut" };
  return {
    whileShown,
    ninetyNine: await opened(ninetyNineView(30, { ...over, trick: { leader: 1, plays: [] } })),
    hearts: await opened(heartsView(30, { ...over, to_act: null })),
    golf: await opened(golfView(30, { ...over, drawn: null })),
  };
};

scenarios.youNamed = async () => {
  // alice (seat 0) plays someone whose username is "you" (seat 1), not a local match,
  // who holds the card drawn
  const theirs = { players: ["human", "human"], seats_to_act: [1], drawn: { seat: 1, source: "stock", card: null }, legal_actions: [] };
  const match = fakeMatch([golfView(10, theirs)]);
  const { page } = await open(async (method, path, query) => {
    if (path === `/matches/${ID}`) {
      const now = JSON.parse((await match.answer(method, path, query)).body);
      return json(200, { ...now, seats: now.seats.map((s) => (s.index === 1 ? { ...s, username: "you", to_act: false } : s)) });
    }
    return match.answer(method, path, query);
  });
  await atVersion(page, 10);
  return {
    seats: await page.evaluate(() => [...document.querySelectorAll(".game-table .seat")].map((s) => ({
      seat: Number(s.getAttribute("data-seat")),
      label: s.getAttribute("aria-label"),
      heading: s.querySelector("h3")?.firstChild?.textContent ?? null,
      card: s.querySelector(".card")?.getAttribute("aria-label") ?? null,
    }))),
    drawn: await page.locator(".drawn-card").getAttribute("aria-label"),
    holds: await page.locator(".drawn figcaption").textContent(),
  };
};

scenarios.passwordChange = async () => {
  const posts = [];
  /** @type {Promise<void> | null} a change's answer held back until it is resolved */
  let held = null;
  const { page } = await open(async (method, path, query, request) => {
    if (path === "/me") return json(200, { id: 1, username: "alice", email: "", is_staff: false });
    if (path === "/me/password" && method === "POST") {
      const body = request.postDataJSON();
      posts.push({ body, authorization: request.headers().authorization ?? null });
      if (held) await held;
      if (body.password !== "pw-alice-123") {
        return json(400, { type: "about:blank", title: "Wrong password", status: 400, detail: "this is not your password", code: "wrong_password", errors: { password: ["this is not your password"] } });
      }
      return json(200, { token: posts.length > 2 ? "the-new-token-2" : "the-new-token" });
    }
    if (path === "/games") return json(200, GAMES);
    if (path === "/matches") return pageOf([], query);
    if (path === "/auth/token" && method === "DELETE") return { status: 204, body: "" };
    return problem(404, "not_found", "Not found", path);
  }, { hash: "#/" });
  await page.getByRole("link", { name: "Password" }).click();
  const form = page.getByRole("form", { name: "Change your password" });
  await form.waitFor();
  const focused = await page.evaluate(() => document.activeElement?.id ?? null);
  await page.getByLabel("Password now").fill("pw-alice-124");
  await page.getByLabel("New password").fill("Another-pass-789");
  await page.getByRole("button", { name: "Change password" }).click();
  await page.locator("#errors:not([hidden])").waitFor();
  const refused = { ...(await tableState(page)), formShown: await form.isVisible() };
  await page.getByLabel("Password now").fill("pw-alice-123");
  await page.getByRole("button", { name: "Change password" }).click();
  await page.getByRole("heading", { name: "Password changed" }).waitFor();
  const done = { ...(await tableState(page)), text: await page.locator("#main").innerText(), focused: await page.evaluate(() => document.activeElement?.textContent ?? null) };
  await page.getByRole("link", { name: "Back to the lobby" }).click();
  await page.locator(".lobby").waitFor();
  const lobby = await page.evaluate(() => location.hash);
  // a change answered after the player went to the lobby: its token kept, the lobby left
  let release = () => {};
  held = new Promise((resolve) => (release = resolve));
  await page.getByRole("link", { name: "Password" }).click();
  await page.getByLabel("Password now").fill("pw-alice-123");
  await page.getByLabel("New password").fill("Third-pass-456");
  await page.getByRole("button", { name: "Change password" }).click();
  await page.getByRole("link", { name: "Lobby" }).click();
  await page.locator(".lobby").waitFor();
  release();
  await page.waitForFunction(() => localStorage.getItem("card-games-token") === "the-new-token-2");
  await sleep(200); // (the page would have drawn its news by now)
  const late = { hash: await page.evaluate(() => location.hash), lobby: await page.locator(".lobby").count(), text: await page.locator("#main").innerText() };
  // one answered after the player logged out: the log-out stands
  held = new Promise((resolve) => (release = resolve));
  await page.getByRole("link", { name: "Password" }).click();
  await page.getByLabel("Password now").fill("pw-alice-123"); // (the fake API's, still)
  await page.getByLabel("New password").fill("Fourth-pass-789");
  await page.getByRole("button", { name: "Change password" }).click();
  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByRole("form", { name: "Play cards" }).waitFor(); // the log-in form
  release();
  await page.waitForFunction((n) => performance.now() > n, await page.evaluate(() => performance.now() + 300));
  const loggedOut = { token: await page.evaluate(() => localStorage.getItem("card-games-token")), loginForm: await page.getByRole("form", { name: "Play cards" }).count(), changes: posts.length };
  return { focused, refused, done, posts, lobby, late, loggedOut };
};

const result = { done: false, scenarios: {} };
try {
  // (CLIENT_FAULTS_ONLY=name,name: those scenarios alone, while working on them)
  const only = process.env.CLIENT_FAULTS_ONLY ? process.env.CLIENT_FAULTS_ONLY.split(",") : null;
  for (const [name, scenario] of Object.entries(scenarios)) {
    if (only && !only.includes(name)) continue;
    const started = Date.now();
    pageErrors = [];
    try {
      result.scenarios[name] = { ...(await scenario()), error: null };
    } catch (error) {
      result.scenarios[name] = { error: String(error?.stack ?? error) };
    }
    result.scenarios[name].ms = Date.now() - started;
    result.scenarios[name].consoleErrors = pageErrors.flat().filter((e) => !EXPECTED.test(e));
    for (const context of browser.contexts()) await context.close();
  }
  result.done = true;
} finally {
  await browser.close();
  say(result);
}
