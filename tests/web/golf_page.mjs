// What a Golf table shows (read in the page) and its differences from the API's view for
// the page's user at that version: shared by the Golf browser tests.
import { cardName } from "./harness.mjs";

/** Everything the table shows, read in one go (so a re-render cannot split it). */
export function snapshot() {
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
    banner: table.querySelector(".final-turns")?.textContent || null, // (kept on the page, empty while none)
    totals: [...table.querySelectorAll(".totals td")].map((td) => Number(td.textContent)),
    actions,
    prompt: table.querySelector(".prompt")?.textContent ?? "",
  };
}

/**
 * The differences between what the page shows and the API's view (empty: they agree). In a
 * `local` match every seat here is a human's, named "Player 2" on its turn too.
 */
export function compare(shown, view, { local = false } = {}) {
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
    // a card face down again after an undo, which this seat saw before it, is named too
    const seen = want.card === null ? view.seen.find((s) => s.seat === want.seat && s.position === want.position) : undefined;
    const suffix = `card ${want.position + 1}, ${cardName(want.card)}${seen ? ` (seen before an undo: ${cardName(seen.card)})` : ""}`;
    check(got.card === (want.card ?? ""), `seat ${want.seat} card ${want.position}: ${got.card} != ${want.card}`);
    check(got.label.endsWith(suffix), `label "${got.label}" does not end with "${suffix}"`);
    const named = local ? `Player ${want.seat + 1}: ${suffix}` : want.seat === view.seat ? `your ${suffix}` : null;
    if (named) check(got.label === named, `label "${got.label}" is not "${named}"`);
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
    if (!cell.card) check(/face down( \(seen before an undo: [^)]+\))?$/.test(cell.label), `hidden cell labelled ${cell.label}`);
  }
  return faults;
}

/**
 * The move the browser tests play at a table the page shows (`shown`, its snapshot): the
 * locator to click and the move's name. In the flips and after a draw, the first
 * face-down card offered (the hole ends sooner), else the first card offered, else
 * discard; draw from the stock; else the first action offered but a hint.
 */
export function plainMove(page, shown) {
  if (shown.phase === "flips" || shown.phase === "place") {
    const cell = shown.cards.find((c) => c.action && !c.card) ?? shown.cards.find((c) => c.action);
    if (cell) return { target: page.locator(`.seat.mine button.card[data-position="${cell.position}"]`), move: `${cell.action}:${cell.position}` };
    return { target: page.locator('.actions button[data-action="discard"]'), move: "discard" };
  }
  if (shown.phase === "draw") return { target: page.getByRole("button", { name: /^stock, \d+ cards?: draw a card$/ }), move: "draw" };
  const action = shown.actions.find((a) => a !== "hint");
  return { target: page.locator(`.actions button[data-action="${action}"]`), move: action };
}
