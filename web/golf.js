// @ts-check
// The Golf table: it draws the view the API sends (face-down cards are null there and
// stay backs here), offers the view's legal actions as buttons and clickable cards, and
// follows the match by long-polling its events, showing each version one by one.

import * as api from "./api.js";
import { cardFace, cardName } from "./cards.js";

/** @typedef {api.GolfView} GolfView */
/** @typedef {api.GolfAction} GolfAction */
/** @typedef {api.MatchDetail} MatchDetail */
/** @typedef {api.GameEvent} GameEvent */

/** Pause between two versions shown in a row (COM moves, one by one), in ms. */
const PACE_MS = 300;

/** @param {number} ms @param {AbortSignal} signal @returns {Promise<void>} */
function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string>} [attributes]
 * @param {(Node | string)[]} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") node.className = value;
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

/** A Golf view, or null when the view is another game's.
 * @param {api.GameView} view @returns {GolfView | null} */
export function asGolf(view) {
  return view.game === "golf" ? view : null;
}

/** @param {unknown} error @returns {boolean} */
function isAbort(error) {
  return error instanceof DOMException && error.name === "AbortError";
}

export class GolfTable {
  /**
   * @param {HTMLElement} root
   * @param {MatchDetail} detail the match (its seats, rules, hints); the view comes from states/
   * @param {(message: string) => void} showError
   */
  constructor(root, detail, showError) {
    this.root = root;
    this.detail = detail;
    this.showError = showError;
    /** @type {GolfView | null} */
    this.view = null;
    this.version = 0;
    this.busy = false;
    /** choosing the card to turn up with a discard (rules that flip on discard) */
    this.flipMode = false;
    /** @type {string[]} */
    this.log = [];
    /** @type {GolfAction | null} */
    this.hinted = null;
    this.hintText = "";
    this.connection = "live";
    this.abort = new AbortController();
  }

  /** Loads the view at the match's version, then follows the match. */
  async start() {
    const view = asGolf(await api.stateAt(this.detail.id, this.detail.version, this.abort.signal));
    if (!view) throw new Error("this table shows Golf matches only");
    this.show(view);
    void this.follow();
  }

  stop() {
    this.abort.abort();
  }

  /** Long-polls the log and shows every new version in turn; reconnects after a loss. */
  async follow() {
    const signal = this.abort.signal;
    let failures = 0;
    while (!signal.aborted && this.view && !this.ended(this.view)) {
      try {
        const page = await api.events(this.detail.id, { after: this.version, wait: 25 }, signal);
        if (failures) this.setConnection("live");
        failures = 0;
        for (const event of page.events) {
          if (signal.aborted) return;
          if (event.seq <= this.version) continue; // already shown (our own action's answer)
          const view = asGolf(await api.stateAt(this.detail.id, event.seq, signal));
          if (!view || event.seq <= this.version) continue;
          this.record(event);
          this.show(view);
          if (event.seq < page.version) await sleep(PACE_MS, signal);
        }
      } catch (error) {
        if (isAbort(error) || signal.aborted) return;
        failures += 1;
        this.setConnection("reconnecting");
        await sleep(Math.min(1000 * 2 ** failures, 15000), signal);
      }
    }
  }

  /** @param {string} state */
  setConnection(state) {
    this.connection = state;
    const node = this.root.querySelector(".connection");
    if (node) node.textContent = state === "live" ? "" : "Connection lost: reconnecting…";
  }

  /** @param {GolfView} view */
  inPlay(view) {
    return view.phase === "flips" || view.phase === "draw" || view.phase === "place";
  }

  /** @param {GolfView} view */
  ended(view) {
    return view.phase === "finished" || view.phase === "aborted";
  }

  /** @param {number} seat */
  seatName(seat) {
    const info = this.detail.seats[seat];
    if (seat === this.view?.seat) return "you";
    if (!info) return `seat ${seat + 1}`;
    if (info.kind === "com") return `COM ${seat} (${info.com_level ?? "com"})`;
    return info.username ?? `seat ${seat + 1}`;
  }

  /** @param {GameEvent} event */
  record(event) {
    const line = this.describe(event);
    if (!line) return;
    this.log = [...this.log, line].slice(-8);
  }

