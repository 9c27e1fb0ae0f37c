// @ts-check
// The Hearts table: your hand (the API sends it in hand order: clubs, diamonds, spades,
// hearts), the others' hand sizes (their cards are never sent, so never shown), passing
// three cards at once, the trick in play, the points taken, the moon, the scores. The
// moves offered are exactly the view's legal actions.

import { cardName } from "./cards.js";
import { Table, cardNode, el, plural } from "./table.js";

/** @typedef {import("./api.js").Schemas["HeartsView"]} HeartsView */
/** @typedef {import("./api.js").Schemas["HeartsAction"]} HeartsAction */
/** @typedef {import("./api.js").GameEvent} GameEvent */

const DIRECTIONS = { left: "to your left", right: "to your right", across: "across the table", hold: "no passing this deal" };
/** The same, for a spectator (no seat: no "your"). */
const EACH_PASSES = { left: "each player passes to the left", right: "each player passes to the right", across: "each player passes across the table", hold: "no passing this deal" };

/** @extends {Table<HeartsAction, HeartsView>} */
export class HeartsTable extends Table {
  /** cards in play order, the leader's first @param {Record<string, any>} data */
  wonPlays(data) {
    const seats = this.view?.players.length ?? 0;
    return data.cards.map((/** @type {string} */ card, /** @type {number} */ i) => ({ seat: (data.leader + i) % seats, card }));
  }

  /** @param {import("./api.js").GameView} view */
  narrow(view) {
    return view.game === "hearts" ? view : null;
  }

  /** passes are chosen by every seat at once @param {HeartsView} view */
  simultaneous(view) {
    return view.phase === "passing";
  }

  /** @param {GameEvent} event @returns {string} */
  describe(event) {
    const data = /** @type {Record<string, any>} */ (event.data);
    const Who = event.seat === null ? "The dealer" : this.seatName(event.seat, true);
    switch (event.type) {
      case "cards_dealt":
        return `Deal ${data.deal} is dealt${data.direction && data.direction !== "hold" ? `: pass three cards ${data.direction}` : ""}.`;
      case "cards_passed":
        return `${Who} chose three cards to pass.`;
      case "passes_exchanged":
        return "The passes were exchanged.";
      case "card_played":
        return `${this.seatName(data.seat, true)} played the ${cardName(data.card)}.`;
      case "trick_won":
        return `${this.seatName(data.winner, true)} took trick ${data.trick}${data.points ? ` (${plural(data.points, "point")})` : ""}.`;
      case "deal_scored":
        return `Deal ${data.deal} is scored${data.moon === null ? "" : `: ${this.seatName(data.moon)} shot the moon`}.`;
      default:
        return super.describe(event);
    }
  }


  /** @param {HeartsView} view */
  prompt(view) {
    const end = this.endText(view);
    if (end) return end;
    if (!this.yourTurn(view)) {
      if (view.phase === "passing" && view.pass) return `You pass the ${view.pass.cards.map(cardName).join(", the ")}. ${this.waitingText(view)}`;
      return this.waitingText(view);
    }
    if (view.phase === "passing") {
      const to = view.pass?.to ?? null;
      const left = 3 - this.chosen.length;
      return left > 0
        ? `Choose ${plural(left, "more card")} to pass ${DIRECTIONS[view.direction]}${to === null ? "" : ` (to ${this.seatName(to)})`}.`
        : "Pass these three cards, or click one to choose another.";
    }
    if (view.legal_actions.some((a) => a.type === "play")) {
      return view.trick.length === 0 ? "Your lead: click a card to play it." : "Your turn: click a card to play it to the trick.";
    }
    return "You may take back your last card.";
  }

  /** Whether the rules count the jack of diamonds (the view says who took it either way). */
  jackCounts() {
    return /** @type {{jack_of_diamonds?: string}} */ (this.detail.rules).jack_of_diamonds === "minus_10";
  }

