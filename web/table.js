// @ts-check
// What every table shares: following a match (reading its event stream and showing each
// version one by one, reconnecting after a loss), sending a legal action and showing the
// answer, hints, seat names, the move log, the scores table, and keeping the keyboard's
// focus, and the live regions (the prompt, the move log), on the page across updates. A
// game's table (golf.js, hearts.js, ninety_nine.js) draws its view.

import * as api from "./api.js";
import { cardFace, cardName } from "./cards.js";

/** @typedef {api.MatchDetail} MatchDetail */
/** @typedef {api.GameEvent} GameEvent */

/** Pause between two versions shown in a row (COM moves, one by one), in ms. */
export const PACE_MS = 300;

/** @param {number} ms @param {AbortSignal} signal @returns {Promise<void>} */
export function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}

/** The longest wait before reading the match again after a failure, in ms. */
export const MAX_BACK_OFF_MS = 15000;
/** The longest Retry-After the stream waits for, in seconds. */
export const MAX_RETRY_AFTER_S = 60;

/** How long a stream stays open (or until it shows an event) before a drop counts as the
 * first failure again rather than one more in a row, in ms. */
export const STEADY_MS = 5000;
/** Lines the move log keeps (the last ones). */
const LOG_LINES = 8;

/**
 * Whether the stream's answer says that this service has no event streams (no such
 * endpoint, or not as NDJSON), so the table long-polls the log instead.
 * @param {unknown} error
 */