  /** @param {GameEvent} event @returns {string} */
  describe(event) {
    const who = event.seat === null ? "The dealer" : this.seatName(event.seat);
    const Who = who.charAt(0).toUpperCase() + who.slice(1);
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
      case "match_finished":
        return "The match is over.";
      case "match_aborted":
        return "The match was stopped.";
      default:
        return "";
    }
  }

  /** @returns {GolfAction[]} */
  legal() {
    return this.view && !this.busy ? this.view.legal_actions : [];
  }

  /**
   * Sends an action, and shows the view the API answers with.
   * @param {GolfAction} action
   */
  async send(action) {
    const view = this.view;
    if (!view || this.busy) return;
    this.busy = true;
    this.flipMode = false;
    this.hinted = null;
    this.hintText = "";
    this.render();
    try {
      // during the opening flips every seat acts at once: a flip is valid whatever the
      // others did, so it goes without If-Match; any other move names the version it saw
      const version = view.phase === "flips" ? null : this.version;
      const result = await api.act(this.detail.id, action, version);
      const next = asGolf(result.view);
      this.busy = false;
      if (next && result.version > this.version) {
        for (const event of result.events) this.record(event);
        this.show(next);
      } else this.render();
    } catch (error) {
      this.busy = false;
      if (error instanceof api.ApiError) {
        const stale = error.problem?.code === "precondition_failed" || error.problem?.code === "version_conflict";
        this.showError(stale ? "The table moved on before your move arrived: here it is again." : error.readable);
        if (stale && error.problem?.current_version) await this.reload(error.problem.current_version);
        else this.render();
      } else throw error;
    }
  }

  /** @param {number} version */
  async reload(version) {
    const view = asGolf(await api.stateAt(this.detail.id, version, this.abort.signal));
    if (view && version >= this.version) this.show(view);
  }

  async askHint() {
    try {
      const hint = await api.hint(this.detail.id);
      // a Golf match's hint is one of its legal actions, a Golf action
      this.hinted = /** @type {GolfAction} */ (hint.action);
      this.hintText = hint.reason;
      this.render();
    } catch (error) {
      if (error instanceof api.ApiError) this.showError(error.readable);
      else throw error;
    }
  }

  /** @param {GolfView} view */
  show(view) {
    this.view = view;
    this.version = view.version;
    this.render();
  }

  /** What the player is asked to do, in words. @param {GolfView} view */
  prompt(view) {
    const legal = view.legal_actions;
    const mine = view.seat !== null && view.seats_to_act.includes(view.seat);
    if (view.phase === "finished") {
      const names = view.winners.map((s) => this.seatName(s));
      const youWon = view.seat !== null && view.winners.includes(view.seat);
      return youWon ? (names.length > 1 ? `You tie for the win with ${names.filter((n) => n !== "you").join(", ")}!` : "You win!") : `The match is over: ${names.join(" and ")} won.`;
    }
    if (view.phase === "aborted") return `The match was stopped${view.end_reason ? `: ${view.end_reason}` : ""}.`;
    if (!mine || legal.length === 0) {
      const waiting = view.seats_to_act.map((s) => this.seatName(s));
      return waiting.length ? `Waiting for ${waiting.join(", ")}…` : "Waiting…";
    }
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
    const view = this.view;
    if (!view) return;
    const legal = this.legal();
    const me = view.seat;
    const yourTurn = me !== null && view.seats_to_act.includes(me) && view.legal_actions.length > 0;

    const table = el("section", {
      class: "golf-table",
      "aria-label": "Golf table",
      "data-version": String(view.version),
      "data-phase": view.phase,
      "data-your-turn": String(yourTurn && !this.busy),
      "data-busy": String(this.busy),
    });

    table.append(
      el("header", { class: "table-head" }, [
        el("h2", {}, [`Hole ${view.hole} of ${view.holes}`]),
        el("span", { class: "version" }, [`move ${view.version}`]),
        el("span", { class: "connection", role: "status" }, [
          this.connection === "live" ? "" : "Connection lost: reconnecting…",
        ]),
      ]),
    );

    if (view.final_turns && this.inPlay(view)) {
      const who = this.seatName(view.final_turns.finisher);
      table.append(
        el("p", { class: "banner final-turns", role: "status" }, [
          `Final turns: ${who} went out. ${view.final_turns.turns_left} turn${view.final_turns.turns_left === 1 ? "" : "s"} left in this hole.`,
        ]),
      );
    }

    // the others' grids, then the middle (stock, discard, drawn card), then yours
    const play = el("div", { class: "play" });
    const others = el("div", { class: "opponents" });
    view.grids.forEach((_, seat) => {
      if (seat !== me) others.append(this.seatBlock(view, seat, legal));
    });
    play.append(others, this.middle(view, legal));
    if (me !== null) play.append(this.seatBlock(view, me, legal));
    play.append(this.actionBar(view, legal));
    play.append(el("p", { class: "prompt", "aria-live": "polite", id: "prompt", tabindex: "-1" }, [this.prompt(view)]));
    if (this.hintText) play.append(el("p", { class: "hint", role: "status" }, [`Hint: ${this.hintText}`]));
    const side = el("div", { class: "side" }, [
      this.scores(view),
      el("section", { class: "move-log", "aria-label": "Last moves" }, [
        el("h3", {}, ["Last moves"]),
        el("ol", { "aria-live": "polite" }, this.log.map((line) => el("li", {}, [line]))),
      ]),
    ]);
    table.append(el("div", { class: "table-body" }, [play, side]));

    // keep the keyboard where it was: on the same control, or, when that one is gone (a
    // card just played), on the first move offered, else on the prompt
    const active = document.activeElement;
    const hadFocus = active instanceof HTMLElement && this.root.contains(active);
    const key = hadFocus ? active.dataset.focusKey : undefined;
    this.root.replaceChildren(table);
    if (hadFocus) {
      const target =
        (key ? this.root.querySelector(`[data-focus-key="${key}"]`) : null) ??
        this.root.querySelector(".seat.mine button, .middle button, .actions button") ??
        this.root.querySelector(".prompt");
      if (target instanceof HTMLElement) target.focus();
    }
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
    const toAct = view.seats_to_act.includes(seat);
    const block = el("section", {
      class: `seat${mine ? " mine" : ""}${toAct ? " to-act" : ""}`,
      "aria-label": mine ? "Your grid" : `${name}'s grid`,
      "data-seat": String(seat),
    });
    const showing = view.face_up_totals[seat] ?? 0;
    block.append(
      el("h3", {}, [
        mine ? "You" : name,
        el("span", { class: "showing" }, [` · ${showing} showing`]),
        toAct ? el("span", { class: "to-act-mark" }, [" · to play"]) : "",
      ]),
    );
    const grid = el("div", { class: "grid", role: "group", "aria-label": mine ? "Your cards" : `${name}'s cards` });
    grid.style.setProperty("--cols", String(view.cols));
    const cards = view.grids[seat] ?? [];
    cards.forEach((card, position) => {
      const label = `${mine ? "your card" : `${name}: card`} ${position + 1}, ${cardName(card)}`;
      /** @type {GolfAction | undefined} */
      let action;
      if (mine) {
        action = legal.find((a) =>
          this.flipMode
            ? a.type === "discard" && a.flip === position
            : (a.type === "reveal" || a.type === "swap") && a.position === position,
        );
      }
      const seen = card === null ? view.seen.find((s) => s.seat === seat && s.position === position) : undefined;
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

  /** The stock, the discard pile and the card in hand. @param {GolfView} view @param {GolfAction[]} legal */
  middle(view, legal) {
    const middle = el("section", { class: "middle", "aria-label": "Stock and discard pile" });
    const draw = legal.find((a) => a.type === "draw");
    const stockLabel = `stock, ${view.stock_size} card${view.stock_size === 1 ? "" : "s"}${draw ? ": draw a card" : ""}`;
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

    middle.append(
      el("figure", {}, [stock, el("figcaption", {}, [`Stock (${view.stock_size})`])]),
      el("figure", {}, [discard, el("figcaption", {}, ["Discard"])]),
    );
    if (view.drawn) {
      const who = this.seatName(view.drawn.seat);
      const card = view.drawn.card;
      const label = `${who === "you" ? "your" : `${who}'s`} drawn card, ${card ? cardName(card) : "hidden"}`;
      middle.append(
        el("figure", { class: "drawn" }, [
          el("div", { class: "pile drawn-card", role: "img", "aria-label": label, "data-card": card ?? "", "data-seat": String(view.drawn.seat) }, [cardFace(card)]),
          el("figcaption", {}, [who === "you" ? "In your hand" : `${who} holds`]),
        ]),
      );
    }
    return middle;
  }

  /** Discard, undo, next hole, hint. @param {GolfView} view @param {GolfAction[]} legal */
  actionBar(view, legal) {
    const bar = el("div", { class: "actions", role: "toolbar", "aria-label": "Moves" });
    /** @param {string} text @param {string} key @param {() => void} onClick @param {boolean} [hinted] */
    const button = (text, key, onClick, hinted = false) => {
      const node = el("button", { type: "button", "data-action": key, "data-focus-key": `action-${key}`, class: hinted ? "hinted" : "" }, [text]);
      node.addEventListener("click", onClick);
      bar.append(node);
    };
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
  scores(view) {
    const seats = view.grids.map((_, seat) => seat);
    const head = el("tr", {}, [el("th", { scope: "col" }, ["Hole"]), ...seats.map((s) => el("th", { scope: "col" }, [this.seatName(s)]))]);
    const rows = view.hole_scores.map((scores, hole) => {
      const out = view.hole_finishers[hole];
      return el("tr", {}, [
        el("th", { scope: "row" }, [`${hole + 1}${out === null || out === undefined ? "" : ` (${this.seatName(out)} went out)`}`]),
        ...seats.map((s) => el("td", {}, [String(scores[s] ?? "")])),
      ]);
    });
    const total = el("tr", { class: "totals" }, [
      el("th", { scope: "row" }, ["Total"]),
      ...seats.map((s) => el("td", { "data-seat": String(s) }, [String(view.totals[s] ?? 0)])),
    ]);
    const table = el("table", { class: "scores" }, [
      el("caption", {}, ["Scores (lowest wins)"]),
      el("thead", {}, [head]),
      el("tbody", {}, [...rows, total]),
    ]);
    const box = el("section", { class: "results", "aria-label": "Scores" }, [table]);
    if (view.phase === "finished") {
      box.append(el("p", { class: "winners", role: "status" }, [`Winner${view.winners.length > 1 ? "s" : ""}: ${view.winners.map((s) => this.seatName(s)).join(", ")}`]));
    }
    return box;
  }
}
