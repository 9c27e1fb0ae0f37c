// A match between two people, in two browser contexts (two accounts), in headless Chromium:
// A creates a one-hole six-card Golf match with one open seat from the lobby; B finds it
// under "Open matches" and joins it; both pages show the table, each plays its two
// opening flips by clicking, and at every version each page shows it is checked against
// the API's view for its own user (GET states/{version}). The match is timed (60 seconds
// per turn, set in the lobby): at the end, each page's turn timer must show the view's
// turn_deadline, be labelled for screen readers, and count down. Then A's history slider
// goes to two past versions: the table must be the API's view at each (states/{version}),
// with no move offered; "Back to live" returns to the match's version. Then it stops.
//
//   node tests/web/play_people.mjs <base url> <screenshot dir> [<publish dir>]
//
// Prints, last, a summary line {"done": true, ...}.
import { mkdirSync } from "node:fs";
import { compare, snapshot } from "./golf_page.mjs";
import { checker, launch, newPage, nextVersion, openedMatch, register, say } from "./harness.mjs";

const [base, shots] = process.argv.slice(2);
if (!base || !shots) throw new Error("usage: play_people.mjs <base url> <screenshot dir> [<publish dir>]");
mkdirSync(shots, { recursive: true });
const DEADLINE = Date.now() + 60_000;

