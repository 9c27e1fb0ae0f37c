// @ts-check
// Checking an ended match's deals in the browser, from the seed the API reveals at the end
// (GET /api/matches/{id}/audit): SHA-256(seed) must be the commitment published at the
// start, and the seed must give every deal (and every Golf reshuffle) the log records.
// The algorithm is docs/dealing.md's (cards/shuffle.py; the deals of golf/dealing.py,
// hearts/dealing.py and ninety_nine/pack.py), here with Web Crypto's HMAC-SHA256.

import * as api from "./api.js";
import { el, plural } from "./table.js";

/** @typedef {api.Audit} Audit */
/** @typedef {{ok: boolean, checked: number, text: string, mismatch: string | null}} Verdict */

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const SUITS = ["S", "H", "D", "C"];
const WORD = 2 ** 32;

/** The canonical deck (cards/deck.py build_deck): S H D C, ace to king, then XR XB.
 * @param {number} decks @param {boolean} jokers @returns {string[]} */
export function buildDeck(decks, jokers) {
  const one = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));
  if (jokers) one.push("XR", "XB");
  return Array.from({ length: decks }, () => one).flat();
}

/** @param {string} hex @returns {Uint8Array<ArrayBuffer>} */
export function fromHex(hex) {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) throw new Error("the seed is not hexadecimal");
  const bytes = new Uint8Array(new ArrayBuffer(hex.length / 2));
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** @param {ArrayBuffer} buffer */
function toHex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 of the seed, in lowercase hex: the commitment. @param {Uint8Array<ArrayBuffer>} seed */
export async function commitmentOf(seed) {
  return toHex(await crypto.subtle.digest("SHA-256", seed));
}

/**
 * The label of Golf's reshuffle of ``pile`` (golf/dealing.py reshuffle_label): with the
 * pile's digest, unless the match began before its match_started named its reshuffles.
 * @param {Record<string, any>} started @param {Record<string, any>} data @param {string[]} pile
 */
async function reshuffleLabel(started, data, pile) {
  const label = `golf/reshuffle/${data.hole}/${data.count}`;
  if (started.reshuffle !== "pile") return label;
  const digest = toHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(pile.join(" "))));
  return `${label}/${digest.slice(0, 16)}`;
}

