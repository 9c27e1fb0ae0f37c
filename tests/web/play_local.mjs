// Plays one pass-and-play Golf match in the web client, in headless Chromium: one account
// makes a six-card match of one hole for two players on this device (no COM, no open
// seat) with the new-match form, and the two play it to the end by clicking, the device
// passed between them. At every version the page shows, the table is checked against the
// API's view at that version (GET states/{version}: the seat that was to act then), and
// the seats are named by their players ("Player 2"), never "you", the prompt naming whose
// turn it is.
//
//   node tests/web/play_local.mjs <base url> <screenshot dir>
//
// Prints one JSON line per event of note and, last, a summary line {"done": true, ...}.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { compare, plainMove, snapshot } from "./golf_page.mjs";
import { checker, launch, newPage, openedMatch, register, say, tableShot } from "./harness.mjs";

const [base, shots] = process.argv.slice(2);
if (!base || !shots) throw new Error("usage: play_local.mjs <base url> <screenshot dir>");
mkdirSync(shots, { recursive: true });
const DEADLINE = Date.now() + 240_000;

const browser = await launch();
const summary = { done: false, checks: 0, versions: [], moves: [], movers: [], form: {}, screenshots: [] };
try {
  const { page, consoleErrors } = await newPage(browser);
  const registered = await register(page, base, "local");
  summary.username = registered;

  // the form: two players here leave no open seat, and need no COM
  const options = async (label) => page.getByLabel(label).locator("option").allTextContents();
  await page.getByLabel("Rules").selectOption("six-card");
  await page.getByLabel("Holes").fill("1");
  summary.form.here = await options("Players on this device");
  await page.getByLabel("Players on this device").selectOption("2");
  summary.form.coms = await options("Computer opponents");
  summary.form.open = await options("Open seats for other players");
  summary.form.openDisabled = await page.getByLabel("Open seats for other players").isDisabled();
  await page.getByLabel("Computer opponents").selectOption("0");
  await page.getByRole("button", { name: "Start the match" }).click();
  const { matchId, api } = await openedMatch(page, base);
  summary.match = matchId;
  say({ registered, match: matchId });

  const local = (shown, view) => {
    const faults = compare(shown, view, { local: true });
    // the grids are headed by their players' names, and the turn's prompt names its player
    const headings = shown.headings.join(" | ");
    if (shown.headings.some((h) => /^You\b/.test(h)) || !/^Player 1\b/.test(headings) || !headings.includes("| Player 2")) {
      faults.push(`grid headings ${headings}`);
    }
    const turn = view.seats_to_act.includes(view.seat) && view.legal_actions.length > 0 && !shown.busy;
    if (turn && !shown.prompt.startsWith(`Player ${view.seat + 1} — `)) faults.push(`prompt "${shown.prompt}" on seat ${view.seat}'s turn`);
    return faults;
  };
  const withHeadings = `(() => ({ ...(${snapshot})(), headings: [...document.querySelectorAll(".game-table .seat h3")].map((h) => h.textContent).sort() }))`;
  const table = checker(page, api, matchId, withHeadings, local, summary);
  let passedShot = false;
  while (Date.now() < DEADLINE) {
    const read = await table.read();
    if (!read) continue;
    const { shown } = read;
    if (shown.phase === "finished") break;
    if (!(await table.ready(shown))) continue;
    const seat = (await api(`/matches/${matchId}`)).your_seat;
    if (summary.movers.length && summary.movers.at(-1) !== seat && !passedShot) {
      const file = join(shots, "client-golf-local.png");
      await tableShot(page, file);
      summary.screenshots.push(file);
      passedShot = true;
    }
    const { target, move } = plainMove(page, shown);
    summary.movers.push(seat);
    await target.click();
    await table.moved(shown, move);
  }

  const final = await table.finished();
  summary.end = await page.locator(".game-table .prompt").textContent();
  if (consoleErrors.length) throw new Error(`errors in the page's console:\n${consoleErrors.join("\n")}`);
  Object.assign(summary, { done: true, version: final.version, winners: final.winners, seats: final.seats, local: final.local });
} finally {
  await browser.close();
  say(summary);
}
