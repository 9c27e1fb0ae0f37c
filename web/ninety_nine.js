// @ts-check
// The Ninety-Nine table: choosing three bid cards (the contract they encode shown as you
// pick: a bid card counts by its suit, clubs 3, hearts 2, spades 1, diamonds 0), premium
// bids (pass, declare, reveal) when offered, trumps, the trick, tricks won against
// contracts, the scores. The moves offered are exactly the view's legal actions.

import { cardName } from "./cards.js";
import { Table, capital, cardNode, el, plural } from "./table.js";

/** @typedef {import("./api.js").Schemas["Ninety-NineView"]} NinetyNineView */
/** @typedef {import("./api.js").Schemas["Ninety-NineAction"]} NinetyNineAction */
/** @typedef {import("./api.js").GameEvent} GameEvent */

/** What a bid card counts, by its suit (docs/ninety-nine.md). @type {Record<string, number>} */
export const BID_VALUE = { C: 3, H: 2, S: 1, D: 0 };
/** @type {Record<string, string>} */
const SUIT_NAMES = { C: "clubs", H: "hearts", S: "spades", D: "diamonds" };

/** The contract three bid cards encode. @param {string[]} cards */
export function contractOf(cards) {
  return cards.reduce((sum, card) => sum + (BID_VALUE[card.slice(1)] ?? 0), 0);
}

/** @param {string[]} cards */
function sumText(cards) {
  return cards.map((c) => String(BID_VALUE[c.slice(1)] ?? 0)).join(" + ");
}

/** @extends {Table<NinetyNineAction, NinetyNineView>} */
export class NinetyNineTable extends Table {
  /** @param {ConstructorParameters<typeof Table>} args */
  constructor(...args) {
    super(...args);
    // the contract the bid cards picked make: a live region kept on the page, as the prompt
    this.contractNode = el("p", { class: "contract-live", role: "status" });
  }

  /** plays: [seat, card] in play order @param {Record<string, any>} data */
  wonPlays(data) {
    return data.plays.map((/** @type {[number, string]} */ [seat, card]) => ({ seat, card }));
  }

  /** @param {import("./api.js").GameView} view */
  narrow(view) {
    return view.game === "ninety-nine" ? view : null;
  }

  /** every seat bids at once @param {NinetyNineView} view */
  simultaneous(view) {
    return view.phase === "bidding";
  }

  /** @param {GameEvent} event @returns {string} */
  describe(event) {
    const data = /** @type {Record<string, any>} */ (event.data);
    switch (event.type) {
      case "deal_started":
        return `Deal ${data.deal} is dealt: ${data.trumps ? `${SUIT_NAMES[data.trumps]} are trumps` : "no trumps"}.`;
      case "bid_made":
        return `${this.seatName(data.seat, true)} laid three bid cards aside.`;
      case "premium_called":
        return `${this.seatName(data.seat, true)} ${data.call === "pass" ? "passed" : data.call === "declare" ? "declared" : "revealed"}.`;
      case "premium_shown":
        return `${this.isYou(data.seat) ? "Your" : `${this.seatName(data.seat, true)}'s`} bid is shown: ${plural(data.contract, "trick")}.`;
      case "card_played":
        return `${this.seatName(data.seat, true)} played the ${cardName(data.card)}.`;
      case "trick_won":
        return `${this.seatName(data.winner, true)} won trick ${data.trick}.`;
      case "deal_scored":
        return `Deal ${data.deal} is scored.`;
      default:
        return super.describe(event);
    }
  }


  /** @param {NinetyNineView} view */
  trumpsText(view) {
    return view.trumps ? `${capital(SUIT_NAMES[view.trumps] ?? view.trumps)} are trumps` : "No trumps";
  }