  render() {
    const view = this.shown();
    if (!view) return;
    const legal = this.legal();
    const me = view.seat;
    const table = this.frame(view, "hearts", "Hearts table", this.dealTitle(view.deal, view.target_score));
    table.dataset.heartsBroken = String(view.hearts_broken);

    const facts = [
      view.phase === "passing" || view.pass ? `Passing: ${(me === null ? EACH_PASSES : DIRECTIONS)[view.direction]}` : "",
      view.hearts_broken ? "Hearts are broken" : "Hearts not broken yet",
      view.removed.length ? `Out of play: ${view.removed.map(cardName).join(", ")}` : "",
      view.jack === null || !this.jackCounts() ? "" : `${this.seatName(view.jack, true)} took the jack of diamonds (−10)`,
    ].filter(Boolean);
    table.append(el("p", { class: "facts" }, [facts.join(" · ")]));

    const play = el("div", { class: "play" });
    const others = el("div", { class: "opponents" });
    view.hand_sizes.forEach((_, seat) => {
      if (seat !== me) others.append(this.opponent(view, seat));
    });
    play.append(others, this.trickArea(view.trick, view.leader, "The trick"));
    const last = view.trick.length === 0 ? view.tricks.at(-1) : undefined;
    if (last) play.append(this.lastTrick(last.cards.map((card, i) => ({ seat: (last.leader + i) % view.players.length, card })), last.winner));
    play.append(...this.previousDealsTrick(view, !last && view.trick.length === 0));
    if (me !== null) play.append(this.myHand(view, me, legal));
    play.append(this.actionBar(view, legal), ...this.promptNodes(this.prompt(view)));
    const side = el("div", { class: "side" }, [this.taken(view), this.dealScores(view), this.moveLog()]);
    table.append(el("div", { class: "table-body" }, [play, side]));
    this.place(table, ".hand.mine button, .actions button");
  }

  /** Another seat: its name, hand size (backs), points taken; its cards once shown.
   * @param {HeartsView} view @param {number} seat */
  opponent(view, seat) {
    const name = this.seatName(seat);
    const size = view.hand_sizes[seat] ?? 0;
    const cards = view.hands[seat] ?? null;
    const chosen = view.phase === "passing" && view.passes_chosen[seat];
    const toAct = view.seats_to_act.includes(seat);
    const block = el("section", {
      class: `seat opponent${toAct ? " to-act" : ""}`,
      "aria-label": `${name}: ${plural(size, "card")}`,
      "data-seat": String(seat),
      "data-hand-size": String(size),
      "data-passed": String(Boolean(chosen)),
    }, [
      el("h3", {}, [
        this.seatName(seat, true),
        el("span", { class: "showing" }, [` · ${plural(size, "card")} · ${plural(view.taken[seat] ?? 0, "point")}`]),
        chosen ? el("span", { class: "to-act-mark" }, [" · has chosen a pass"]) : "",
        toAct ? el("span", { class: "to-act-mark" }, [view.phase === "passing" ? " · choosing a pass" : " · to play"]) : "",
      ]),
    ]);
    const row = el("div", { class: "hand fan", role: "group", "aria-label": `${name}'s hand` });
    if (cards) cards.forEach((card) => row.append(cardNode(card, `${name}: ${cardName(card)}`, { "data-seat": String(seat) })));
    else for (let i = 0; i < size; i += 1) row.append(cardNode(null, `${name}: a card, face down`, { "data-seat": String(seat) }));
    block.append(row);
    // cards an undone play showed you, back in this hand (the view's `seen`: undo never
    // un-sees); which of the backs they are, the view does not say
    const seen = cards ? [] : view.seen.filter((s) => s.seat === seat).map((s) => s.card);
    if (seen.length) block.append(el("p", { class: "seen-cards", "data-seen": seen.join(" ") }, [`Seen before an undo: the ${seen.map(cardName).join(", the ")}.`]));
    return block;
  }