const summary = { done: false, players: [] };
const browser = await launch();
try {
  // A: a match with one open seat
  const a = await newPage(browser);
  await a.page.goto(`${base}/`);
  const alice = await register(a.page, base, "alice");
  await a.page.getByLabel("Rules").selectOption("six-card");
  await a.page.getByLabel("Holes").fill("1");
  await a.page.getByLabel("Computer opponents").selectOption("0");
  await a.page.getByLabel("Open seats for other players").selectOption("1");
  await a.page.getByLabel("Seconds per turn (optional)").fill("60");
  await a.page.getByRole("button", { name: "Start the match" }).click();
  const opened = await openedMatch(a.page, base);
  const matchId = opened.matchId;
  summary.match = matchId;
  await a.page.locator(".game-table").waitFor();

  // B: the match is listed under "Open matches", with a Join button
  const b = await newPage(browser);
  await b.page.goto(`${base}/`);
  const bob = await register(b.page, base, "bob");
  // the lobby read once while the service is unavailable: the error, and a way to try again
  const problem = (status, code, title) => ({
    status,
    contentType: "application/problem+json",
    headers: { "Retry-After": "1" },
    body: JSON.stringify({ type: "about:blank", title, status, detail: `${title} (a test)`, code }),
  });
  const lobbyRead = "**/api/matches?joinable=*";
  await b.page.route(lobbyRead, (route) => route.fulfill(problem(503, "unavailable", "Service unavailable")), { times: 1 });
  await b.page.reload();
  const again = b.page.getByRole("button", { name: "Try again" });
  await again.waitFor();
  summary.unavailable = { error: await b.page.locator("#errors").textContent(), main: await b.page.locator("#main").textContent() };
  await again.click();
  const row = b.page.locator(`.open-matches li[data-match="${matchId}"]`);
  await row.waitFor();
  summary.listed = await row.textContent();
  summary.unavailable.errorHidden = await b.page.locator("#errors").isHidden();
  // a join refused once (too many requests): the button can be pressed again, and joins
  const joinButton = row.getByRole("button", { name: /^Join the golf match of / });
  await b.page.route(`**/api/matches/${matchId}/join`, (route) => route.fulfill(problem(429, "throttled", "Too many requests")), { times: 1 });
  await joinButton.click();
  await b.page.locator("#errors").getByText("Too many requests").waitFor();
  summary.refusedJoin = { enabled: await joinButton.isEnabled(), url: b.page.url() };
  // the browser logs each refused request: those two, and nothing else, are expected
  summary.refusedLogged = b.consoleErrors.splice(0).map((line) => line.replace(/\d{3}.*/, (m) => m.slice(0, 3)));
  await joinButton.click();
  const joined = await openedMatch(b.page, base);
  if (joined.matchId !== matchId) throw new Error(`B opened ${joined.matchId}, not ${matchId}`);
  await b.page.locator(".game-table").waitFor();

  const players = [
    { name: alice, ...a, api: opened.api, flips: 0, record: { checks: 0, versions: [], moves: [] } },
    { name: bob, ...b, api: joined.api, flips: 0, record: { checks: 0, versions: [], moves: [] } },
  ];
  for (const p of players) p.check = checker(p.page, p.api, matchId, snapshot, compare, p.record);

  // the opening flips of both, each by clicking in its own page; a flip counts once the
  // page shows the card turned up (the other's flip may redraw the page under a click,
  // and then the click is tried again)
  const faceUp = (page) => page.evaluate(() => [...document.querySelectorAll(".seat.mine .card")].filter((n) => n.getAttribute("data-card")).length);
  while (players.some((p) => p.flips < 2)) {
    if (Date.now() > DEADLINE) throw new Error(`the flips took too long: ${JSON.stringify(players.map((p) => p.record))}`);
    for (const p of players) {
      const read = await p.check.read();
      if (!read) continue;
      p.flips = await faceUp(p.page);
      const { shown } = read;
      if (p.flips >= 2 || shown.phase !== "flips" || !shown.yourTurn || shown.busy) continue;
      const cell = shown.cards.find((c) => c.action === "reveal");
      if (!cell) continue;
      await p.page.locator(`.seat.mine button.card[data-position="${cell.position}"]`).click();
      p.record.moves.push(`reveal:${cell.position}`);
      // a click the redraw swallowed makes no version: after a while, read and try again
      await nextVersion(p.page, shown.version, 5_000).catch((e) => {
        if (e.name !== "TimeoutError") throw e;
        p.record.retried = (p.record.retried ?? 0) + 1;
      });
    }
  }
  while ((await players[0].api(`/matches/${matchId}`)).view.phase === "flips") {
    if (Date.now() > DEADLINE) throw new Error("the flips did not end");
    await players[0].page.waitForTimeout(50);
  }

  // both pages reach the match's version, each checked against its own user's view
  const latest = await players[0].api(`/matches/${matchId}`);
  for (const p of players) {
    await p.page.waitForFunction((v) => Number(document.querySelector(".game-table")?.getAttribute("data-version")) >= v, latest.version);
    await p.check.read();
    const me = await p.api("/me");
    const detail = await p.api(`/matches/${matchId}`);
    // the turn timer: the view's deadline, counted down each second, labelled
    const timer = p.page.locator('.turn-timer[role="timer"]');
    const read = () => timer.evaluate((n) => ({ seconds: Number(n.getAttribute("data-seconds")), label: n.getAttribute("aria-label"), text: n.textContent, deadline: n.getAttribute("data-deadline") }));
    const first = await read();
    await p.page.waitForTimeout(2100);
    const later = await read();
    // (only the view of GET /api/matches/{id} carries the deadline; states/{version} does not)
    const clock = { first, later, deadline: detail.view.turn_deadline, version: detail.version, turnTimeout: detail.turn_timeout };
    summary.players.push({ username: me.username, seat: detail.your_seat, ...p.record, clock, errors: p.consoleErrors });
    if (p.consoleErrors.length) throw new Error(`errors in ${p.name}'s console:\n${p.consoleErrors.join("\n")}`);
  }
  // the history slider: two past versions on A's page, each against the API, then live
  const pa = players[0];
  const head = () => { const t = document.querySelector(".game-table"); return { version: Number(t?.getAttribute("data-version")), phase: t?.getAttribute("data-phase"), yourTurn: t?.getAttribute("data-your-turn") === "true", busy: false }; };
  const shownNow = `(() => ({ ...(${head})(), ...(${snapshot})() }))()`;
  summary.history = [];
  for (const version of [Math.max(1, latest.version - 3), latest.version - 1]) {
    await pa.page.getByRole("slider", { name: /^History/ }).fill(String(version));
    await pa.page.locator(`.game-table[data-history="true"][data-version="${version}"]`).waitFor();
    const shown = await pa.page.evaluate(shownNow);
    const view = await pa.api(`/matches/${matchId}/states/${version}`);
    const faults = compare(shown, { ...view, legal_actions: [] }); // a past table offers no moves
    if (faults.length) throw new Error(`history v${version}: the page differs from the API's view:\n${faults.join("\n")}`);
    summary.history.push({
      version,
      phase: shown.phase,
      faceUp: shown.cards.filter((c) => c.card).length,
      legal: view.legal_actions.length,
      offered: shown.cards.filter((c) => c.action).length + shown.actions.length,
      label: await pa.page.locator('label[for="history"]').textContent(),
      max: Number(await pa.page.locator("#history").getAttribute("max")),
    });
  }
  await pa.page.getByRole("button", { name: "Back to live" }).click();
  await pa.page.locator(`.game-table[data-history="false"][data-version="${latest.version}"]`).waitFor();
  const live = await pa.page.evaluate(shownNow);
  summary.live = { version: live.version, yourTurn: live.yourTurn, label: await pa.page.locator('label[for="history"]').textContent(), back: await pa.page.getByRole("button", { name: "Back to live" }).count() };
  if (pa.consoleErrors.length) throw new Error(`errors in A's console:\n${pa.consoleErrors.join("\n")}`);

  summary.version = latest.version;
  summary.phase = latest.view.phase;
  summary.done = true;
} finally {
  await browser.close();
  say(summary);
}