  /** @param {NinetyNineView} view */
  prompt(view) {
    const end = this.endText(view);
    if (end) return end;
    if (!this.yourTurn(view)) return this.waitingText(view);
    if (view.phase === "bidding") {
      const left = 3 - this.chosen.length;
      const so = this.chosen.length ? ` So far: ${sumText(this.chosen)} = ${plural(contractOf(this.chosen), "trick")}.` : "";
      return left > 0
        ? `Choose ${plural(left, "more bid card")} to lay aside (clubs 3, hearts 2, spades 1, diamonds 0).${so}`
        : `Bid ${plural(contractOf(this.chosen), "trick")} with these three cards, or click one to choose another.`;
    }
    if (view.phase === "premium") {
      const calls = new Set(view.legal_actions.map((a) => a.type));
      const offers = [
        calls.has("declare") ? "declare (your bid shown, 30 more)" : "",
        calls.has("reveal") ? "reveal (your hand shown too, 60 more)" : "",
      ].filter(Boolean);
      return `A premium bid? ${capital(offers.join(" or "))}, or pass.`;
    }
    return view.trick.plays.length === 0 ? "Your lead: click a card to play it." : "Your turn: click a card to play it to the trick.";
  }

  render() {
    const view = this.shown();
    if (!view) return;
    const legal = this.legal();
    const me = view.seat;
    const table = this.frame(view, "ninety-nine", "Ninety-Nine table", this.dealTitle(view.deal, view.target_score));
    table.dataset.trumps = view.trumps ?? "";
    const premium = view.premium.seat === null ? "" : `${this.seatName(view.premium.seat, true)} ${view.premium.kind === "reveal" ? "revealed" : "declared"}`;
    const leads = `${this.seatName(view.eldest, true)} ${this.isYou(view.eldest) ? "lead" : "leads"} first`;
    table.append(el("p", { class: "facts" }, [[this.trumpsText(view), leads, premium].filter(Boolean).join(" · ")]));

    const play = el("div", { class: "play" });
    const others = el("div", { class: "opponents" });
    view.hand_sizes.forEach((_, seat) => {
      if (seat !== me) others.append(this.opponent(view, seat));
    });
    play.append(others, this.trickArea(view.trick.plays, view.trick.leader, "The trick"));
    const last = view.trick.plays.length === 0 ? view.tricks.at(-1) : undefined;
    if (last) play.append(this.lastTrick(last.plays, last.winner));
    play.append(...this.previousDealsTrick(view, !last && view.trick.plays.length === 0));
    if (me !== null) play.append(this.myHand(view, me, legal));
    play.append(this.actionBar(view, legal), ...this.promptNodes(this.prompt(view)));
    const side = el("div", { class: "side" }, [this.contracts(view), this.lastDeal(view), this.dealScores(view), this.moveLog()]);
    table.append(el("div", { class: "table-body" }, [play, side]));
    this.place(table, ".hand.mine button, .actions button");
  }

  /** A seat's contract as this page may know it. @param {NinetyNineView} view @param {number} seat */
  contractText(view, seat) {
    const contract = view.contracts[seat];
    if (contract !== null && contract !== undefined) return plural(contract, "trick");
    return view.has_bid[seat] ? "hidden" : "not bid yet";
  }

  /** Another seat: hand size (backs), whether it has bid, its shown bid and revealed hand.
   * @param {NinetyNineView} view @param {number} seat */
  opponent(view, seat) {
    const name = this.seatName(seat);
    const size = view.hand_sizes[seat] ?? 0;
    const cards = view.hands[seat] ?? null;
    const toAct = view.seats_to_act.includes(seat);
    const call = view.premium.calls[seat];
    const block = el("section", {
      class: `seat opponent${toAct ? " to-act" : ""}`,
      "aria-label": `${name}: ${plural(size, "card")}`,
      "data-seat": String(seat),
      "data-hand-size": String(size),
    }, [
      el("h3", {}, [
        this.seatName(seat, true),
        el("span", { class: "showing" }, [` · ${plural(size, "card")} · bid ${this.contractText(view, seat)}${call ? ` · ${call}` : ""}`]),
        toAct ? el("span", { class: "to-act-mark" }, [view.phase === "bidding" ? " · bidding" : view.phase === "premium" ? " · deciding on a premium bid" : " · to play"]) : "",
      ]),
    ]);
    const row = el("div", { class: "hand fan", role: "group", "aria-label": `${name}'s hand` });
    if (cards) cards.forEach((card) => row.append(cardNode(card, `${name}: ${cardName(card)}`, { "data-seat": String(seat) })));
    else for (let i = 0; i < size; i += 1) row.append(cardNode(null, `${name}: a card, face down`, { "data-seat": String(seat) }));
    block.append(row);
    const bid = view.bid_cards[seat];
    if (bid) block.append(this.bidRow(bid, `${name}'s bid cards`, seat));
    return block;
  }