/** The HMAC key of a seed. @param {Uint8Array<ArrayBuffer>} seed */
export function seedKey(seed) {
  return crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/**
 * Fisher-Yates driven by the stream HMAC(seed, label ":" counter), big-endian 32-bit words,
 * rejection sampling against modulo bias (cards/shuffle.py shuffle_cards).
 * @template T @param {CryptoKey} key @param {string} label @param {T[]} items @returns {Promise<T[]>}
 */
export async function shuffle(key, label, items) {
  const result = [...items];
  const encoder = new TextEncoder();
  let counter = 0;
  /** @type {number[]} */
  let words = [];
  const next = async () => {
    if (words.length === 0) {
      const block = new DataView(await crypto.subtle.sign("HMAC", key, encoder.encode(`${label}:${counter}`)));
      counter += 1;
      words = Array.from({ length: 8 }, (_, i) => block.getUint32(4 * i, false));
    }
    return /** @type {number} */ (words.shift());
  };
  for (let i = result.length - 1; i > 0; i -= 1) {
    const bound = i + 1;
    const limit = WORD - (WORD % bound);
    let w = await next();
    while (w >= limit) w = await next();
    const j = w % bound;
    [result[i], result[j]] = [/** @type {T} */ (result[j]), /** @type {T} */ (result[i])];
  }
  return result;
}

/** Where two lists first differ, in words, or null. @param {string} what
 * @param {(string | null)[]} expected @param {(string | null)[]} logged */
function firstDifference(what, expected, logged) {
  const length = Math.max(expected.length, logged.length);
  for (let i = 0; i < length; i += 1) {
    if (expected[i] !== logged[i]) {
      return `${what}, card ${i + 1}: the seed deals ${expected[i] ?? "nothing"}, the log shows ${logged[i] ?? "nothing"}`;
    }
  }
  return null;
}

/** A hand as a set, in the deck's order (the games sort hands their own way).
 * @param {(string | null)[]} hand */
function canonical(hand) {
  const order = buildDeck(1, true);
  return [...hand].sort((a, b) => order.indexOf(a ?? "") - order.indexOf(b ?? ""));
}

/**
 * Every game's event types, each with its newest schema version (an older one is as the
 * service wrote it then: the fields read here are the same). tests/web/test_verify_node.py
 * keeps this equal to the games' own.
 */
export const EVENT_VERSIONS = {
  bid_made: 1, card_discarded: 1, card_drawn: 1, card_played: 1, card_revealed: 1, card_swapped: 1,
  cards_dealt: 1, cards_passed: 1, deal_scored: 1, deal_started: 1, final_turns_began: 1,
  hole_acknowledged: 1, hole_dealt: 1, hole_scored: 1, match_aborted: 1, match_finished: 1,
  match_started: 2, passes_exchanged: 1, premium_called: 1, premium_shown: 1,
  seat_handed_over: 1, seat_taken: 1, stock_reshuffled: 1, trick_won: 1, undone: 1,
};
/** Each game's deal event, the field numbering its deals, and its round's scoring event. */
const DEALS = { hole_dealt: ["hole", "hole_scored"], cards_dealt: ["deal", "deal_scored"], deal_started: ["deal", "deal_scored"] };

/**
 * Why the log is not one the games could have written, in the parts the deals are read
 * from (null when it is): it begins with match_started; every event is of a known type
 * and version; every seed it names is the one revealed; the deals are numbered 1, 2, 3…
 * once each, each with a hand or grid per player, and all scored once the match has
 * finished.
 * @param {{seq: number, type: string, version: number, data: Record<string, any>}[]} events
 * @param {string} seed
 */
function malformed(events, seed) {
  const first = events[0];
  if (first?.type !== "match_started") return `the log begins with ${first?.type ?? "nothing"}, not match_started`;
  const players = Array.isArray(first.data.players) ? first.data.players.length : 0;
  let deals = 0;
  let scored = 0;
  for (const { seq, type, version, data } of events) {
    const newest = /** @type {Record<string, number>} */ (EVENT_VERSIONS)[type];
    if (newest === undefined) return `event ${seq} is of a type no game writes (${type})`;
    if (!Number.isInteger(version) || version < 1 || version > newest) return `event ${seq} (${type}) is of version ${version}, which this page cannot read`;
    if (type === "match_started" && seq !== 1) return `event ${seq} is a second match_started`;
    if ("seed" in data && data.seed !== null && data.seed !== seed) return `event ${seq} (${type}) names another seed than the one revealed`;
    const deal = /** @type {Record<string, string[]>} */ (DEALS)[type];
    if (deal) {
      const [field] = deal;
      deals += 1;
      if (data[field ?? ""] !== deals) return `event ${seq} deals ${field} ${data[field ?? ""]}, where ${field} ${deals} comes next`;
      const hands = type === "hole_dealt" ? data.grids : data.hands;
      if (!Array.isArray(hands) || hands.length !== players) return `event ${seq} deals to ${Array.isArray(hands) ? hands.length : 0} seats, the match has ${players}`;
    }
    if (type === "hole_scored" || type === "deal_scored") scored += 1;
  }
  // every deal scored once the match is over; one still being played before (or cut
  // short by an abort)
  const finished = events[events.length - 1]?.type === "match_finished";
  if (deals === 0) return "the log has no deal";
  const unscored = deals - scored;
  if (unscored < 0 || unscored > (finished ? 0 : 1)) return `the log deals ${plural(deals, "time")} and scores ${scored}`;
  return null;
}

/** @param {Record<string, any>} data */
function rulesOf(data) {
  return /** @type {Record<string, any>} */ (data.rules ?? {});
}

/**
 * Why an audit record is not the match's whole log, sound (null when it is): the faults
 * the service found in its hash chain, fewer (or more) events than the match's version,
 * events out of sequence.
 * @param {Audit} audit @returns {string | null}
 */
function incomplete(audit) {
  const faults = audit.chain_faults ?? [];
  if (faults.length) return `the log's hash chain is broken (${faults.join("; ")})`;
  const events = audit.events.length;
  if (events !== audit.version) return `the record holds ${plural(events, "event")}, the match's log ${plural(audit.version, "event")}`;
  const stray = audit.events.findIndex((e, i) => e.seq !== i + 1);
  if (stray >= 0) return `event ${stray + 1} of the record is numbered ${audit.events[stray]?.seq}`;
  return null;
}

/**
 * Recomputes every deal of an ended match from its audit record; the first mismatch.
 * @param {Audit} audit @returns {Promise<Verdict>}
 */
export async function verifyAudit(audit) {
  /** @param {string} mismatch @param {number} checked @returns {Verdict} */
  const fail = (mismatch, checked) => ({ ok: false, checked, mismatch, text: `Mismatch: ${mismatch}.` });
  // deals recomputed from part of the log, or from a log whose chain the service itself
  // finds broken, prove nothing about the match: the record must be whole and sound first
  const unsound = incomplete(audit);
  if (unsound) return fail(unsound, 0);
  if (!audit.seed) return fail("the seed is not revealed", 0);
  const seed = fromHex(audit.seed);
  const commitment = await commitmentOf(seed);
  if (commitment !== audit.seed_commitment) {
    return fail(`SHA-256 of the seed is ${commitment}, the commitment published at the start is ${audit.seed_commitment}`, 0);
  }
  const key = await seedKey(seed);
  const events = audit.events.map((e) => ({ seq: e.seq, type: e.type, version: e.schema_version, data: /** @type {Record<string, any>} */ (e.data) }));
  const odd = malformed(events, audit.seed);
  if (odd) return fail(odd, 0);
  const started = events[0];
  if (!started) return fail("the log has no match_started", 0);
  if (started.data.commitment !== audit.seed_commitment) return fail("match_started names another commitment", 0);
  const players = started.data.players.length;
  const rules = rulesOf(started.data);
  let checked = 0;
  // Golf's discard pile after each event (kept to check reshuffles; an undo takes events back)
  /** @type {string[][]} */
  const piles = [[]];
  for (const { seq, type, data } of events) {
    let mismatch = null;
    const pile = [.../** @type {string[]} */ (piles[piles.length - 1])];
    if (type === "hole_dealt") {
      const [rows, cols] = String(rules.grid).split("x").map(Number);
      const cells = (rows ?? 0) * (cols ?? 0);
      const decks = typeof rules.decks === "number" ? rules.decks : players * cells <= 27 ? 1 : 2;
      const deck = await shuffle(key, `golf/deal/${data.hole}`, buildDeck(decks, Boolean(rules.jokers)));
      const dealer = (((data.hole - 2) % players) + players) % players;
      /** @type {string[][]} */
      const grids = Array.from({ length: players }, () => []);
      let k = 0;
      for (let position = 0; position < cells; position += 1) {
        for (let offset = 1; offset <= players; offset += 1) grids[(dealer + offset) % players]?.push(/** @type {string} */ (deck[k++]));
      }
      if (data.dealer !== dealer) mismatch = `hole ${data.hole}: the dealer is seat ${dealer + 1}, the log says seat ${data.dealer + 1}`;
      for (let s = 0; s < players && !mismatch; s += 1) {
        mismatch = firstDifference(`hole ${data.hole}, seat ${s + 1}'s grid`, grids[s] ?? [], data.grids[s] ?? []);
      }
      mismatch ??= firstDifference(`hole ${data.hole}, the discard pile`, [deck[k] ?? null], [data.discard]);
      mismatch ??= firstDifference(`hole ${data.hole}, the stock`, deck.slice(k + 1), data.stock ?? []);
      pile.splice(0, pile.length, data.discard);
      checked += 1;
    } else if (type === "stock_reshuffled") {
      const top = pile[pile.length - 1];
      const under = pile.slice(0, -1);
      const stock = await shuffle(key, await reshuffleLabel(started.data, data, under), under);
      mismatch = firstDifference(`hole ${data.hole}, reshuffle ${data.count + 1}`, stock, data.stock ?? []);
      pile.splice(0, pile.length, ...(top ? [top] : []));
      checked += 1;
    } else if (type === "card_drawn" && data.source === "discard") pile.pop();
    else if (type === "card_swapped") pile.push(data.replaced);
    else if (type === "card_discarded") pile.push(data.card);
    else if (type === "cards_dealt") {
      const removed = players === 3 ? ["2D"] : players === 5 ? ["2D", "2C"] : [];
      const deck = await shuffle(key, `hearts/deal/${data.deal}`, buildDeck(1, false).filter((c) => !removed.includes(c)));
      const dealer = (data.deal - 1) % players;
      if (data.dealer !== dealer) mismatch = `deal ${data.deal}: the dealer is seat ${dealer + 1}, the log says seat ${data.dealer + 1}`;
      mismatch ??= firstDifference(`deal ${data.deal}, the cards taken out`, removed, data.removed);
      for (let s = 0; s < players && !mismatch; s += 1) {
        const hand = deck.filter((_, i) => (i + dealer + 1) % players === s);
        mismatch = firstDifference(`deal ${data.deal}, seat ${s + 1}'s hand`, canonical(hand), canonical(data.hands[s] ?? []));
      }
      checked += 1;
    } else if (type === "deal_started") {
      const pack = buildDeck(1, false).filter((c) => "6789TJQKA".includes(c[0] ?? ""));
      const deck = await shuffle(key, `ninety-nine/deal/${data.deal}`, pack);
      const dealer = (data.deal - 1) % players;
      if (data.dealer !== dealer) mismatch = `deal ${data.deal}: the dealer is seat ${dealer + 1}, the log says seat ${data.dealer + 1}`;
      for (let s = 0; s < players && !mismatch; s += 1) {
        const hand = deck.filter((_, i) => (dealer + 1 + i) % players === s);
        mismatch = firstDifference(`deal ${data.deal}, seat ${s + 1}'s hand`, canonical(hand), canonical(data.hands[s] ?? []));
      }
      checked += 1;
    }
    if (mismatch) return fail(`${mismatch} (event ${seq})`, checked);
    if (type === "undone") {
      piles.splice(piles.length - data.events, data.events);
      pile.splice(0, pile.length, ...(piles[piles.length - 1] ?? []));
    }
    piles.push(pile);
  }
  if (checked === 0) return fail("the log has no deal", 0);
  const reshuffles = events.filter((e) => e.type === "stock_reshuffled").length;
  const deals = checked - reshuffles;
  const what = `${deals === 1 ? "the deal" : `all ${deals} deals`}${reshuffles ? ` and ${reshuffles === 1 ? "the reshuffle" : `all ${reshuffles} reshuffles`}` : ""}`;
  return { ok: true, checked, mismatch: null, text: `Verified: SHA-256 of the revealed seed is the commitment published at the start, and the seed gives ${what} in the log.` };
}

/**
 * The verification of an ended match on the page: fetches its audit record, recomputes the
 * deals, and says "Verified" or shows the first mismatch (data-verdict: checking, verified,
 * mismatch, error).
 * A 401 goes to `onLoggedOut`, as the rest of the page's do; any other failure is said, with
 * a button to check again.
 * @param {HTMLElement} box @param {string} matchId
 * @param {(error: api.ApiError) => void} [onLoggedOut]
 */
export async function showVerification(box, matchId, onLoggedOut) {
  box.hidden = false;
  box.setAttribute("data-verdict", "checking");
  const status = el("p", { class: "verdict", role: "status" }, ["Checking the deal against the revealed seed…"]);
  box.replaceChildren(el("h2", {}, ["Was the deal fair?"]), status);
  try {
    const record = await api.audit(matchId);
    const verdict = await verifyAudit(record);
    box.setAttribute("data-verdict", verdict.ok ? "verified" : "mismatch");
    status.textContent = verdict.text;
    box.append(
      el("dl", { class: "seed" }, [
        el("dt", {}, ["Seed"]),
        el("dd", {}, [el("code", {}, [record.seed ?? "not revealed"])]),
        el("dt", {}, ["Commitment (SHA-256 of the seed, public from the start)"]),
        el("dd", {}, [el("code", {}, [record.seed_commitment])]),
      ]),
      el("p", { class: "how" }, ["Recomputed in this browser with HMAC-SHA256, as docs/dealing.md specifies."]),
    );
  } catch (error) {
    box.setAttribute("data-verdict", "error");
    status.textContent = `The deal could not be checked: ${error instanceof api.ApiError ? error.readable : String(error)}`;
    if (error instanceof api.ApiError && error.status === 401 && onLoggedOut) {
      onLoggedOut(error);
      return;
    }
    const again = el("button", { type: "button" }, ["Check again"]);
    again.addEventListener("click", () => void showVerification(box, matchId, onLoggedOut));
    box.append(again);
  }
}
