// @ts-check
// The Golf table: it draws the view the API sends (face-down cards are null there and
// stay backs here), offers the view's legal actions as buttons and clickable cards, and
// follows the match (table.js), showing each version one by one.

import { cardFace, cardName } from "./cards.js";
import { Table, el, plural, seenText } from "./table.js";

/** @typedef {import("./api.js").GolfView} GolfView */
/** @typedef {import("./api.js").GolfAction} GolfAction */
/** @typedef {import("./api.js").GameEvent} GameEvent */

/**
 * The cards on top of the stock this seat saw before an undo (the view's `stock_seen`, top
 * first: undo never un-sees), in words: "the 9 of hearts next, then the 2 of clubs".
 * @param {string[]} cards
 */
export function stockSeenText(cards) {
  return cards.map((card, i) => `the ${cardName(card)}${i === 0 ? " next" : ""}`).join(", then ");
}

/** @extends {Table<GolfAction, GolfView>} */
export class GolfTable extends Table {
  /** @param {ConstructorParameters<typeof Table>} args */
  constructor(...args) {
    super(...args);
    /** choosing the card to turn up with a discard (rules that flip on discard) */
    this.flipMode = false;
    // the final-turns banner is a live region: made once, kept on the page (see keep),
    // its text changed in place (empty while there are no final turns)
    this.bannerNode = el("p", { class: "banner final-turns", role: "status" });
  }

  /** @param {import("./api.js").GameView} view */
  narrow(view) {
    return view.game === "golf" ? view : null;
  }

  /** during the opening flips every seat acts at once, and so does every human saying it
   * is ready for the next hole (hole_over) @param {GolfView} view */
  simultaneous(view) {
    return view.phase === "flips" || view.phase === "hole_over";
  }

  resetChoice() {
    super.resetChoice();
    this.flipMode = false;
  }

  /** @param {GolfView} view */
  inPlay(view) {
    return view.phase === "flips" || view.phase === "draw" || view.phase === "place";
  }

  /** @param {GameEvent} event @returns {string} */
  describe(event) {
    const Who = event.seat === null ? "The dealer" : this.seatName(event.seat, true);
    switch (event.type) {
      case "card_revealed":
        if (!("position" in event.data)) return "";
        return `${Who} turned up card ${event.data.position + 1}: the ${cardName(event.data.card)}.`;
      case "card_drawn": {
        const from = event.data.source === "stock" ? "the stock" : "the discard pile";
        return `${Who} drew ${event.data.card ? `the ${cardName(event.data.card)}` : "a card"} from ${from}.`;
      }
      case "card_swapped":
        return `${Who} put the ${cardName(event.data.card)} at card ${event.data.position + 1} and discarded the ${cardName(event.data.replaced)}.`;
      case "card_discarded": {
        if (!("flip_position" in event.data)) return "";
        const flip =
          event.data.flip_position === null
            ? ""
            : `, turning up card ${event.data.flip_position + 1} (${cardName(event.data.flip_card)})`;
        return `${Who} discarded the ${cardName(event.data.card)}${flip}.`;
      }
      case "final_turns_began":
        return `${Who} went out: the others have their final turns.`;
      case "hole_dealt":
        return `Hole ${event.data.hole} is dealt.`;
      case "hole_scored":
        return `Hole ${event.data.hole} is over: ${event.data.scores.map((s, i) => `${this.seatName(i)} ${s}`).join(", ")}.`;
      case "stock_reshuffled":
        return "The discard pile was shuffled into a new stock.";
      case "undone":
        return `${Who} took back a turn.`;
      default:
        return super.describe(event);
    }
  }

  /** What the player is asked to do, in words. @param {GolfView} view */
  prompt(view) {
    const legal = view.legal_actions;
    const end = this.endText(view);
    if (end) return end;
    if (!this.seatToAct(view)) return this.waitingText(view);
    if (this.flipMode) return "Choose a face-down card of yours to turn up.";
    switch (view.phase) {
      case "flips":
        return `Turn up ${view.flips_left[view.seat ?? 0] ?? 0} more of your cards: click a face-down card.`;
      case "draw":
        return "Your turn: draw from the stock, or take the top card of the discard pile.";
      case "place":
        return legal.some((a) => a.type === "discard")
          ? `You hold the ${cardName(view.drawn?.card)}: click one of your cards to swap it in, or discard it.`
          : `You hold the ${cardName(view.drawn?.card)}: click one of your cards to swap it in.`;
      case "hole_over":
        return "The hole is over: see the scores, then go on to the next hole.";
      default:
        return "";
    }
  }