  /**
   * Three bid cards laid aside, under a caption that says whose they are and the contract
   * they make ("Your bid cards: 3 + 2 + 0 = 5 tricks"): without it they read as a second
   * row of the hand.
   * @param {string[]} cards @param {string} label @param {number} seat
   */
  bidRow(cards, label, seat) {
    const caption = `${label}: ${sumText(cards)} = ${plural(contractOf(cards), "trick")}`;
    return el("div", { class: "bid" }, [
      // (the group's label says it to a screen reader: the caption is for the eye)
      el("p", { class: "bid-caption", "aria-hidden": "true" }, [caption]),
      el("div", { class: "hand bid-cards", role: "group", "aria-label": caption }, [
        ...cards.map((card) => cardNode(card, `${label}: ${cardName(card)}`, { "data-seat": String(seat), "data-bid": "true" })),
      ]),
    ]);
  }

  /** Your hand: choosing bid cards, or the cards to play; your bid once laid aside.
   * @param {NinetyNineView} view @param {number} me @param {NinetyNineAction[]} legal */
  myHand(view, me, legal) {
    const toAct = view.seats_to_act.includes(me);
    const block = el("section", { class: `seat mine${toAct ? " to-act" : ""}`, "aria-label": "Your hand", "data-seat": String(me) }, [
      el("h3", {}, ["You", el("span", { class: "showing" }, [` · contract: ${this.contractText(view, me)} · won ${view.tricks_won[me] ?? 0}`])]),
    ]);
    const biddable = new Set(legal.flatMap((a) => (a.type === "bid" ? a.cards : [])));
    const hinted = this.hintedCards();
    const row = el("div", { class: "hand mine", role: "group", "aria-label": "Your cards" });
    for (const card of view.hands[me] ?? []) {
      const playAction = legal.find((a) => a.type === "play" && a.card === card);
      const attrs = { "data-seat": String(me), class: hinted.includes(card) ? "hinted" : "", "data-focus-key": `card-${card}` };
      if (biddable.has(card)) {
        const on = this.chosen.includes(card);
        const value = BID_VALUE[card.slice(1)] ?? 0;
        row.append(cardNode(card, `${cardName(card)}, counts ${value}: ${on ? "chosen as a bid card" : "choose as a bid card"}`, { ...attrs, "data-action": "choose", "aria-pressed": String(on), class: `${attrs.class}${on ? " chosen" : ""}` }, () => this.toggle(card)));
      } else if (playAction) {
        row.append(cardNode(card, `${cardName(card)}: play it`, { ...attrs, "data-action": "play" }, () => void this.send(playAction)));
      } else {
        row.append(cardNode(card, `your ${cardName(card)}`, attrs));
      }
    }
    block.append(row, this.contractLive(view.phase === "bidding" && biddable.size > 0));
    const bid = view.bid_cards[me];
    if (bid) block.append(this.bidRow(bid, "Your bid cards", me));
    return block;
  }

  /** The contract the bid cards picked make, said in the same live region (kept on the page;
   * empty when not choosing). @param {boolean} choosing */
  contractLive(choosing) {
    const node = this.contractNode;
    const text = !choosing ? "" : this.chosen.length ? `Bid cards: ${sumText(this.chosen)} = a contract of ${plural(contractOf(this.chosen), "trick")}` : "No bid cards chosen yet";
    if (node.textContent !== text) node.textContent = text;
    if (choosing) {
      node.dataset.contract = String(contractOf(this.chosen));
      node.dataset.chosen = [...this.chosen].sort().join(" ");
    } else {
      delete node.dataset.contract;
      delete node.dataset.chosen;
    }
    return this.keep(node);
  }