function streamsUnavailable(error) {
  return error instanceof api.ApiError && [404, 405, 406, 501].includes(error.status) && error.problem?.code !== "match_not_found";
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

/** A move's identity, whatever the order of its cards. @param {api.GameAction} action */
function actionKey(action) {
  const fields = Object.entries(action).map(([key, value]) => [key, Array.isArray(value) ? [...value].sort() : value]);
  return JSON.stringify(fields.sort(([a], [b]) => String(a).localeCompare(String(b))));
}

/** @param {unknown} error @returns {boolean} */
function isAbort(error) {
  return error instanceof DOMException && error.name === "AbortError";
}

/** The client's own words at the start of a sentence ("Spades are trumps"); never a
 * player's name, which is as its player wrote it: see seatName. @param {string} words */
export function capital(words) {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** @param {number} n @param {string} word */
export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** What a label adds for a card an undo hid again, which this seat saw before it (the
 * view's `seen`: undo never un-sees). @param {string} card */
export function seenText(card) {
  return `(seen before an undo: ${cardName(card)})`;
}

/**
 * A card on the table: a button when `onClick` is given (a move offered), else an image.
 * Either way it is labelled, and carries its code (empty when face down) as data-card.
 * @param {string | null} code
 * @param {string} label
 * @param {Record<string, string>} attributes
 * @param {(() => void) | null} [onClick]
 */
export function cardNode(code, label, attributes, onClick = null) {
  const attrs = { ...attributes, class: `card${code ? "" : " face-down"} ${attributes.class ?? ""}`.trim(), "aria-label": label, "data-card": code ?? "" };
  const node = onClick ? el("button", { ...attrs, type: "button", "aria-describedby": "prompt" }, [cardFace(code)]) : el("div", { ...attrs, role: "img" }, [cardFace(code)]);
  if (onClick) node.addEventListener("click", onClick);
  return node;
}

/**
 * The fields of a view every game has.
 * @typedef {{version: number, phase: string, seat: number | null, seats_to_act: number[], players: string[], winners: number[], totals: number[], end_reason: string | null, turn_deadline?: string}} CommonView
 */

/**
 * A table for one game: `V` its view, `A` its actions.
 * @template {api.GameAction} A
 * @template {CommonView & {legal_actions: A[]}} V
 */
export class Table {
  /**
   * @param {HTMLElement} root
   * @param {MatchDetail} detail the match (its seats, rules, hints); the view comes from states/
   * @param {(message: string) => void} showError
   * @param {(shown?: string) => void} clearError takes the message down (a move went: it no
   *   longer holds), or only while it is `shown`
   */
  constructor(root, detail, showError, clearError = () => {}) {
    this.root = root;
    this.detail = detail;
    this.showError = showError;
    this.clearError = clearError;
    /** @type {V | null} the live view (the match now, as far as this page knows) */
    this.view = null;
    /** @type {V | null} a past version shown by the history slider (read only), or null: live */
    this.past = null;
    this.version = 0;
    this.busy = false;
    /** whether the version shown is one in passing, later ones having arrived (no moves offered) */
    this.passing = false;
    // The prompt (what to do next), the hint and the move log are live regions, made once per table
    // and kept on the page across updates (see place), their text changed in place: most
    // screen readers announce a change in a live region only if it was on the page before.
    this.promptNode = el("p", { class: "prompt", "aria-live": "polite", id: "prompt", tabindex: "-1" });
    this.hintNode = el("p", { class: "hint", role: "status" });
    this.logList = el("ol", { "aria-live": "polite" });
    this.logNode = el("section", { class: "move-log", "aria-label": "Last moves" }, [el("h3", {}, ["Last moves"]), this.logList]);
    /** @type {Map<Node, HTMLElement>} the stand-ins, in the table being drawn, for the nodes
     * kept on the page (keep): place() puts each kept node where its stand-in is */
    this.slots = new Map();
    /** @type {A | null} */
    this.hinted = null;
    this.hintText = "";
    /** how many past versions the history slider has asked for, and "Back to live"s: an
     * answer to any but the latest request comes too late to be shown */
    this.pastAsked = 0;
    this.connection = "live";
    /** @type {"stream" | "long-poll"} how the table learns of new events */
    this.following = "stream";
    /** failures to reach the match in a row (the back-off grows with them) */
    this.failures = 0;
    /** @type {string | null} the message a request the player made failed with when the
     * service could not be reached (or did not answer), taken down once it answers again */
    this.unreachable = null;
    /** @type {AbortController | null} the wait before reading the match again after a
     * failure, which the device coming back online cuts short */
    this.backOff = null;
    /** @type {api.EventStream | null} the stream being read, which the device going
     * offline cuts at once (its connection is gone, or will be) */
    this.events = null;
    this.wentOnline = () => this.backOff?.abort();
    this.wentOffline = () => this.events?.lose("The device went offline.");
    /** when the table last showed a new version (performance.now()) */
    this.shownAt = -Infinity;
    this.abort = new AbortController();
    /** @type {string[]} cards picked for a move of three cards (a pass, a bid), not sent yet */
    this.chosen = [];
    /** the seq of the last event the move log has taken (each is logged once, in order) */
    this.logged = 0;
    /** @type {{deal: number, plays: {seat: number, card: string}[], winner: number} | null}
     * the last trick won that this page saw, and its deal (a game of tricks keeps it:
     * a deal's last trick is in no view of the next deal) */
    this.lastWon = null;
    /** @type {(() => void) | null} called once, when the table first shows the match ended */
    this.onEnded = null;
    /** @type {((detail: MatchDetail) => void) | null} called when the table has read the
     * match again (someone took a seat, a COM took a player's): its status, its seats */
    this.onDetail = null;
    /** @type {((error: api.ApiError) => void) | null} called when the service answers 401
     * (the token no longer holds): the page forgets the token and asks to log in again */
    this.onLoggedOut = null;
    /** @type {ReturnType<typeof setInterval> | null} the turn timer's tick, each second */
    this.ticking = null;
    /** @type {{version: number, at: string} | null} the turn deadline, and of which version */
    this.deadline = detail.view.turn_deadline ? { version: detail.version, at: detail.view.turn_deadline } : null;
  }

  /** This game's view, or null when the view is another game's.
   * @param {api.GameView} _view @returns {V | null} */
  narrow(_view) {
    throw new Error("a table narrows views to its game");
  }

  /** Whether every seat acts at once now (moves then go without If-Match). @param {V} _view */
  simultaneous(_view) {
    return false;
  }

  /** A line for the move log ("" for none); a game's table describes its own events.
   * @param {GameEvent} event @returns {string} */
  describe(event) {
    switch (event.type) {
      case "undone":
        return `${event.seat === null ? "Someone" : this.seatName(event.seat, true)} took back a move.`;
      case "match_finished":
        return "The match is over.";
      case "match_aborted":
        return "The match was stopped.";
      case "seat_taken":
        return `${event.seat === null ? "Someone" : this.seatName(event.seat, true)} took a seat.`;
      case "seat_handed_over":
        return `A COM plays seat ${Number(event.data.seat) + 1} from now on.`;
      default:
        return "";
    }
  }

  /** Forgets a choice in progress (cards picked but not sent). */
  resetChoice() {
    this.chosen = [];
  }

  /** Forgets a choice in progress and the hint: both were for the table as it was. */
  forgetChoice() {
    this.resetChoice();
    this.hinted = null;
    this.hintText = "";
  }

  /**
   * Whether a choice in progress and the hint still stand at `next`: only while every seat
   * acts at once, in one phase, do the others' moves leave yours as they were (cards
   * picked for a pass stay picked while the others choose theirs).
   * @param {V} next
   */
  choiceHolds(next) {
    return this.view !== null && this.choiceHoldsFrom(this.view, next);
  }

  /** ... from the table at `now` to the table at `next`. @param {V} now @param {V} next */
  choiceHoldsFrom(now, next) {
    const stillMine = next.seat !== null && next.seats_to_act.includes(next.seat); // (a timer may have chosen)
    return this.simultaneous(now) && this.simultaneous(next) && now.phase === next.phase && stillMine;
  }

  /**
   * Puts back the choice and the hint a move took with it when that move failed, if they
   * still stand at the table now shown (the same table, or one where only other seats
   * chose meanwhile: a stale move's reload), keeping only what is still legal there.
   * @param {V} sent the table the move was sent from
   * @param {{chosen: string[], hinted: A | null, hintText: string}} kept
   */
  restoreChoice(sent, kept) {
    const now = this.view;
    if (!now || (now !== sent && !this.choiceHoldsFrom(sent, now))) return;
    const legal = now.legal_actions;
    const cards = new Set(legal.flatMap((a) => /** @type {{cards?: string[]}} */ (a).cards ?? []));
    this.chosen = kept.chosen.filter((card) => cards.has(card));
    const hinted = kept.hinted;
    if (hinted && legal.some((a) => actionKey(a) === actionKey(hinted))) {
      this.hinted = hinted;
      this.hintText = kept.hintText;
    }
  }

  /** Picks a card for a move of three cards, or puts it back. @param {string} card */
  toggle(card) {
    this.chosen = this.chosen.includes(card) ? this.chosen.filter((c) => c !== card) : [...this.chosen, card].slice(-3);
    this.render();
  }

  /** The legal move of `type` made of exactly the cards picked, if there is one.
   * @param {string} type @returns {A | undefined} */
  chosenAction(type) {
    if (this.chosen.length !== 3) return undefined;
    const want = [...this.chosen].sort().join();
    return this.legal().find((a) => {
      const cards = /** @type {{cards?: string[]}} */ (a).cards;
      return a.type === type && cards !== undefined && [...cards].sort().join() === want;
    });
  }

  render() {}

  /** Loads the view at the match's version, then follows the match. */
  async start() {
    const view = this.narrow(await api.stateAt(this.detail.id, this.detail.version, this.abort.signal));
    if (!view) throw new Error(`this table does not show ${this.detail.game} matches`);
    this.show(view);
    window.addEventListener("online", this.wentOnline);
    window.addEventListener("offline", this.wentOffline);
    void this.follow();
  }

  stop() {
    window.removeEventListener("online", this.wentOnline);
    window.removeEventListener("offline", this.wentOffline);
    this.abort.abort();
    if (this.ticking !== null) clearInterval(this.ticking);
    this.ticking = null;
  }

  /**
   * The turn timer of a timed match: the time left until the deadline of the version
   * shown, counted down each second by tick(); hidden while that deadline is not known.
   * @param {V} view
   */
  turnTimer(view) {
    const deadline = this.deadline && this.deadline.version === view.version && !this.ended(view) ? this.deadline.at : "";
    const timer = el("span", { class: "turn-timer", role: "timer", "data-deadline": deadline });
    if (deadline) this.updateTimer(timer);
    else timer.hidden = true;
    return timer;
  }

  /**
   * Learns the deadline of `version`. The view of GET /api/matches/{id} carries it, and
   * that of an action's answer (kept by act), not states/{version}: a timed match's table
   * asks for it after a version it did not make.
   * @param {number} version
   */
  async learnDeadline(version) {
    if (this.detail.turn_timeout === null || this.abort.signal.aborted) return;
    // the timer ticks from the first version shown, whose deadline the match's detail
    // (read to open the table) may have carried already
    if (this.ticking === null) this.ticking = setInterval(() => this.tick(), 1000);
    if (this.deadline?.version === version) return;
    try {
      const now = await api.match(this.detail.id, this.abort.signal);
      if (this.abort.signal.aborted) return; // the table was left meanwhile: no timer
      if (now.version !== version || now.version !== this.version) return;
      this.deadline = { version, at: now.view.turn_deadline ?? "" };
    } catch (error) {
      if (error instanceof api.ApiError) return; // the timer stays hidden; the table goes on
      if (isAbort(error)) return; // the table was left
      throw error;
    }
    const timer = this.root.querySelector(".turn-timer");
    if (timer instanceof HTMLElement && !this.past && this.view && this.view.version === version && !this.ended(this.view)) {
      timer.dataset.deadline = this.deadline.at;
      timer.hidden = !this.deadline.at;
      if (this.deadline.at) this.updateTimer(timer);
    }
  }

  tick() {
    const timer = this.root.querySelector(".turn-timer");
    if (timer instanceof HTMLElement && timer.dataset.deadline) this.updateTimer(timer);
  }

  /** @param {HTMLElement} timer */
  updateTimer(timer) {
    const deadline = Date.parse(timer.dataset.deadline ?? "");
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    const waiting = this.view ? this.view.seats_to_act.map((s) => this.seatName(s)).join(", ") : "";
    timer.dataset.seconds = String(left);
    timer.textContent = `⏱ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    timer.setAttribute("aria-label", `Time left for this turn${waiting ? ` (${waiting})` : ""}: ${plural(left, "second")}`);
  }

  /** @param {V} view */
  ended(view) {
    return view.phase === "finished" || view.phase === "aborted";
  }

  /**
   * Follows the match until it has ended: reads its event stream and shows every new
   * version in turn; reads on from the last version shown when the stream ends, and, after
   * a failure (the network, the service), says so and tries again, backing off (or after
   * the Retry-After of a 429, at least 1 s). The device going offline (the window's
   * `offline`) cuts the stream at once, as a lost connection; back online, the service is
   * tried again at once. Long-polls the log instead when streams are unavailable. Stops
   * for good when the service refuses the account (401: the token no longer holds; 403:
   * e.g. `account_suspended`), saying why.
   */
  async follow() {
    const signal = this.abort.signal;
    while (!signal.aborted && this.view && !this.ended(this.view)) {
      const began = { at: performance.now(), version: this.version };
      try {
        const more = this.following === "stream" ? await this.readStream(signal) : await this.poll(signal);
        if (!more) return;
        // a stream that ended at once with nothing new is not read again at once
        if (this.version === began.version && performance.now() - began.at < 1000) await sleep(1000, signal);
      } catch (error) {
        if (isAbort(error) || signal.aborted) return;
        if (this.following === "stream" && streamsUnavailable(error)) {
          this.following = "long-poll";
          continue;
        }
        if (error instanceof api.ApiError && (error.status === 401 || error.status === 403)) {
          this.refused(error);
          return;
        }
        this.failures += 1;
        this.setConnection("reconnecting");
        const retryAfter = error instanceof api.ApiError ? error.retryAfter : null;
        // (a Retry-After past a minute, a proxy's, is taken as a minute: the banner says
        // "reconnecting", and an hour of it would be no reconnecting)
        const wait = retryAfter !== null ? Math.min(Math.max(retryAfter, 1), MAX_RETRY_AFTER_S) * 1000 : Math.min(1000 * 2 ** this.failures, MAX_BACK_OFF_MS);
        // (the device back online: no reason to wait on, the service is tried at once)
        this.backOff = new AbortController();
        await sleep(wait, api.anySignal([signal, this.backOff.signal]));
        this.backOff = null;
      }
    }
  }

  /**
   * The service refused this account (its token revoked or expired, the account
   * suspended): the table stops following and says why; a 401 also asks to log in again
   * (through `onLoggedOut` when the page gave one: it forgets the token and routes).
   * @param {api.ApiError} error
   */
  refused(error) {
    this.setConnection("refused");
    if (error.status === 401 && this.onLoggedOut) this.onLoggedOut(error);
    else this.showError(error.status === 401 ? `${error.readable}\nPlease log in again.` : error.readable);
  }

  /** The service answered: the table is live again (the failures are forgotten only once
   * the stream is steady, see readStream, so a stream that drops at once backs off), and a
   * message that said it could not be reached no longer holds. */
  connected() {
    if (this.connection !== "live") this.setConnection("live");
    if (this.unreachable !== null) this.clearError(this.unreachable);
    this.unreachable = null;
  }

  /**
   * Reads the event stream (GET stream, NDJSON) from the version shown, showing each event's
   * version as it comes, until the stream ends. False when there is nothing more to read.
   * Once it has shown an event, or stayed open STEADY_MS, the next failure backs off anew.
   * @param {AbortSignal} signal @returns {Promise<boolean>}
   */
  async readStream(signal) {
    const events = await api.stream(this.detail.id, { after: this.version }, signal);
    this.connected();
    if (!events) return false; // the match has ended, and this page has shown all of it
    const opened = performance.now();
    this.events = events;
    try {
      for (let event = await events.next(); event; event = await events.next()) {
        this.connected();
        await this.showEvent(event, signal, () => events.pending > 0);
        this.failures = 0;
      }
    } finally {
      if (performance.now() - opened >= STEADY_MS) this.failures = 0;
      this.events = null;
      events.close();
      this.settle(signal);
    }
    return true;
  }

  /**
   * Long-polls the log once (GET events?after&wait) and shows each new event's version.
   * @param {AbortSignal} signal @returns {Promise<boolean>}
   */
  async poll(signal) {
    const page = await api.events(this.detail.id, { after: this.version, wait: 25 }, signal);
    this.connected();
    this.failures = 0; // a long-poll answered whole
    try {
      for (const event of page.events) await this.showEvent(event, signal, () => event.seq < page.version);
    } finally {
      this.settle(signal);
    }
    return true;
  }

  /** After a read: a version shown in passing (more were coming) offers its moves again. @param {AbortSignal} signal */
  settle(signal) {
    if (!this.passing || signal.aborted) return;
    this.passing = false;
    this.render();
  }

  /**
   * Shows the view after a new event (GET states/{seq}), at least PACE_MS after the last
   * one shown, so that moves made in a row (the COMs') appear one by one. While `more()`
   * says that later events have arrived, the version is shown in passing: its moves are
   * not offered (they would be sent against a version the match has left).
   * @param {GameEvent} event @param {AbortSignal} signal @param {() => boolean} more
   */
  async showEvent(event, signal, more) {
    if (event.seq <= this.version) {
      // already shown (our own action's answer, or the table read again after a 412)
      if (!more()) this.settle(signal);
      return;
    }
    await sleep(this.shownAt + PACE_MS - performance.now(), signal);
    if (signal.aborted) return;
    const view = this.narrow(await api.stateAt(this.detail.id, event.seq, signal));
    if (!view || event.seq <= this.version || signal.aborted) return;
    // someone took an open seat, or a player's seat went to a COM (its player left, or staff
    // handed it over; in a log from before that event, a COM moved for a seat this page has
    // as a player's): read the match again for the names (the old ones will do if that read
    // fails: the names are all it adds)
    const com = /^com:[^:]+:(\d+)$/.exec(event.actor);
    const handed = com !== null && this.detail.seats[Number(com[1])]?.kind === "human";
    const read = event.type === "seat_taken" || event.type === "seat_handed_over" || handed;
    if (read) this.detail = await api.match(this.detail.id, signal).catch(() => this.detail);
    if (signal.aborted) return;
    if (read && this.onDetail) this.onDetail(this.detail);
    this.passing = more();
    this.record(event);
    this.show(view);
  }

  /** @param {string} state */
  setConnection(state) {
    this.connection = state;
    const node = this.root.querySelector(".connection");
    if (node) node.textContent = this.connectionText();
  }

  /** The banner's text: none while live. */
  connectionText() {
    if (this.connection === "live") return "";
    return this.connection === "refused" ? "Not following the match." : "Connection lost: reconnecting…";
  }

  /**
   * Whether `seat` is this page's own, said "you" (by its seat: a player may be named
   * "you"); in a local match no seat is, each named by its player.
   * @param {number | null} seat
   */
  isYou(seat) {
    return seat !== null && seat === this.view?.seat && !this.detail.local;
  }

  /**
   * A seat's name: "you", a COM's, its player's username, or "seat 2". At the start of a
   * sentence (`start`) the client's own words are capitalised ("You", "Seat 2"), never a
   * username ("h66bob took a seat."). In a local match, where one account holds every
   * human seat and the device is passed round, each is "Player 2", also on its turn.
   * @param {number} seat @param {boolean} [start]
   */
  seatName(seat, start = false) {
    const info = this.detail.seats[seat];
    if (this.detail.local && info?.kind === "human") return `Player ${seat + 1}`;
    if (this.isYou(seat)) return start ? "You" : "you";
    if (info?.kind === "com") return `COM ${seat} (${info.com_level ?? "com"})`;
    return info?.username ?? `${start ? "Seat" : "seat"} ${seat + 1}`;
  }

  /**
   * A seat's name where room is short (a column's head): a COM's without its level, "COM
   * 2"; any other as seatName says it at the start of a sentence.
   * @param {number} seat
   */
  shortSeatName(seat) {
    if (this.detail.seats[seat]?.kind === "com") return `COM ${seat}`;
    return this.seatName(seat, true);
  }

  /**
   * Logs the events after the last one logged, up to `seq`, read from the log: those the
   * page shows no version of (another seat's move just before one of this page's, or
   * before a reload). Without them if they cannot be read: the table goes on.
   * @param {number} seq
   */
  async logUpTo(seq) {
    if (seq <= this.logged) return;
    try {
      const page = await api.events(this.detail.id, { after: this.logged, limit: Math.min(seq - this.logged, 500) }, this.abort.signal);
      for (const event of page.events) if (event.seq <= seq) this.record(event);
    } catch {
      // (the lines are missed, not the move)
    }
  }

  /** Adds the event's line to the move log (its list changed in place: the line alone is
   * announced), once: an event logged already (or before the first version shown) is not.
   * @param {GameEvent} event */
  record(event) {
    if (event.seq <= this.logged) return;
    this.logged = event.seq;
    const plays = event.type === "trick_won" ? this.wonPlays(/** @type {Record<string, any>} */ (event.data)) : null;
    const deal = /** @type {{deal?: number} | null} */ (this.view)?.deal;
    if (plays && deal !== undefined) this.lastWon = { deal, plays, winner: /** @type {Record<string, any>} */ (event.data).winner };
    const said = this.describe(event);
    if (!said) return;
    // a move the turn timer made (actor timer:<seat>): the seat's time ran out
    const timed = event.actor.startsWith("timer");
    const line = timed ? `${said} (${this.isYou(event.seat) ? "your" : "their"} time ran out: the server chose)` : said;
    this.logList.append(el("li", {}, [line]));
    while (this.logList.children.length > LOG_LINES) this.logList.firstElementChild?.remove();
  }

  /** @returns {A[]} */
  legal() {
    return this.view && !this.busy && !this.passing && !this.past ? this.view.legal_actions : [];
  }

  /** The view to draw: a past version picked on the history slider, or the live one. */
  shown() {
    return this.past ?? this.view;
  }

  /**
   * Shows the table as this user saw it at `version` (GET states/{version}), read only;
   * the live version returns to live. The match goes on being followed meanwhile.
   * @param {number} version
   */
  async showPast(version) {
    if (version >= this.version) {
      this.backToLive();
      return;
    }
    const asked = ++this.pastAsked;
    try {
      const view = this.narrow(await api.stateAt(this.detail.id, version, this.abort.signal));
      // another version picked since, or "Back to live": this answer is one too late
      if (!view || asked !== this.pastAsked) return;
      // a past table offers no moves
      this.past = { ...view, legal_actions: [] };
      this.render();
    } catch (error) {
      if (asked === this.pastAsked) this.failed(error);
    }
  }

  backToLive() {
    this.pastAsked += 1; // a past version still being read is not shown once it comes
    this.past = null;
    this.render();
  }

  /** The history slider, from version 1 to the live one, and "Back to live". @param {V} view */
  historyBar(view) {
    const bar = el("div", { class: "history", role: "group", "aria-label": "History" });
    const slider = el("input", {
      type: "range",
      id: "history",
      min: "1",
      max: String(this.version),
      value: String(view.version),
      "data-focus-key": "history",
      "aria-valuetext": `move ${view.version} of ${this.version}`,
    });
    slider.addEventListener("change", () => void this.showPast(Number(slider.value)));
    bar.append(el("label", { for: "history" }, [this.past ? `History: move ${view.version} of ${this.version}` : "History"]), slider);
    if (this.past) {
      const live = el("button", { type: "button", class: "secondary", "data-focus-key": "live" }, ["Back to live"]);
      live.addEventListener("click", () => {
        this.backToLive();
        // (the slider is drawn anew: the one on the page now)
        const drawn = this.root.querySelector("#history");
        if (drawn instanceof HTMLElement) drawn.focus();
      });
      bar.append(live);
    }
    return bar;
  }

  /** Whether the view's own seat is to act in it, with moves. @param {V} view */
  seatToAct(view) {
    return view.seat !== null && view.seats_to_act.includes(view.seat) && view.legal_actions.length > 0;
  }

  /** Whether it is this page's seat to act, with moves offered. @param {V} view */
  yourTurn(view) {
    return !this.past && !this.passing && this.seatToAct(view);
  }

  /**
   * Sends an action, and shows the view the API answers with.
   * @param {A} action
   */
  async send(action) {
    const view = this.view;
    if (!view || this.busy) return;
    this.busy = true;
    // the choice in progress and the hint go with the move; put back if it fails
    const kept = { chosen: this.chosen, hinted: this.hinted, hintText: this.hintText };
    this.forgetChoice();
    this.render();
    try {
      // when every seat acts at once a move is valid whatever the others did, so it goes
      // without If-Match; any other move names the version it saw
      const version = this.simultaneous(view) ? null : this.version;
      const result = await api.act(this.detail.id, action, version);
      this.clearError(); // what a move before this one failed with is past
      const next = this.narrow(result.view);
      // its view carries the turn's deadline at that version: no need to ask for it
      if (this.detail.turn_timeout !== null && result.view.turn_deadline) this.deadline = { version: result.version, at: result.view.turn_deadline };
      // the answer carries this move's events only: another seat's, just before it, are read
      await this.logUpTo((result.events[0]?.seq ?? result.version + 1) - 1);
      this.busy = false;
      if (next && result.version > this.version) {
        for (const event of result.events) this.record(event);
        this.show(next);
      } else this.render();
    } catch (error) {
      // whatever failed, the table is drawn again, not busy, its moves offered again (and
      // the choice and hint with them, where they still stand)
      const problem = error instanceof api.ApiError ? error.problem : null;
      const stale = problem?.code === "precondition_failed" || problem?.code === "version_conflict";
      let current = stale ? problem?.current_version : undefined;
      // a move sent without If-Match (every seat acting at once) that the rules refuse: the
      // table may have moved on meanwhile (the pause ended, the timer chose), as for a stale
      // one: the match is read to know
      if (!stale && error instanceof api.ApiError && error.status === 422 && this.simultaneous(view)) {
        const now = await api.match(this.detail.id, this.abort.signal).catch(() => null);
        if (now && now.version > view.version) current = now.version;
      }
      this.busy = false;
      if (!stale && !current) {
        this.restoreChoice(view, kept);
        this.render();
        this.failed(error);
        return;
      }
      this.showError("The table moved on before your move arrived: here it is again.");
      // if it cannot be read, the table stays as it was, its moves offered again; the
      // stream catches up
      if (current) await this.reload(current).catch((failed) => this.failed(failed));
      this.restoreChoice(view, kept);
      this.render();
    }
  }

  /**
   * A request the player asked for failed (a move, a hint, a past version): a 401 logs out,
   * as any other does (the token no longer holds: the table stops following, and the page
   * asks to log in again); any other error is shown. Nothing is thrown on: an error out of
   * a click's handler would reach no one, and the table would say nothing.
   * @param {unknown} error
   */
  failed(error) {
    if (isAbort(error)) return; // the table was left
    if (error instanceof api.ApiError && error.status === 401) {
      this.stop();
      this.refused(error);
    } else if (error instanceof api.ApiError) {
      this.showError(error.readable);
      // (the network, or no answer in time: the service answering again takes it down)
      if (error.status === 0 && !(error instanceof api.AccountChanged)) this.unreachable = error.readable;
    } else this.showError(`This page failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  /** @param {number} version */
  async reload(version) {
    await this.logUpTo(version); // the moves that made this page's stale
    const view = this.narrow(await api.stateAt(this.detail.id, version, this.abort.signal));
    if (view && version >= this.version) {
      this.passing = false; // the match's latest version, as the API says
      this.show(view);
    }
  }

  async askHint() {
    const version = this.version;
    try {
      const asked = this.view;
      const hint = await api.hint(this.detail.id);
      // the table has moved on: a hint for before, unless only other seats chose meanwhile
      // (passes, bids: the hint stands as a choice in progress does)
      const stands = this.version === version || (asked !== null && this.view !== null && this.choiceHoldsFrom(asked, this.view));
      if (!stands) return;
      // a match's hint is one of its legal actions, an action of its game
      this.hinted = /** @type {A} */ (hint.action);
      this.hintText = hint.reason;
      this.render();
    } catch (error) {
      this.failed(error);
    }
  }

  /** The cards of the hinted move (a card played, cards passed or bid). @returns {string[]} */
  hintedCards() {
    const hint = /** @type {{card?: unknown, cards?: unknown} | null} */ (this.hinted);
    if (!hint || this.past) return [];
    if (Array.isArray(hint.cards)) return hint.cards.map(String);
    return typeof hint.card === "string" ? [hint.card] : [];
  }

  /** @param {V} view */
  show(view) {
    // a version this page did not send (another seat's move, the timer's, the next hole):
    // a choice in progress ("Discard and turn up a card…", cards picked) and the hint were
    // for the table as it was (a move sent has forgotten them already)
    if (!this.choiceHolds(view)) this.forgetChoice();
    this.view = view;
    this.version = view.version;
    this.logged = Math.max(this.logged, view.version); // (what came before is not logged)
    this.shownAt = performance.now();
    this.render();
    if (!this.ended(view)) void this.learnDeadline(view.version);
    if (this.ended(view) && this.onEnded) {
      const onEnded = this.onEnded;
      this.onEnded = null;
      onEnded();
    }
  }

  /** The end of a match, in words, or null while it goes on. @param {V} view */
  endText(view) {
    if (view.phase === "finished") {
      const names = view.winners.map((s) => this.seatName(s));
      const others = view.winners.filter((s) => !this.isYou(s)).map((s) => this.seatName(s));
      if (others.length < names.length) return others.length ? `You tie for the win with ${others.join(", ")}!` : "You win!";
      return `The match is over: ${names.join(" and ")} won.`;
    }
    if (view.phase === "aborted") {
      const reason = view.end_reason;
      return `The match was stopped${reason ? `: ${reason}` : ""}.`;
    }
    return null;
  }

  /** Who the table waits for, in words. @param {V} view */
  waitingText(view) {
    const open = view.players.filter((kind) => kind === "open").length;
    if (open) return `Waiting for ${open === 1 ? "a player to take the open seat" : `players to take the ${open} open seats`}…`;
    const waiting = view.seats_to_act.map((s) => this.seatName(s));
    return waiting.length ? `Waiting for ${waiting.join(", ")}…` : "Waiting…";
  }

  /**
   * A deal's heading in a game to a target score: "Deal 2 of 3" where the rules set the
   * number of deals, else "Deal 2 · to 100" (the most deals the rules allow, 12 or 34, is
   * no plan: the match ends when a total reaches the target).
   * @param {number} deal @param {number} target
   */
  dealTitle(deal, target) {
    const deals = /** @type {{max_deals?: number | null}} */ (this.detail.rules).max_deals;
    return deals ? `Deal ${deal} of ${deals}` : `Deal ${deal} · to ${target}`;
  }

  /**
   * When a match played to a target score ends, for its scores' caption: "the match ends at
   * 100", or, where the rules set the number of deals, "the match ends after 3 deals, or
   * when a total reaches 100" (whichever comes first).
   * @param {number} target
   */
  endsAt(target) {
    const deals = /** @type {{max_deals?: number | null}} */ (this.detail.rules).max_deals;
    return deals ? `the match ends after ${plural(deals, "deal")}, or when a total reaches ${target}` : `the match ends at ${target}`;
  }

  /**
   * The table's frame: its section (with the data the browser tests read) and header.
   * @param {V} view @param {string} kind e.g. "golf" @param {string} label @param {string} title
   */
  frame(view, kind, label, title) {
    const table = el("section", {
      class: `game-table ${kind}-table`,
      "aria-label": label,
      "data-version": String(view.version),
      "data-phase": view.phase,
      "data-your-turn": String(this.yourTurn(view) && !this.busy),
      "data-busy": String(this.busy || this.passing),
      // (a move being sent: the table is about to change, its moves are not offered)
      "aria-busy": String(this.busy),
      "data-history": String(this.past !== null),
    });
    table.append(
      el("header", { class: "table-head" }, [
        el("h2", {}, [title]),
        el("span", { class: "version" }, [`move ${view.version}`]),
        this.turnTimer(view),
        el("span", { class: "connection", role: "status" }, [this.connectionText()]),
      ]),
      this.historyBar(view),
    );
    return table;
  }

  /** The prompt (what to do now; "Sending your move…" while one is sent), its text
   * changed in place (the same live region), and the hint's reason. @param {string} text */
  promptNodes(text) {
    const view = this.shown();
    // a move being sent: what was asked is done, its answer awaited (which may take a while)
    if (this.busy && !this.past) text = "Sending your move…";
    // a local match's turn is asked of its player by name: the device goes to them
    else if (this.detail.local && view && view.seat !== null && this.seatToAct(view)) text = `${this.seatName(view.seat)} — ${text}`;
    if (this.promptNode.textContent !== text) this.promptNode.textContent = text;
    // (no hint on a past version: it was for the table now)
    const hint = this.hintText && !this.past ? `Hint: ${this.hintText}` : "";
    if (this.hintNode.textContent !== hint) this.hintNode.textContent = hint; // (empty: no box, style.css)
    return [this.keep(this.promptNode), this.keep(this.hintNode)];
  }

  /** The move log (the same live region, its lines added by record). */
  moveLog() {
    return this.keep(this.logNode);
  }

  /**
   * A stand-in for `node`, one of the table's live regions, in the table being drawn:
   * place() puts `node` there, without taking it off the page.
   * @param {HTMLElement} node
   */
  keep(node) {
    const slot = el("span", { hidden: "" });
    this.slots.set(slot, node);
    return slot;
  }

  /** A toolbar of buttons for moves. */
  toolbar() {
    const bar = el("div", { class: "actions", role: "toolbar", "aria-label": "Moves" });
    /** @param {string} text @param {string} key @param {() => void} onClick @param {boolean} [hinted] */
    const add = (text, key, onClick, hinted = false) => {
      const node = el("button", { type: "button", "data-action": key, "data-focus-key": `action-${key}`, class: hinted ? "hinted" : "" }, [text]);
      node.addEventListener("click", onClick);
      bar.append(node);
      return node;
    };
    return { bar, add };
  }

  /** Whether to offer Hint now. @param {V} view */
  hintOffered(view) {
    return this.detail.hints_enabled && this.yourTurn(view) && !this.busy;
  }

  /**
   * Round results, totals and, at the end, the winners.
   * @param {V} view
   * @param {{caption: string, round: string, rows: {label: string, scores: (number | string)[]}[]}} table
   */
  scores(view, { caption, round, rows }) {
    const seats = view.totals.map((_, seat) => seat);
    // (a COM's level is left out of its column's head, and a long username cut short, the
    // whole name in its title: the heads made the table wider than the side column, at
    // four seats, and a phone's width)
    /** @param {number} s */
    const columnHead = (s) => {
      const short = this.shortSeatName(s);
      const name = this.detail.seats[s]?.kind === "com" ? short : el("span", { class: "seat-head" }, [short]);
      return el("th", this.isYou(s) ? { scope: "col" } : { scope: "col", title: this.seatName(s, true) }, [name]);
    };
    const head = el("tr", {}, [el("th", { scope: "col" }, [round]), ...seats.map(columnHead)]);
    const body = rows.map((row) =>
      el("tr", {}, [el("th", { scope: "row" }, [row.label]), ...seats.map((s) => el("td", {}, [String(row.scores[s] ?? "")]))]),
    );
    const total = el("tr", { class: "totals" }, [
      el("th", { scope: "row" }, ["Total"]),
      ...seats.map((s) => el("td", { "data-seat": String(s) }, [String(view.totals[s] ?? 0)])),
    ]);
    const box = el("section", { class: "results", "aria-label": "Scores" }, [
      el("table", { class: "scores" }, [el("caption", {}, [caption]), el("thead", {}, [head]), el("tbody", {}, [...body, total])]),
    ]);
    if (view.phase === "finished") {
      box.append(el("p", { class: "winners", role: "status" }, [`Winner${view.winners.length > 1 ? "s" : ""}: ${view.winners.map((s) => this.seatName(s)).join(", ")}`]));
    }
    return box;
  }

  /**
   * The cards played to a trick, each labelled with its player; the leader marked.
   * @param {{seat: number, card: string}[]} plays @param {number | null} leader @param {string} caption
   */
  trickArea(plays, leader, caption) {
    const area = el("section", { class: "trick", "aria-label": caption }, [el("h3", {}, [caption])]);
    const row = el("div", { class: "trick-cards" });
    for (const play of plays) {
      const who = this.seatName(play.seat);
      const led = play.seat === leader ? " (led)" : "";
      row.append(
        el("figure", {}, [
          cardNode(play.card, `${this.isYou(play.seat) ? "your" : `${who}'s`} card${led}, ${cardName(play.card)}`, { "data-seat": String(play.seat), class: "played" }),
          el("figcaption", {}, [`${this.seatName(play.seat, true)}${led}`]),
        ]),
      );
    }
    const view = this.shown();
    const empty = view && this.ended(view) ? "No trick: the match is over." : leader === null ? "No cards played yet." : `${this.seatName(leader, true)} to lead.`;
    if (plays.length === 0) row.append(el("p", { class: "empty-trick" }, [empty]));
    area.append(row);
    return area;
  }

  /**
   * The trick just won, in a line, while the next is not begun: the last card of a trick
   * (yours, or a COM's a moment ago) is otherwise never on the table.
   * @param {{seat: number, card: string}[]} plays @param {number} winner @param {string} [which] e.g. "Last trick of deal 1"
   */
  lastTrick(plays, winner, which = "Last trick") {
    const cards = plays.map((p) => `${this.seatName(p.seat)}: ${cardName(p.card)}`).join(", ");
    return el("p", { class: "last-trick" }, [`${which} (${cards}): ${this.isYou(winner) ? "you took it" : `${this.seatName(winner, true)} took it`}.`]);
  }

  /**
   * A won trick's plays in order, from its `trick_won` event's data (a game of tricks
   * says how it writes them): kept as `lastWon`.
   * @param {Record<string, any>} _data @returns {{seat: number, card: string}[] | null}
   */
  wonPlays(_data) {
    return null;
  }

  /**
   * The last deal's last trick (`lastWon`), drawn while the next deal has none to show.
   * @param {{deal?: number, last_deal?: {deal: number} | null}} view
   * @param {boolean} none whether the view's deal has no trick of its own to show
   * @returns {HTMLElement[]}
   */
  previousDealsTrick(view, none) {
    const won = this.lastWon;
    if (!none || view !== this.view || !won || view.deal !== won.deal + 1 || view.last_deal?.deal !== won.deal) return [];
    return [this.lastTrick(won.plays, won.winner, `Last trick of deal ${won.deal}`)];
  }

  /**
   * Puts the new table on the page, keeping the keyboard where it was: on the same
   * control, or, when that one is gone (a card just played), on the first move offered.
   * The live regions (kept nodes, see keep) stay on the page: the table on the page is
   * made into the new one around them (graft), the rest of it replaced.
   * @param {HTMLElement} table @param {string} firstMove a selector of the moves offered
   */
  place(table, firstMove) {
    const active = document.activeElement;
    const hadFocus = active instanceof HTMLElement && this.root.contains(active);
    const key = hadFocus ? active.dataset.focusKey : undefined;
    const current = this.root.firstElementChild;
    if (current instanceof HTMLElement && this.root.childNodes.length === 1 && current.tagName === table.tagName) this.graft(current, table);
    else {
      this.fillSlots(table);
      this.root.replaceChildren(table);
    }
    this.slots.clear();
    if (hadFocus) {
      // the same control if it is still one (a card played is no button once the move
      // is sent), else the first move offered, else the prompt
      const same = key ? this.root.querySelector(`[data-focus-key="${CSS.escape(key)}"]`) : null;
      const focusable = same?.matches("button:not([disabled]), input:not([disabled]), select, [tabindex]") ? same : null;
      const target = focusable ?? this.root.querySelector(firstMove) ?? this.root.querySelector(".prompt");
      if (target instanceof HTMLElement) target.focus();
    }
  }

  /**
   * Makes `current` (on the page) into `fresh` (just drawn) without taking a kept node off
   * the page: `current` takes fresh's attributes and children, except that a stand-in
   * gives way to its kept node, and a child holding stand-ins is grafted in turn onto the
   * child of `current` (of its tag) holding their kept nodes, which stays.
   * @param {Element} current @param {Element} fresh
   */
  graft(current, fresh) {
    for (const name of current.getAttributeNames()) if (!fresh.hasAttribute(name)) current.removeAttribute(name);
    for (const name of fresh.getAttributeNames()) {
      const value = fresh.getAttribute(name) ?? "";
      if (current.getAttribute(name) !== value) current.setAttribute(name, value);
    }
    const children = [...fresh.childNodes].map((child) => {
      const kept = this.slots.get(child);
      if (kept) return kept;
      if (!(child instanceof Element)) return child;
      const held = [...this.slots].filter(([slot]) => child.contains(slot)).map(([, node]) => node);
      if (!held.length) return child;
      const same = [...current.children].find((c) => c.tagName === child.tagName && held.some((node) => c.contains(node)));
      if (same) {
        this.graft(same, child);
        return same;
      }
      this.fillSlots(child);
      return child;
    });
    // the children that stay keep their order, so the others go in around them
    for (const node of [...current.childNodes]) if (!children.includes(node)) node.remove();
    children.forEach((node, i) => {
      if (current.childNodes[i] !== node) current.insertBefore(node, current.childNodes[i] ?? null);
    });
  }

  /** Puts the kept nodes in place of their stand-ins in `node` (not on the page yet).
   * @param {Element} node */
  fillSlots(node) {
    for (const [slot, kept] of this.slots) if (slot instanceof Element && node.contains(slot)) slot.replaceWith(kept);
  }
}
