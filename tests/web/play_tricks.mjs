// Plays one deal of a trick-taking game in the web client, in headless Chromium, by
// clicking: Hearts (hearts-classic, one deal, passing, against three COMs) or Ninety-Nine
// (one deal against two COMs: three bid cards chosen with the contract checked as it is
// picked, then a declared premium bid when offered). Whenever the page shows a new
// version, the page (your hand, the others' hand sizes, the trick, points or tricks won,
// totals, the moves offered: exactly the legal actions) is checked against the API's view
// for this user at that version (GET states/{version}); and no card the view hides is
// ever on the page, checked again at the end against the whole deal (the events, shown
// whole once the match is over).
//
//   node tests/web/play_tricks.mjs <hearts|ninety-nine> <base url> <screenshot dir> [<publish dir>]
//
// Prints one JSON line per move and, last, a summary line {"done": true, ...}.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { cardName, launch, newPage, openedMatch, phoneShot, publishShots, register, say, tableShot, checker } from "./harness.mjs";

const [game, base, shots, publish] = process.argv.slice(2);
if (!["hearts", "ninety-nine"].includes(game) || !base || !shots) {
  throw new Error("usage: play_tricks.mjs <hearts|ninety-nine> <base url> <screenshot dir> [<publish dir>]");
}
mkdirSync(shots, { recursive: true });
const DEADLINE = Date.now() + 240_000;
const HEARTS = game === "hearts";
const BID_VALUE = { C: 3, H: 2, S: 1, D: 0 };