  /** Your hand: the cards to choose (passing) or play, and your pass.
   * @param {HeartsView} view @param {number} me @param {HeartsAction[]} legal */
  myHand(view, me, legal) {
    const toAct = view.seats_to_act.includes(me);
    const block = el("section", { class: `seat mine${toAct ? " to-act" : ""}`, "aria-label": "Your hand", "data-seat": String(me) }, [
      el("h3", {}, ["You", el("span", { class: "showing" }, [` · ${plural(view.taken[me] ?? 0, "point")} taken`])]),
    ]);
    const passable = new Set(legal.flatMap((a) => (a.type === "pass" ? a.cards : [])));
    const hinted = this.hintedCards();
    const row = el("div", { class: "hand mine", role: "group", "aria-label": "Your cards" });
    for (const card of view.hand) {
      const playAction = legal.find((a) => a.type === "play" && a.card === card);
      const attrs = { "data-seat": String(me), class: hinted.includes(card) ? "hinted" : "", "data-focus-key": `card-${card}` };
      if (passable.has(card)) {
        const on = this.chosen.includes(card);
        const node = cardNode(card, `${cardName(card)}: ${on ? "chosen to pass" : "choose to pass"}`, { ...attrs, "data-action": "choose", "aria-pressed": String(on), class: `${attrs.class}${on ? " chosen" : ""}` }, () => this.toggle(card));
        row.append(node);
      } else if (playAction) {
        row.append(cardNode(card, `${cardName(card)}: play it`, { ...attrs, "data-action": "play" }, () => void this.send(playAction)));
      } else {
        row.append(cardNode(card, `your ${cardName(card)}`, attrs));
      }
    }
    block.append(row);
    if (view.pass) {
      const received = view.pass.received;
      const from = view.pass.from;
      block.append(
        el("p", { class: "pass-info", "data-pass": view.pass.cards.join(" "), "data-received": (received ?? []).join(" ") }, [
          `You pass the ${view.pass.cards.map(cardName).join(", the ")} to ${this.seatName(view.pass.to)}.`,
          received ? ` You received the ${received.map(cardName).join(", the ")}${from === null ? "" : ` from ${this.seatName(from)}`}.` : "",
        ]),
      );
    }
    return block;
  }

  /** Pass, undo, hint. @param {HeartsView} view @param {HeartsAction[]} legal */
  actionBar(view, legal) {
    const { bar, add } = this.toolbar();
    if (legal.some((a) => a.type === "pass")) {
      const pass = this.chosenAction("pass");
      const button = add("Pass these three cards", "pass", () => {
        if (pass) void this.send(pass);
      });
      if (!pass) button.setAttribute("disabled", "");
    }
    const undo = legal.find((a) => a.type === "undo");
    if (undo) add("Undo my last card", "undo", () => void this.send(undo));
    if (this.hintOffered(view) && legal.some((a) => a.type !== "undo")) add("Hint", "hint", () => void this.askHint());
    return bar;
  }

  /** Tricks and points taken this deal, and the moon of the last deal. @param {HeartsView} view */
  taken(view) {
    const tricks = view.taken.map((_, seat) => view.tricks.filter((t) => t.winner === seat).length);
    const rows = view.taken.map((points, seat) =>
      el("tr", { "data-seat": String(seat) }, [
        el("th", { scope: "row" }, [this.seatName(seat, true)]),
        el("td", { class: "tricks-taken" }, [String(tricks[seat] ?? 0)]),
        el("td", { class: "points-taken" }, [String(points)]),
      ]),
    );
    const box = el("section", { class: "results taken", "aria-label": "This deal" }, [
      el("table", { class: "scores" }, [
        el("caption", {}, [`Deal ${view.deal}: taken so far`]),
        el("thead", {}, [el("tr", {}, [el("th", { scope: "col" }, ["Seat"]), el("th", { scope: "col" }, ["Tricks"]), el("th", { scope: "col" }, ["Points"])])]),
        el("tbody", {}, rows),
      ]),
    ]);
    const last = view.last_deal;
    if (last) {
      const moon = last.moon === null ? "nobody shot the moon" : `${this.seatName(last.moon)} shot the moon`;
      const jack = last.jack === null ? "" : `; ${this.seatName(last.jack)} took the jack of diamonds`;
      box.append(el("p", { class: "moon", "data-moon": last.moon === null ? "" : String(last.moon) }, [`Deal ${last.deal}: ${moon}${jack}.`]));
    }
    return box;
  }

  /** @param {HeartsView} view */
  dealScores(view) {
    const rows = view.deal_scores.map((scores, deal) => ({ label: String(deal + 1), scores }));
    return this.scores(view, { caption: `Scores (lowest wins; ${this.endsAt(view.target_score)})`, round: "Deal", rows });
  }
}