  render() {
    const view = this.shown();
    if (!view) return;
    const legal = this.legal();
    const me = view.seat;

    const table = this.frame(view, "golf", "Golf table", `Hole ${view.hole} of ${view.holes}`);

    const final = view.final_turns && this.inPlay(view) ? view.final_turns : null;
    const banner = final ? `Final turns: ${this.seatName(final.finisher)} went out. ${plural(final.turns_left, "turn")} left in this hole.` : "";
    if (this.bannerNode.textContent !== banner) this.bannerNode.textContent = banner;
    table.append(this.keep(this.bannerNode));

    // the others' grids, then the middle (stock, discard, drawn card), then yours
    const play = el("div", { class: "play" });
    const others = el("div", { class: "opponents" });
    view.grids.forEach((_, seat) => {
      if (seat !== me) others.append(this.seatBlock(view, seat, legal));
    });
    play.append(others, this.middle(view, legal));
    if (me !== null) play.append(this.seatBlock(view, me, legal));
    play.append(this.actionBar(view, legal));
    play.append(...this.promptNodes(this.prompt(view)));
    const side = el("div", { class: "side" }, [this.golfScores(view), this.moveLog()]);
    table.append(el("div", { class: "table-body" }, [play, side]));

    this.place(table, ".seat.mine button, .middle button, .actions button");
  }