  /** Bid, premium calls, hint. @param {NinetyNineView} view @param {NinetyNineAction[]} legal */
  actionBar(view, legal) {
    const { bar, add } = this.toolbar();
    if (legal.some((a) => a.type === "bid")) {
      const bid = this.chosenAction("bid");
      const button = add(bid ? `Bid ${plural(contractOf(this.chosen), "trick")}` : "Bid", "bid", () => {
        if (bid) void this.send(bid);
      });
      if (!bid) button.setAttribute("disabled", "");
    }
    const hinted = this.hinted?.type;
    for (const [type, text] of /** @type {const} */ ([["declare", "Declare (show my bid)"], ["reveal", "Reveal (show my bid and hand)"], ["pass", "Pass (no premium bid)"]])) {
      const action = legal.find((a) => a.type === type);
      if (action) add(text, type, () => void this.send(action), hinted === type);
    }
    if (this.hintOffered(view)) add("Hint", "hint", () => void this.askHint());
    return bar;
  }

  /** Tricks won against contracts, this deal. @param {NinetyNineView} view */
  contracts(view) {
    const rows = view.tricks_won.map((won, seat) =>
      el("tr", { "data-seat": String(seat) }, [
        el("th", { scope: "row" }, [this.seatName(seat, true)]),
        el("td", { class: "contract" }, [this.contractText(view, seat)]),
        el("td", { class: "tricks-won" }, [String(won)]),
      ]),
    );
    return el("section", { class: "results contracts", "aria-label": "Tricks against contracts" }, [
      el("table", { class: "scores" }, [
        el("caption", {}, [`Deal ${view.deal}: tricks won against contracts`]),
        el("thead", {}, [el("tr", {}, [el("th", { scope: "col" }, ["Seat"]), el("th", { scope: "col" }, ["Bid"]), el("th", { scope: "col" }, ["Won"])])]),
        el("tbody", {}, rows),
      ]),
    ]);
  }

  /** The last deal scored: who made their contract, the points' parts. @param {NinetyNineView} view */
  lastDeal(view) {
    const last = view.last_deal;
    if (!last) return el("span", {});
    const items = last.points.map((p, seat) => {
      const contract = last.contracts[seat];
      const known = contract !== null && contract !== undefined;
      const made = last.made[seat] ? `made ${known ? plural(contract, "trick") : "it"}` : `missed${known ? ` a contract of ${plural(contract, "trick")}` : ""}`;
      const premium = last.premium_seat === seat ? ` (${last.premium === "reveal" ? "revealed" : "declared"})` : "";
      const item = el("li", { "data-seat": String(seat) }, [`${this.seatName(seat, true)}${premium}: ${plural(last.tricks[seat] ?? 0, "trick")}, ${made}; ${p.tricks} + bonus ${p.bonus} + premium ${p.premium} = ${p.total}`]);
      // the bid cards shown at the end of the deal (those who made theirs, the premium bidder)
      const bid = last.bid_cards[seat];
      const whose = this.isYou(seat) ? "Your" : `${this.seatName(seat, true)}'s`;
      if (bid) item.append(this.bidRow(bid, `${whose} bid cards, deal ${last.deal}`, seat));
      return item;
    });
    return el("section", { class: "last-deal", "aria-label": `Deal ${last.deal}` }, [el("h3", {}, [`Deal ${last.deal}`]), el("ul", {}, items)]);
  }

  /** @param {NinetyNineView} view */
  dealScores(view) {
    const rows = view.deal_scores.map((scores, deal) => ({ label: String(deal + 1), scores }));
    return this.scores(view, { caption: `Scores (highest wins; ${this.endsAt(view.target_score)})`, round: "Deal", rows });
  }
}
