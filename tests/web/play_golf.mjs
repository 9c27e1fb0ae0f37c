// Plays one Golf match in the web client, in headless Chromium, by clicking (and by the
// keyboard), as a new user would: register, create a six-card practice match (undo on)
// of one hole against two COMs, play it to the end, taking one turn back on the way. Whenever the page shows a new version of the match, the
// page's state (every grid cell's label and card, the stock, the discard pile, the drawn
// card, the phase, the final-turns banner, the totals, the moves offered) is checked
// against the API's view for this user at that version (GET states/{version}).
//
//   node tests/web/play_golf.mjs <base url> <screenshot dir> [<copy screenshots to>]
//
// Prints one JSON line per event of note and, last, a summary line {"done": true, ...}.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { compare, plainMove, snapshot } from "./golf_page.mjs";
import { launch, newPage, openedMatch, phoneShot, publishShots, register, say, tableShot, checker } from "./harness.mjs";

const [base, shots, publish] = process.argv.slice(2);
if (!base || !shots) throw new Error("usage: play_golf.mjs <base url> <screenshot dir> [<publish dir>]");
mkdirSync(shots, { recursive: true });
const DEADLINE = Date.now() + 240_000;

const browser = await launch();
const summary = { done: false, checks: 0, versions: [], moves: [], keyboard: 0, hint: null, screenshots: [] };
try {
  const { page, consoleErrors } = await newPage(browser);

  // a failed log-in: the API's problem (title and detail) is shown, readable
  const username = `web-${Date.now().toString(36)}`;
  await page.goto(`${base}/`);
  await page.getByLabel("Name").fill(username);
  await page.getByLabel("Password").fill("not-registered-yet");
  await page.getByRole("button", { name: "Log in" }).click();
  const alert = page.getByRole("alert");
  await alert.waitFor();
  const shownProblem = await alert.textContent();
  const problem = await (
    await fetch(`${base}/api/auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username, password: "not-registered-yet" }),
    })
  ).json();
  if (!shownProblem.includes(`${problem.title}: ${problem.detail}`)) {
    throw new Error(`the page shows "${shownProblem}" for the problem ${JSON.stringify(problem)}`);
  }
  summary.problem = shownProblem;
  // Chromium logs the 401 it answered as an error in the console: that one was expected
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !e.includes("status of 401")));

  // register, then a six-card match of one hole against two COMs
  const registered = await register(page, base);
  await page.getByLabel("Rules").selectOption("six-card");
  await page.getByLabel("Holes").fill("1");
  await page.getByLabel("Computer opponents").selectOption("2");
  await page.getByLabel("Practice: allow undo").check();
  await page.getByRole("button", { name: "Start the match" }).click();
  const { matchId, api } = await openedMatch(page, base);
  say({ registered, match: matchId });
  summary.username = registered;
  summary.match = matchId;

  const table = checker(page, api, matchId, snapshot, compare, summary);
  let bannerShot = false;
  let hinted = false;
  let undone = false;
  while (Date.now() < DEADLINE) {
    const read = await table.read();
    if (!read) continue;
    const { shown, view } = read;
    if (view) {
      if (shown.banner && !bannerShot) {
        const file = join(shots, "client-golf.png");
        await tableShot(page, file);
        summary.screenshots.push(file);
        bannerShot = true;
      }
    }
    if (shown.phase === "finished") break;
    if (!(await table.ready(shown))) continue;
    let target;
    let move;
    if (shown.phase === "draw" && !hinted && shown.actions.includes("hint")) {
      await page.getByRole("button", { name: "Hint" }).click();
      summary.hint = await page.locator(".hint:not(:empty)").textContent();
      hinted = true;
      continue;
    }
    if (shown.phase === "draw" && !undone && shown.actions.includes("undo")) {
      // take the last turn back once (a practice match), then play on
      target = page.getByRole("button", { name: "Undo my last turn" });
      move = "undo";
      undone = true;
    } else ({ target, move } = plainMove(page, shown));
    // the opening flips by the keyboard: Tab to a card of yours the first time; the
    // second time the focus is already on a card to turn up (it moves to the next move
    // offered); Enter turns it up. Everything else by the mouse.
    if (shown.phase === "flips") {
      const onMyCard = () => page.evaluate(() => document.activeElement?.matches(".seat.mine button.card") ?? false);
      for (let tabs = 0; !(await onMyCard()); tabs += 1) {
        if (tabs > 60 || summary.keyboard > 0) throw new Error(`Tab does not reach a card to turn up (after ${tabs} presses)`);
        await page.keyboard.press("Tab");
      }
      const position = await page.evaluate(() => document.activeElement?.getAttribute("data-position"));
      move = `reveal:${position}`;
      await page.keyboard.press("Enter");
      summary.keyboard += 1;
    } else {
      await target.click();
    }
    await table.moved(shown, move);
  }

  const final = await table.finished();
  const file = join(shots, "client-golf-end.png");
  await tableShot(page, file);
  summary.screenshots.push(file);
  if (!bannerShot) {
    await tableShot(page, join(shots, "client-golf.png"));
    summary.screenshots.push(join(shots, "client-golf.png"));
  }

  // a phone's width: the table fits, nothing scrolls sideways
  const phone = join(shots, "client-golf-phone.png");
  await phoneShot(page, phone);
  summary.screenshots.push(phone);

  if (consoleErrors.length) throw new Error(`errors in the page's console:\n${consoleErrors.join("\n")}`);
  publishShots(summary.screenshots, publish);
  Object.assign(summary, { done: true, version: final.version, totals: final.totals, winners: final.winners });
} finally {
  await browser.close();
  say(summary);
}
