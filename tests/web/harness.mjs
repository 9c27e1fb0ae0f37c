// What the browser tests share: Chromium through playwright-core, an independent reading
// of card codes, registering in the page, reading the API as the page's user, and waiting
// for the page to show a new version after a move.
import { chromium } from "playwright-core";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const say = (record) => console.log(JSON.stringify(record));

/** Headless Debian Chromium. */
export function launch() {
  return chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: FLAGS });
}

// An independent reading of card codes (the page has its own, web/cards.js).
const RANKS = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
const SUITS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
export function cardName(code) {
  if (!code) return "face down";
  if (code[0] === "X") return code[1] === "R" ? "red joker" : "black joker";
  return `${RANKS[code[0]] ?? code[0]} of ${SUITS[code.slice(1)]}`;
}

/** A page that records the errors of its console. */
export async function newPage(browser, width = 1200, height = 900) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const consoleErrors = [];
  page.on("pageerror", (error) => consoleErrors.push(String(error)));
  page.on("console", (message) => message.type() === "error" && consoleErrors.push(message.text()));
  return { page, consoleErrors };
}

/** Registers a new user in the page; the lobby follows. */
export async function register(page, base, prefix = "web") {
  const username = `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  if (!page.url().startsWith(base)) await page.goto(`${base}/`);
  await page.getByLabel("Name").fill(username);
  await page.getByLabel("Password").fill("a-long-pass-phrase-9");
  await page.getByRole("button", { name: "Register" }).click();
  await page.getByRole("heading", { name: /^New .* match$/ }).waitFor();
  return username;
}

/** After "Start the match": the match's id, and GET of the API as the page's user. */
export async function openedMatch(page, base) {
  await page.waitForURL(/#\/match\/[0-9a-f-]{36}$/);
  const matchId = page.url().split("/match/")[1];
  const token = await page.evaluate(() => localStorage.getItem("card-games-token"));
  const api = async (path) => {
    const response = await fetch(`${base}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  return { matchId, api };
}

/** Waits until the table shows a version after `before` (not busy), or an error. */
export function nextVersion(page, before, timeout = 30_000) {
  return page.waitForFunction(
    (seen) => {
      const table = document.querySelector(".game-table");
      const errors = document.getElementById("errors");
      return (errors && !errors.hidden) || (table && Number(table.getAttribute("data-version")) > seen && table.getAttribute("data-busy") === "false");
    },
    before,
    { timeout },
  );
}

/** Fails when the page is wider than a phone's 390 px; then a full-page screenshot. */
export async function phoneShot(page, file) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(100);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) throw new Error(`at 390 px the page is ${overflow} px too wide`);
  await page.screenshot({ path: file, fullPage: true });
}

/** Copies the screenshots to `publish` (e.g. docs), when given. */
export function publishShots(shots, publish) {
  if (!publish) return;
  mkdirSync(publish, { recursive: true });
  for (const shot of shots) copyFileSync(shot, join(publish, shot.split("/").pop()));
}

/** A screenshot of the table (its root stays put while the table inside is redrawn). */
export async function tableShot(page, file) {
  await page.locator(".table-root").screenshot({ path: file });
}

/** What every table says of itself (run in the page), or null when none is shown. */
function tableHead() {
  const table = document.querySelector(".game-table");
  if (!table) return null;
  const errors = document.getElementById("errors");
  return {
    version: Number(table.getAttribute("data-version")),
    phase: table.getAttribute("data-phase"),
    yourTurn: table.getAttribute("data-your-turn") === "true",
    busy: table.getAttribute("data-busy") === "true",
    error: errors && !errors.hidden ? errors.textContent : null,
  };
}

/**
 * Reads the table the page shows and, at each version not checked yet, checks it against
 * the API's view at that version (GET states/{version}) with `compare` (a list of faults).
 * `read()` answers {shown, view} (view null when that version was checked already), or
 * null while no table is shown; `ready(shown)` says whether it is the page's turn with
 * the match at the version shown (not still showing COM moves one by one).
 */
export function checker(page, api, matchId, snapshot, compare, summary) {
  const state = { checked: 0 };
  // what every table shows, and the game's own snapshot, read in one go (in the page)
  const both = `(() => { const head = (${tableHead})(); return head && { ...head, ...(${snapshot})() }; })()`;
  state.read = async () => {
    const shown = await page.evaluate(both);
    if (!shown) {
      await page.waitForTimeout(50);
      return null;
    }
    if (shown.error) throw new Error(`the page shows an error: ${shown.error}`);
    if (shown.version === state.checked) return { shown, view: null };
    const view = await api(`/matches/${matchId}/states/${shown.version}`);
    const faults = compare(shown, view);
    if (faults.length) throw new Error(`v${shown.version}: the page differs from the API's view:\n${faults.join("\n")}`);
    summary.checks += 1;
    summary.versions.push(shown.version);
    state.checked = shown.version;
    return { shown, view };
  };
  state.ready = async (shown) => {
    if (!shown.yourTurn || shown.busy) {
      await page.waitForTimeout(40);
      return false;
    }
    const latest = await api(`/matches/${matchId}`);
    if (latest.version === shown.version) return true;
    await page.waitForTimeout(40);
    return false;
  };
  state.moved = async (shown, move) => {
    summary.moves.push(move);
    say({ version: shown.version, move });
    await nextVersion(page, shown.version);
  };
  state.finished = async () => {
    const final = await api(`/matches/${matchId}`);
    if (final.status !== "finished") throw new Error(`the match did not finish in time: ${final.status} v${final.version}`);
    if (state.checked !== final.version) throw new Error(`the page stopped at v${state.checked}, the match is at v${final.version}`);
    await page.getByText(/^Winners?: /).waitFor();
    return final;
  };
  return state;
}