/** Everything the table shows, read in one go. */
function snapshot() {
  const table = document.querySelector(".game-table");
  if (!table) return null;
  const card = (node) => ({
    card: node.getAttribute("data-card"),
    label: node.getAttribute("aria-label"),
    action: node.tagName === "BUTTON" ? node.getAttribute("data-action") : null,
    pressed: node.getAttribute("aria-pressed") === "true",
    seat: Number(node.getAttribute("data-seat")),
  });
  return {
    heartsBroken: table.getAttribute("data-hearts-broken"),
    trumps: table.getAttribute("data-trumps"),
    hand: [...table.querySelectorAll(".hand.mine .card")].map(card),
    others: [...table.querySelectorAll(".seat.opponent")].map((node) => ({
      seat: Number(node.getAttribute("data-seat")),
      size: Number(node.getAttribute("data-hand-size")),
      cards: [...node.querySelectorAll(".hand.fan .card")].map((c) => c.getAttribute("data-card")),
      bid: [...node.querySelectorAll(".bid-cards .card")].map((c) => c.getAttribute("data-card")),
    })),
    myBid: [...table.querySelectorAll(".seat.mine .bid-cards .card")].map((c) => c.getAttribute("data-card")),
    trick: [...table.querySelectorAll(".trick .card")].map(card),
    taken: [...table.querySelectorAll(".taken tbody tr")].map((tr) => ({
      tricks: Number(tr.querySelector(".tricks-taken")?.textContent),
      points: Number(tr.querySelector(".points-taken")?.textContent),
    })),
    won: [...table.querySelectorAll(".contracts tbody tr")].map((tr) => ({
      contract: tr.querySelector(".contract")?.textContent,
      won: Number(tr.querySelector(".tricks-won")?.textContent),
    })),
    totals: [...table.querySelectorAll(".totals td")].map((td) => Number(td.textContent)),
    actions: [...table.querySelectorAll(".actions button")].map((b) => ({ action: b.getAttribute("data-action"), disabled: b.disabled, text: b.textContent })),
    live: table.querySelector(".contract-live")?.getAttribute("data-contract") ?? null,
    moon: table.querySelector(".moon")?.getAttribute("data-moon") ?? null,
    // every card code anywhere on the page
    everyCard: [...document.querySelectorAll("[data-card]")].map((n) => n.getAttribute("data-card")).filter(Boolean),
  };
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const sorted = (list) => [...list].sort();

/** The cards this user's view shows at all (nothing else may be on the page). */
function visible(view) {
  const cards = new Set();
  const add = (list) => (list ?? []).forEach((c) => c && cards.add(c));
  view.hands.forEach(add);
  if (HEARTS) {
    add(view.hand);
    add(view.trick.map((p) => p.card));
    view.tricks.forEach((t) => add(t.cards));
    add(view.removed);
    if (view.pass) add([...view.pass.cards, ...(view.pass.received ?? [])]);
    add(view.seen.map((s) => s.card));
  } else {
    view.dealt.forEach(add);
    view.bid_cards.forEach(add);
    add(view.trick.plays.map((p) => p.card));
    view.tricks.forEach((t) => add(t.plays.map((p) => p.card)));
    if (view.last_deal) view.last_deal.bid_cards.forEach(add);
  }
  return cards;
}

/** The differences between what the page shows and the API's view (empty: they agree). */
function compare(shown, view) {
  const faults = [];
  const check = (ok, what) => ok || faults.push(what);
  check(shown.phase === view.phase, `phase ${shown.phase} != ${view.phase}`);
  const me = view.seat;
  const hand = HEARTS ? view.hand : (view.hands[me] ?? []);
  check(same(shown.hand.map((c) => c.card), hand), `hand ${shown.hand.map((c) => c.card)} != ${hand}`);
  for (const c of shown.hand) check(c.label.includes(cardName(c.card)), `hand card labelled "${c.label}"`);
  const others = view.hand_sizes.map((size, seat) => ({ seat, size })).filter((o) => o.seat !== me);
  check(same(shown.others.map((o) => ({ seat: o.seat, size: o.size })), others), `others ${JSON.stringify(shown.others)} != ${JSON.stringify(others)}`);
  for (const o of shown.others) {
    const hidden = view.hands[o.seat] === null;
    if (hidden) check(o.cards.length === o.size && o.cards.every((c) => c === ""), `seat ${o.seat}'s hidden hand shows ${o.cards}`);
    else check(same(o.cards, view.hands[o.seat]), `seat ${o.seat}'s hand ${o.cards} != ${view.hands[o.seat]}`);
  }
  check(same(shown.totals, view.totals), `totals ${shown.totals} != ${view.totals}`);
  const plays = HEARTS ? view.trick : view.trick.plays;
  check(same(shown.trick.map((p) => [p.seat, p.card]), plays.map((p) => [p.seat, p.card])), `trick ${JSON.stringify(shown.trick)} != ${JSON.stringify(plays)}`);
  if (HEARTS) {
    check(shown.heartsBroken === String(view.hearts_broken), `hearts broken ${shown.heartsBroken} != ${view.hearts_broken}`);
    const tricks = view.taken.map((_, seat) => view.tricks.filter((t) => t.winner === seat).length);
    check(same(shown.taken, view.taken.map((points, seat) => ({ tricks: tricks[seat], points }))), `taken ${JSON.stringify(shown.taken)} vs ${view.taken} ${tricks}`);
    const moon = view.last_deal ? (view.last_deal.moon === null ? "" : String(view.last_deal.moon)) : null;
    check(shown.moon === moon, `moon ${shown.moon} != ${moon}`);
  } else {
    check(shown.trumps === (view.trumps ?? ""), `trumps ${shown.trumps} != ${view.trumps}`);
    check(same(shown.won.map((w) => w.won), view.tricks_won), `tricks won ${JSON.stringify(shown.won)} != ${view.tricks_won}`);
    view.contracts.forEach((contract, seat) => {
      const text = shown.won[seat]?.contract ?? "";
      if (contract === null) check(!/^\d/.test(text), `seat ${seat}'s hidden contract shown as ${text}`);
      else check(text.startsWith(`${contract} trick`), `seat ${seat}'s contract ${text} != ${contract}`);
    });
    check(same(shown.myBid, view.bid_cards[me] ?? []), `your bid ${shown.myBid} != ${view.bid_cards[me]}`);
    for (const o of shown.others) check(same(o.bid, view.bid_cards[o.seat] ?? []), `seat ${o.seat}'s bid ${o.bid} != ${view.bid_cards[o.seat]}`);
  }
  if (!shown.busy) {
    // the moves offered are exactly the legal actions
    const legal = view.legal_actions;
    const choose = sorted(shown.hand.filter((c) => c.action === "choose").map((c) => c.card));
    const chooseLegal = sorted([...new Set(legal.flatMap((a) => (a.type === "pass" || a.type === "bid" ? (a.cards ?? []) : [])))]);
    check(same(choose, chooseLegal), `cards to choose ${choose} != ${chooseLegal}`);
    const playOffered = sorted(shown.hand.filter((c) => c.action === "play").map((c) => c.card));
    const playLegal = sorted(legal.filter((a) => a.type === "play").map((a) => a.card));
    check(same(playOffered, playLegal), `cards to play ${playOffered} != ${playLegal}`);
    const buttons = sorted(shown.actions.map((b) => b.action).filter((a) => a !== "hint"));
    const types = sorted([...new Set(legal.filter((a) => a.type !== "play").map((a) => a.type))]);
    check(same(buttons, types), `buttons ${buttons} != legal ${types}`);
    const yourTurn = view.seats_to_act.includes(me) && legal.length > 0;
    check(shown.yourTurn === yourTurn, `your turn ${shown.yourTurn}`);
  }
  // nothing the API hides is shown
  const allowed = visible(view);
  for (const c of shown.everyCard) check(allowed.has(c), `the page shows ${c}, which the view does not`);
  return faults;
}

const browser = await launch();
const summary = { done: false, game, checks: 0, versions: [], moves: [], screenshots: [], shown: {}, live: [], declared: false, hint: null };
try {
  const { page, consoleErrors } = await newPage(browser);
  summary.username = await register(page, base);
  await page.getByLabel("Game", { exact: true }).selectOption(game);
  await page.getByRole("heading", { name: HEARTS ? "New Hearts match" : "New Ninety-Nine match" }).waitFor();
  if (HEARTS) await page.getByLabel("Rules").selectOption("hearts-classic");
  await page.getByLabel("Deals").fill("1");
  await page.getByLabel("Computer opponents").selectOption(HEARTS ? "3" : "2");
  await page.getByLabel("Their level").selectOption("easy");
  await page.getByRole("button", { name: "Start the match" }).click();
  const { matchId, api } = await openedMatch(page, base);
  summary.match = matchId;
  say({ registered: summary.username, match: matchId });

  const table = checker(page, api, matchId, snapshot, compare, summary);
  let midShot = false;
  while (Date.now() < DEADLINE) {
    const read = await table.read();
    if (!read) continue;
    const { shown, view } = read;
    if (view) {
      summary.shown[shown.version] = [...new Set(shown.everyCard)];
      if (!midShot && shown.trick.length >= 2 && (HEARTS ? view.tricks.length >= 3 : view.tricks.length >= 2)) {
        const file = join(shots, `client-${game}.png`);
        await tableShot(page, file);
        summary.screenshots.push(file);
        midShot = true;
      }
    }
    if (shown.phase === "finished") break;
    if (!(await table.ready(shown))) continue;
    const choosing = shown.hand.filter((c) => c.action === "choose");
    let move;
    if (choosing.length) {
      // pick three cards (the contract the page shows must follow each pick), then send
      const picks = choosing.slice(-3).map((c) => c.card);
      for (const [i, card] of picks.entries()) {
        await page.locator(`.hand.mine button.card[data-card="${card}"]`).click();
        await page.waitForFunction((n) => document.querySelectorAll('.hand.mine button[aria-pressed="true"]').length === n, i + 1);
        if (!HEARTS) {
          const live = await page.locator(".contract-live").getAttribute("data-contract");
          const want = picks.slice(0, i + 1).reduce((sum, c) => sum + BID_VALUE[c[1]], 0);
          if (Number(live) !== want) throw new Error(`after ${picks.slice(0, i + 1)} the page shows a contract of ${live}, not ${want}`);
          summary.live.push(Number(live));
        }
      }
      const send = page.locator(`.actions button[data-action="${HEARTS ? "pass" : "bid"}"]`);
      if (await send.isDisabled()) throw new Error(`three legal cards chosen, but the button is disabled`);
      if (!midShot && !HEARTS) {
        const file = join(shots, "client-ninety-nine-bid.png");
        await tableShot(page, file);
        summary.screenshots.push(file);
      }
      if (HEARTS && !summary.screenshots.length) {
        const file = join(shots, "client-hearts-pass.png");
        await tableShot(page, file);
        summary.screenshots.push(file);
      }
      await send.click();
      move = `${HEARTS ? "pass" : "bid"}:${picks.join(" ")}`;
    } else if (shown.actions.some((b) => ["declare", "pass", "reveal"].includes(b.action))) {
      const declare = shown.actions.some((b) => b.action === "declare");
      await page.locator(`.actions button[data-action="${declare ? "declare" : "pass"}"]`).click();
      summary.declared ||= declare;
      move = declare ? "declare" : "pass";
    } else {
      if (!summary.hint && shown.actions.some((b) => b.action === "hint")) {
        await page.getByRole("button", { name: "Hint" }).click();
        await page.locator(".hint:not(:empty)").waitFor();
        summary.hint = await page.locator(".hint:not(:empty)").textContent();
        continue;
      }
      const card = shown.hand.find((c) => c.action === "play");
      if (!card) throw new Error(`your turn, but no card to play: ${JSON.stringify(shown.actions)}`);
      await page.locator(`.hand.mine button.card[data-card="${card.card}"]`).click();
      move = `play:${card.card}`;
    }
    await table.moved(shown, move);
  }

  const final = await table.finished();

  // the whole deal, from the events (whole now that the match is over): no card of
  // another seat's hand was on the page before the view showed it
  const { events } = await api(`/matches/${matchId}/events?after=0`);
  const dealt = events.find((e) => e.type === (HEARTS ? "cards_dealt" : "deal_started"));
  const theirs = new Set(dealt.data.hands.flatMap((hand, seat) => (seat === final.view.seat ? [] : hand)));
  for (const [version, cards] of Object.entries(summary.shown)) {
    const view = await api(`/matches/${matchId}/states/${version}`);
    const allowed = visible(view);
    for (const card of cards) {
      if (theirs.has(card) && !allowed.has(card)) throw new Error(`v${version}: the page showed ${card}, from another seat's hand`);
    }
  }
  summary.hiddenChecked = Object.keys(summary.shown).length;

  const end = join(shots, `client-${game}-end.png`);
  await tableShot(page, end);
  summary.screenshots.push(end);
  const phone = join(shots, `client-${game}-phone.png`);
  await phoneShot(page, phone);
  summary.screenshots.push(phone);
  if (consoleErrors.length) throw new Error(`errors in the page's console:\n${consoleErrors.join("\n")}`);
  publishShots(summary.screenshots, publish);
  delete summary.shown;
  Object.assign(summary, { done: true, version: final.version, totals: final.totals, winners: final.winners });
} finally {
  await browser.close();
  delete summary.shown;
  say(summary);
}
