// A spectator's page, and the verification of the deal at the end, in headless Chromium.
// A player (through the API) plays a one-hole Golf match against a COM on the worker; a
// second account, not seated, watches it in the page. At every version the page shows,
// no card the spectator's view (GET states/{version} as that account) hides may be on
// the page. When the match has ended the page checks the deal from the revealed seed
// (Web Crypto) and must say "Verified"; then, with the audit record's first dealt card
// changed on its way to the page (page.route), it must show that mismatch, in red. In
// between, the record comes in two pages (the first cut short): the page joins them.
//
//   node tests/web/spectate_verify.mjs <base url> <screenshot dir> [<publish dir>]
//
// Prints, last, a summary line {"done": true, ...}.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { checker, launch, newPage, openedMatch, publishShots, register, say } from "./harness.mjs";

const [base, shots, publish] = process.argv.slice(2);
if (!base || !shots) throw new Error("usage: spectate_verify.mjs <base url> <screenshot dir> [<publish dir>]");
mkdirSync(shots, { recursive: true });
const DEADLINE = Date.now() + 90_000;

/** The player, through the API alone. */
async function player() {
  const username = `player-${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const call = async (method, path, body, token, headers = {}) => {
    const response = await fetch(`${base}/api${path}`, {
      method,
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const { token } = await call("POST", "/accounts/register", { username, password: "a-long-pass-phrase-9" });
  return {
    create: (request) => call("POST", "/matches", request, token),
    get: (path) => call("GET", path, undefined, token),
    act: (id, action) => call("POST", `/matches/${id}/actions`, action, token, { "Idempotency-Key": crypto.randomUUID() }),
  };
}

/** A short way through a hole: turn up cards, draw, and swap onto face-down cards. */
function pick(view) {
  const mine = view.grids[view.seat] ?? [];
  const legal = view.legal_actions;
  return (
    legal.find((a) => a.type === "reveal") ??
    legal.find((a) => a.type === "swap" && mine[a.position] === null) ??
    legal.find((a) => a.type === "draw") ??
    legal.find((a) => a.type === "swap") ??
    legal[0]
  );
}

/** Every card code on the page (run in the page). */
function snapshot() {
  return { cards: [...document.querySelectorAll("[data-card]")].map((n) => n.getAttribute("data-card")).filter(Boolean) };
}

/** Every card code in a view, with how often it occurs. */
function shownByView(view, counts = new Map()) {
  if (typeof view === "string" && /^([2-9TJQKA][SHDC]|X[RB])$/.test(view)) counts.set(view, (counts.get(view) ?? 0) + 1);
  else if (Array.isArray(view)) view.forEach((v) => shownByView(v, counts));
  else if (view && typeof view === "object") Object.values(view).forEach((v) => shownByView(v, counts));
  return counts;
}

const summary = { done: false, checks: 0, versions: [], moves: [], hidden: 0, screenshots: [] };
const browser = await launch();
try {
  const { page, consoleErrors } = await newPage(browser);
  await page.goto(`${base}/`);
  summary.username = await register(page, base, "watcher");
  const me = await player();
  const created = await me.create({ game: "golf", preset: "six-card", holes: 1, hints: false, seats: [{ type: "me" }, { type: "com", level: "easy" }] });
  summary.match = created.id;
  await page.goto(`${base}/#/match/${created.id}`);
  const { api } = await openedMatch(page, base);

  // the page may show only what the spectator's view shows: every card on it, counted
  const compare = (shown, view) => {
    const faults = [];
    if (view.seat !== null) faults.push(`the spectator is seated: ${view.seat}`);
    const allowed = shownByView(view);
    const onPage = new Map();
    for (const card of shown.cards) onPage.set(card, (onPage.get(card) ?? 0) + 1);
    for (const [card, n] of onPage) {
      if (n > (allowed.get(card) ?? 0)) faults.push(`${card} is on the page ${n} times, the view shows it ${allowed.get(card) ?? 0}`);
    }
    summary.hidden += view.grids.flat().filter((c) => c === null).length;
    return faults;
  };
  const check = checker(page, api, created.id, snapshot, compare, summary);
  let view = created.view;
  while (true) {
    if (Date.now() > DEADLINE) throw new Error(`the match took too long (v${summary.versions.at(-1)})`);
    const read = await check.read();
    view = await me.get(`/matches/${created.id}`).then((m) => m.view);
    if (view.phase === "finished" && read?.shown.version === view.version) break;
    if (view.legal_actions.length && read?.shown.version === view.version) {
      const action = pick(view);
      summary.moves.push(`${action.type}${action.position !== undefined ? `:${action.position}` : ""}`);
      await me.act(created.id, action);
    }
  }

  // the end: the deal checked in the browser from the revealed seed
  const box = page.locator(".verification");
  await page.locator('.verification[data-verdict="verified"], .verification[data-verdict="mismatch"], .verification[data-verdict="error"]').waitFor();
  summary.verdict = await box.getAttribute("data-verdict");
  summary.verified = await box.locator(".verdict").textContent();
  const audit = await api(`/matches/${created.id}/audit`);
  summary.seedShown = (await box.textContent()).includes(audit.seed);
  await box.scrollIntoViewIfNeeded();
  const verifiedShot = join(shots, "client-verified.png");
  await page.screenshot({ path: verifiedShot, fullPage: true });
  summary.screenshots.push(verifiedShot);

  // the record in pages: the first cut to five events, the page asks for the rest
  const AUDIT = "**/api/matches/*/audit*";
  summary.auditPages = [];
  await page.route(AUDIT, async (route) => {
    const url = new URL(route.request().url());
    summary.auditPages.push(url.search);
    const response = await route.fetch();
    const record = await response.json();
    if (url.searchParams.has("after")) return route.fulfill({ response, json: record });
    record.events = record.events.slice(0, 5);
    Object.assign(record, { has_more: true, next_after: record.events[4].seq });
    await route.fulfill({ response, json: record });
  });
  await page.reload();
  await page.locator('.verification[data-verdict="verified"], .verification[data-verdict="mismatch"], .verification[data-verdict="error"]').waitFor();
  summary.pagedVerdict = await page.locator(".verification").getAttribute("data-verdict");
  await page.unroute(AUDIT);

  // a tampered record: the first card dealt to seat 1 is another card
  const dealt = audit.events.find((e) => e.type === "hole_dealt").data;
  const genuine = dealt.grids[0][0];
  const forged = genuine === "KS" ? "QS" : "KS";
  await page.route(AUDIT, async (route) => {
    const response = await route.fetch();
    const record = await response.json();
    record.events.find((e) => e.type === "hole_dealt").data.grids[0][0] = forged;
    await route.fulfill({ response, json: record });
  });
  await page.reload();
  await page.locator('.verification[data-verdict="mismatch"]').waitFor();
  summary.mismatch = await page.locator(".verification .verdict").textContent();
  summary.genuine = genuine;
  summary.forged = forged;
  summary.mismatchColor = await page.locator(".verification .verdict").evaluate((n) => getComputedStyle(n).color);
  const tamperedShot = join(shots, "client-verify-mismatch.png");
  await page.locator(".verification").screenshot({ path: tamperedShot });
  summary.screenshots.push(tamperedShot);
  summary.consoleErrors = consoleErrors.filter((e) => !e.includes("favicon"));
  summary.version = view.version;
  publishShots(summary.screenshots, publish);
  summary.done = true;
} finally {
  await browser.close();
  say(summary);
}