  /**
   * @param {GolfAction} action
   * @returns {boolean}
   */
  isHinted(action) {
    const hint = this.hinted;
    if (!hint || hint.type !== action.type) return false;
    const a = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (action));
    const h = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (hint));
    return a.position === h.position && (a.flip ?? null) === (h.flip ?? null);
  }

  /**
   * A seat's name, points showing and grid; on your seat, the cards you may click.
   * @param {GolfView} view @param {number} seat @param {GolfAction[]} legal
   */
  seatBlock(view, seat, legal) {
    const mine = seat === view.seat;
    const name = this.seatName(seat);
    const you = this.isYou(seat); // (in a local match your seat too has its player's name)
    const toAct = view.seats_to_act.includes(seat);
    const block = el("section", {
      class: `seat${mine ? " mine" : ""}${toAct ? " to-act" : ""}`,
      "aria-label": you ? "Your grid" : `${name}'s grid`,
      "data-seat": String(seat),
    });
    block.append(
      el("h3", {}, [
        you ? "You" : name,
        el("span", { class: "showing" }, [` · ${this.pointsText(view, seat)}`]),
        toAct ? el("span", { class: "to-act-mark" }, [" · to play"]) : "",
      ]),
    );
    const grid = el("div", { class: "grid", role: "group", "aria-label": you ? "Your cards" : `${name}'s cards` });
    grid.style.setProperty("--cols", String(view.cols));
    const cards = view.grids[seat] ?? [];
    cards.forEach((card, position) => {
      const seen = card === null ? view.seen.find((s) => s.seat === seat && s.position === position) : undefined;
      // the label names the card seen before an undo too: it is the button's whole name
      const label = `${you ? "your card" : `${name}: card`} ${position + 1}, ${cardName(card)}${seen ? ` ${seenText(seen.card)}` : ""}`;
      /** @type {GolfAction | undefined} */
      let action;
      if (mine) {
        action = legal.find((a) =>
          this.flipMode
            ? a.type === "discard" && a.flip === position
            : (a.type === "reveal" || a.type === "swap") && a.position === position,
        );
      }
      const attributes = {
        class: `card${card === null ? " face-down" : ""}${action && this.isHinted(action) ? " hinted" : ""}`,
        "aria-label": label,
        "data-seat": String(seat),
        "data-position": String(position),
        "data-card": card ?? "",
      };
      const face = cardFace(card);
      const node = action
        ? el("button", { ...attributes, type: "button", "data-action": action.type, "data-focus-key": `card-${position}`, "aria-describedby": "prompt" }, [face])
        : el("div", { ...attributes, role: "img" }, [face]);
      if (seen) node.append(el("span", { class: "seen" }, [`(${cardName(seen.card)})`]));
      if (action) {
        const chosen = action;
        node.addEventListener("click", () => void this.send(chosen));
      }
      grid.append(node);
    });
    block.append(grid);
    return block;
  }

  /**
   * A grid's points, beside its seat's name: once the hole is over, its score for the
   * hole; until then its face-up cards' points as they lie (the view's `face_up_totals`,
   * the running figure, not the grid's score: a matched line is counted at full value
   * until the hole is scored), said so.
   * @param {GolfView} view @param {number} seat
   */
  pointsText(view, seat) {
    const scored = this.inPlay(view) ? undefined : view.hole_scores[view.hole - 1]?.[seat];
    if (scored !== undefined) return `this hole: ${plural(scored, "point")}`;
    const showing = `face up: ${plural(view.face_up_totals[seat] ?? 0, "point")}`;
    const lines = /** @type {{lines?: string}} */ (this.detail.rules).lines;
    if (lines === "none") return showing; // (no line matches: they are the grid's points so far)
    return `${showing} (before matched ${lines === "columns" ? "columns" : "lines"})`;
  }

  /** The stock, the discard pile and the card in hand. @param {GolfView} view @param {GolfAction[]} legal */
  middle(view, legal) {
    const middle = el("section", { class: "middle", "aria-label": "Stock and discard pile" });
    const draw = legal.find((a) => a.type === "draw");
    // the cards seen on top of it before an undo are named in its label, as a card seen is on a grid
    const seen = view.stock_seen.length ? stockSeenText(view.stock_seen) : "";
    const stockLabel = `stock, ${plural(view.stock_size, "card")}${seen ? ` (seen before an undo: ${seen})` : ""}${draw ? ": draw a card" : ""}`;
    const stockAttrs = { class: `pile stock${draw && this.isHinted(draw) ? " hinted" : ""}`, "aria-label": stockLabel, "data-stock-size": String(view.stock_size) };
    const stock = draw
      ? el("button", { ...stockAttrs, type: "button", "data-action": "draw", "data-focus-key": "stock" }, [cardFace(null)])
      : el("div", { ...stockAttrs, role: "img" }, [cardFace(null)]);
    if (draw) stock.addEventListener("click", () => void this.send(draw));

    const take = legal.find((a) => a.type === "take_discard");
    const top = view.discard_top;
    const discardLabel = top ? `discard pile, ${cardName(top)} on top${take ? ": take it" : ""}` : "discard pile, empty";
    const discardAttrs = { class: `pile discard${take && this.isHinted(take) ? " hinted" : ""}${top ? "" : " empty"}`, "aria-label": discardLabel, "data-card": top ?? "" };
    const discard = take
      ? el("button", { ...discardAttrs, type: "button", "data-action": "take_discard", "data-focus-key": "discard" }, [cardFace(top)])
      : el("div", { ...discardAttrs, role: "img" }, top ? [cardFace(top)] : []);
    if (take) discard.addEventListener("click", () => void this.send(take));

    const stockCaption = el("figcaption", {}, [`Stock (${view.stock_size})`]);
    if (seen) stockCaption.append(el("span", { class: "seen-cards stock-seen", "data-seen": view.stock_seen.join(" ") }, [`Seen before an undo: ${seen}.`]));
    middle.append(
      el("figure", {}, [stock, stockCaption]),
      el("figure", {}, [discard, el("figcaption", {}, ["Discard"])]),
    );
    if (view.drawn) {
      const who = this.seatName(view.drawn.seat);
      const card = view.drawn.card;
      const you = this.isYou(view.drawn.seat);
      const label = `${you ? "your" : `${who}'s`} drawn card, ${card ? cardName(card) : "hidden"}`;
      middle.append(
        el("figure", { class: "drawn" }, [
          el("div", { class: "pile drawn-card", role: "img", "aria-label": label, "data-card": card ?? "", "data-seat": String(view.drawn.seat) }, [cardFace(card)]),
          el("figcaption", {}, [you ? "In your hand" : `${who} holds`]),
        ]),
      );
    }
    return middle;
  }

  /** Discard, undo, next hole, hint. @param {GolfView} view @param {GolfAction[]} legal */
  actionBar(view, legal) {
    const { bar, add: button } = this.toolbar();
    const discards = legal.filter((a) => a.type === "discard");
    const plain = discards.find((a) => a.type === "discard" && (a.flip ?? null) === null);
    if (plain) button(`Discard the ${cardName(view.drawn?.card)}`, "discard", () => void this.send(plain), this.isHinted(plain));
    if (discards.some((a) => a.type === "discard" && (a.flip ?? null) !== null)) {
      button(this.flipMode ? "Cancel" : "Discard and turn up a card…", "discard-flip", () => {
        this.flipMode = !this.flipMode;
        this.render();
      });
    }
    const undo = legal.find((a) => a.type === "undo");
    if (undo) button("Undo my last turn", "undo", () => void this.send(undo));
    const next = legal.find((a) => a.type === "next");
    if (next) button("Next hole", "next", () => void this.send(next));
    const mine = view.seat !== null && view.seats_to_act.includes(view.seat);
    if (this.detail.hints_enabled && mine && legal.length > 0 && legal.some((a) => a.type !== "next")) {
      button("Hint", "hint", () => void this.askHint());
    }
    return bar;
  }

  /** Hole results, totals and, at the end, the winners. @param {GolfView} view */
  golfScores(view) {
    const rows = view.hole_scores.map((scores, hole) => {
      const out = view.hole_finishers[hole];
      return { label: `${hole + 1}${out === null || out === undefined ? "" : ` (${this.seatName(out)} went out)`}`, scores };
    });
    return this.scores(view, { caption: "Scores (lowest wins)", round: "Hole", rows });
  }
}
