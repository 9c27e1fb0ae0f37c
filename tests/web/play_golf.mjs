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
import { cardName, launch, newPage, openedMatch, phoneShot, publishShots, register, say, tableShot, checker } from "./harness.mjs";

const [base, shots, publish] = process.argv.slice(2);
if (!base || !shots) throw new Error("usage: play_golf.mjs <base url> <screenshot dir> [<publish dir>]");
mkdirSync(shots, { recursive: true });
const DEADLINE = Date.now() + 240_000;

/** Everything the table shows, read in one go (so a re-render cannot split it). */
function snapshot() {
  const table = document.querySelector(".game-table");
  if (!table) return null;
  const cards = [...table.querySelectorAll(".grid .card")].map((node) => ({
    seat: Number(node.getAttribute("data-seat")),
    position: Number(node.getAttribute("data-position")),
    label: node.getAttribute("aria-label"),
    card: node.getAttribute("data-card"),
    action: node.tagName === "BUTTON" ? node.getAttribute("data-action") : null,
  }));
  const stock = table.querySelector(".pile.stock");
  const discard = table.querySelector(".pile.discard");
  const drawn = table.querySelector(".drawn-card");
  const actions = [...table.querySelectorAll(".actions button")].map((b) => b.getAttribute("data-action"));
  return {
    cards,
    stock: { size: Number(stock?.getAttribute("data-stock-size")), action: stock?.tagName === "BUTTON" ? "draw" : null },
    discard: { card: discard?.getAttribute("data-card") ?? null, action: discard?.tagName === "BUTTON" ? "take_discard" : null },
    drawn: drawn ? { card: drawn.getAttribute("data-card"), seat: Number(drawn.getAttribute("data-seat")), label: drawn.getAttribute("aria-label") } : null,
    banner: table.querySelector(".final-turns")?.textContent ?? null,
    totals: [...table.querySelectorAll(".totals td")].map((td) => Number(td.textContent)),
    actions,
    prompt: table.querySelector(".prompt")?.textContent ?? "",
  };
}

/** The differences between what the page shows and the API's view (empty: they agree). */
function compare(shown, view) {
  const faults = [];
  const check = (ok, what) => ok || faults.push(what);
  check(shown.phase === view.phase, `phase ${shown.phase} != ${view.phase}`);
  const expectedCells = view.grids.flatMap((grid, seat) => grid.map((card, position) => ({ seat, position, card })));
  check(shown.cards.length === expectedCells.length, `${shown.cards.length} cells != ${expectedCells.length}`);
  for (const want of expectedCells) {
    const got = shown.cards.find((c) => c.seat === want.seat && c.position === want.position);
    if (!got) {
      faults.push(`no cell for seat ${want.seat} position ${want.position}`);
      continue;
    }
    const suffix = `card ${want.position + 1}, ${cardName(want.card)}`;
    check(got.card === (want.card ?? ""), `seat ${want.seat} card ${want.position}: ${got.card} != ${want.card}`);
    check(got.label.endsWith(suffix), `label "${got.label}" does not end with "${suffix}"`);
    if (want.seat === view.seat) check(got.label === `your ${suffix}`, `label "${got.label}" is not "your ${suffix}"`);
  }
  check(shown.stock.size === view.stock_size, `stock ${shown.stock.size} != ${view.stock_size}`);
  check(shown.discard.card === (view.discard_top ?? ""), `discard ${shown.discard.card} != ${view.discard_top}`);
  if (view.drawn) {
    check(shown.drawn !== null, "the drawn card is missing");
    if (shown.drawn) {
      check(shown.drawn.card === (view.drawn.card ?? ""), `drawn ${shown.drawn.card} != ${view.drawn.card}`);
      check(shown.drawn.seat === view.drawn.seat, `drawn by ${shown.drawn.seat} != ${view.drawn.seat}`);
      check(shown.drawn.label.endsWith(view.drawn.card ? cardName(view.drawn.card) : "hidden"), `drawn label ${shown.drawn.label}`);
    }
  } else check(shown.drawn === null, "a drawn card is shown but none is drawn");
  // the final-turns banner, while the hole is in play
  const finalTurns = view.final_turns !== null && ["flips", "draw", "place"].includes(view.phase);
  check((shown.banner !== null) === finalTurns, `final-turns banner ${shown.banner} vs ${JSON.stringify(view.final_turns)} in ${view.phase}`);
  check(JSON.stringify(shown.totals) === JSON.stringify(view.totals), `totals ${shown.totals} != ${view.totals}`);
  if (!shown.busy) {
    // the moves offered are exactly the legal actions
    const offered = [
      ...shown.cards.filter((c) => c.action).map((c) => `${c.action}:${c.position}`),
      ...(shown.stock.action ? ["draw"] : []),
      ...(shown.discard.action ? ["take_discard"] : []),
      ...shown.actions.filter((a) => a !== "hint" && a !== "discard-flip"),
    ].sort();
    const legal = view.legal_actions
      .filter((a) => !(a.type === "discard" && a.flip != null))
      .map((a) => ("position" in a ? `${a.type}:${a.position}` : a.type))
      .sort();
    check(JSON.stringify(offered) === JSON.stringify(legal), `offered ${offered} != legal ${legal}`);
    // (undo may be offered while the COMs play on after your turn: not your turn then)
    const yourTurn = view.seats_to_act.includes(view.seat) && view.legal_actions.length > 0;
    check(shown.yourTurn === yourTurn, `your turn ${shown.yourTurn} with ${legal}`);
  }
  for (const cell of shown.cards) {
    // nothing the API hides is shown: a face-down cell carries no card
    if (!cell.card) check(cell.label.endsWith("face down"), `hidden cell labelled ${cell.label}`);
  }
  return faults;
}

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
    if (shown.phase === "flips" || shown.phase === "place") {
      // turn up, or swap into, the first face-down card offered (the hole ends sooner)
      const cell = shown.cards.find((c) => c.action && !c.card) ?? shown.cards.find((c) => c.action);
      if (cell) {
        target = page.locator(`.seat.mine button.card[data-position="${cell.position}"]`);
        move = `${cell.action}:${cell.position}`;
      } else {
        target = page.locator('.actions button[data-action="discard"]');
        move = "discard";
      }
    } else if (shown.phase === "draw") {
      if (!hinted && shown.actions.includes("hint")) {
        await page.getByRole("button", { name: "Hint" }).click();
        summary.hint = await page.locator(".hint").textContent();
        hinted = true;
        continue;
      }
      if (!undone && shown.actions.includes("undo")) {
        // take the last turn back once (a practice match), then play on
        target = page.getByRole("button", { name: "Undo my last turn" });
        move = "undo";
        undone = true;
      } else {
        target = page.getByRole("button", { name: /^stock, \d+ cards?: draw a card$/ });
        move = "draw";
      }
    } else {
      const action = shown.actions.find((a) => a !== "hint");
      target = page.locator(`.actions button[data-action="${action}"]`);
      move = action;
    }
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
