// @ts-check
// The reference client: log in, a lobby, and a table for each game (Golf, Hearts, Ninety-Nine). One page,
// routed by the URL's hash: #/ is the lobby, #/match/<id> a table, #/password the form that
// changes the account's password.

import * as api from "./api.js";
import { GolfTable } from "./golf.js";
import { HeartsTable } from "./hearts.js";
import { NinetyNineTable } from "./ninety_nine.js";
import { el } from "./table.js";
import { showVerification } from "./verify.js";

/** @typedef {api.Schemas["GolfMatchCreate"]} GolfMatchCreate */
/** @typedef {api.Schemas["HeartsMatchCreate"]} HeartsMatchCreate */
/** @typedef {api.Schemas["Ninety-NineMatchCreate"]} NinetyNineMatchCreate */
/** @typedef {api.Schemas["ComSeatRequest"]} ComSeatRequest */
/** @typedef {api.Schemas["SeatRequest"]} SeatRequest */

const main = /** @type {HTMLElement} */ (document.getElementById("main"));
const errors = /** @type {HTMLElement} */ (document.getElementById("errors"));
const account = /** @type {HTMLElement} */ (document.getElementById("account"));

/** @type {GolfTable | HeartsTable | NinetyNineTable | null} */
let table = null;
/** How many times the page has routed: a page whose reads finish after the next route is dropped. */
let routed = 0;

/** Shows a readable message in the page's alert region (screen readers read it out). */
function showError(/** @type {string} */ message) {
  errors.replaceChildren(
    el("p", {}, [message]),
    dismissButton(),
  );
  errors.hidden = false;
}

function dismissButton() {
  const button = el("button", { type: "button", class: "link", "aria-label": "Dismiss the message" }, ["×"]);
  button.addEventListener("click", () => clearError());
  return button;
}

/** Takes the message down (only while it is `shown`, when given: one said since stays).
 * @param {string} [shown] */
function clearError(shown) {
  if (shown !== undefined && errors.querySelector("p")?.textContent !== shown) return;
  errors.replaceChildren();
  errors.hidden = true;
}

/**
 * Runs `work`; an API error becomes a readable message.
 * @param {() => Promise<void>} work
 * @returns {Promise<unknown>} what `work` failed with, if it did
 */
async function guarded(work) {
  try {
    await work();
    return null;
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") return error; // the page was left
    if (error instanceof api.ApiError) {
      if (error.status === 401 && api.savedToken()) {
        await loggedOut(error);
        return error;
      }
      showError(error.readable);
    } else {
      showError(error instanceof Error ? error.message : String(error));
    }
    return error;
  }
}

/** The forms whose request is being sent (see submitOnce). @type {WeakSet<HTMLFormElement>} */
const pending = new WeakSet();

/**
 * Sends a form's request (`work`, guarded) once at a time: while it is pending the form's
 * submit buttons are disabled, so that a second click, or Enter, sends nothing more (two
 * matches were created); once it is answered they are enabled again (after an error it
 * may be sent again).
 * @param {HTMLFormElement} form @param {() => Promise<void>} work
 */
async function submitOnce(form, work) {
  if (pending.has(form)) return;
  pending.add(form);
  const buttons = [...form.querySelectorAll("button[type=submit]")].filter((b) => b instanceof HTMLButtonElement);
  for (const button of buttons) button.disabled = true;
  try {
    await guarded(work);
  } finally {
    pending.delete(form);
    for (const button of buttons) button.disabled = false;
  }
}

/** A 401: the saved token no longer holds (revoked, expired); it is forgotten, and the
 * page says so and asks to log in again. @param {api.ApiError} error */
async function loggedOut(error) {
  // (the token refused is this page's: one another tab saved since is that tab's to keep)
  if (api.savedTokenIsOurs()) api.saveToken(null);
  showError(`${error.readable}\nPlease log in again.`);
  await route();
}

/** @param {string} hash */
function go(hash) {
  if (location.hash === hash) void route();
  else location.hash = hash;
}

// --- log in / register ----------------------------------------------------------------

function loginPage() {
  account.replaceChildren();
  const form = el("form", { class: "panel login", "aria-labelledby": "login-title" }, [
    el("h2", { id: "login-title" }, ["Play cards"]),
    el("p", {}, ["Log in, or pick a name and a password to register."]),
    el("label", { for: "username" }, ["Name"]),
    el("input", { id: "username", name: "username", autocomplete: "username", required: "", maxlength: "150" }),
    el("label", { for: "password" }, ["Password"]),
    el("input", { id: "password", name: "password", type: "password", autocomplete: "current-password", required: "", minlength: "8" }),
    el("div", { class: "buttons" }, [
      el("button", { type: "submit", name: "intent", value: "login" }, ["Log in"]),
      el("button", { type: "submit", name: "intent", value: "register", class: "secondary" }, ["Register"]),
    ]),
  ]);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const submitter = /** @type {SubmitEvent} */ (event).submitter;
    const intent = submitter instanceof HTMLButtonElement ? submitter.value : "login";
    const data = new FormData(form);
    const username = String(data.get("username") ?? "");
    const password = String(data.get("password") ?? "");
    void submitOnce(form, async () => {
      const token = intent === "register"
        ? (await api.register({ username, password })).token
        : (await api.logIn({ username, password })).token;
      api.saveToken(token);
      clearError();
      // the page asked for: a table's address stays the table's (logged out there, by a
      // revoked token or another tab, the player logs in again to go on with the match)
      go(location.hash.startsWith("#/") ? location.hash : "#/");
    });
  });
  main.replaceChildren(form);
  const first = form.querySelector("input");
  if (first) first.focus();
}

// --- the lobby -------------------------------------------------------------------------

/** @param {api.User} user */
function showAccount(user) {
  const out = el("button", { type: "button", class: "secondary" }, ["Log out"]);
  out.addEventListener("click", () =>
    void guarded(async () => {
      await api.logOut().catch(() => undefined);
      api.saveToken(null);
      go("#/");
    }),
  );
  const lobby = el("a", { href: "#/" }, ["Lobby"]);
  const password = el("a", { href: "#/password" }, ["Password"]);
  account.replaceChildren(lobby, el("span", { class: "who" }, [`${user.username}`]), password, out);
}

/** The form that changes the account's password. @param {number} turn the route that shows it */
async function passwordPage(turn) {
  const user = await api.me();
  if (turn !== routed) return;
  showAccount(user);
  const current = el("input", { id: "current-password", name: "password", type: "password", autocomplete: "current-password", required: "" });
  const form = el("form", { class: "panel login", "aria-labelledby": "password-title" }, [
    el("h2", { id: "password-title" }, ["Change your password"]),
    // (the name, unseen, lets a password manager file the new password under the account)
    el("input", { type: "hidden", name: "username", autocomplete: "username", value: user.username }),
    el("label", { for: "current-password" }, ["Password now"]),
    current,
    el("label", { for: "new-password" }, ["New password"]),
    el("input", { id: "new-password", name: "new_password", type: "password", autocomplete: "new-password", required: "", minlength: "8" }),
    el("p", { class: "help" }, ["Every device logged in to this account is logged out, but this one."]),
    el("div", { class: "buttons" }, [
      el("button", { type: "submit" }, ["Change password"]),
      el("a", { href: "#/" }, ["Cancel"]),
    ]),
  ]);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    void submitOnce(form, async () => {
      const sentWith = api.savedToken();
      const { token } = await api.changePassword({ password: String(data.get("password") ?? ""), new_password: String(data.get("new_password") ?? "") });
      // a log-out (or another account's log-in) meanwhile, here or in another tab, stands
      if (api.savedToken() !== sentWith) return;
      api.saveToken(token);
      if (turn !== routed) return; // another page was asked for meanwhile: it stays
      clearError();
      const done = el("section", { class: "panel login", "aria-labelledby": "password-title" }, [
        el("h2", { id: "password-title", tabindex: "-1" }, ["Password changed"]),
        el("p", {}, ["Your other devices must log in again."]),
        el("p", {}, [el("a", { href: "#/" }, ["Back to the lobby"])]),
      ]);
      main.replaceChildren(done);
      done.querySelector("h2")?.focus();
    });
  });
  main.replaceChildren(form);
  current.focus();
}

/** @param {string} value @param {string} text @param {boolean} selected */
function option(value, text, selected) {
  return el("option", selected ? { value, selected: "" } : { value }, [text]);
}

/**
 * A Golf preset's rules in a few words, for the lobby ("" for another game's).
 * @param {api.Schemas["GameRules"]} rules
 */
function rulesText(rules) {
  if (!("grid" in rules)) return "";
  const [rows, cols] = rules.grid.split("x").map(Number);
  return [
    `${(rows ?? 0) * (cols ?? 0)} cards each, ${rows} rows of ${cols}`,
    rules.jokers ? "jokers in the deck" : "no jokers",
    rules.opening_flips === "in_turn" ? "the opening flips in turn" : "",
    rules.final_turns === "none" ? "the hole ends as soon as a grid is all face up" : "when a grid is all face up, the others have one more turn",
  ].filter(Boolean).join("; ") + ".";
}

/** A match of any game against COMs: the game, its presets and COM levels from GET /api/games.
 * @param {api.Game[]} games @param {string} name the game shown */
function newMatchForm(games, name) {
  const game = games.find((g) => g.name === name) ?? games[0];
  if (!game) return el("p", {}, ["This service has no games."]);
  const golf = game.name === "golf";
  const choose = el("select", { id: "game", name: "game" }, games.map((g) => option(g.name, g.title, g.name === game.name)));
  const presetSelect = el("select", { id: "preset", name: "preset", "aria-describedby": "preset-rules" }, game.presets.map((p) => option(p.name, p.name, p.name === game.default_preset)));
  const presetRules = el("p", { id: "preset-rules", class: "help" });
  const opponents = el("select", { id: "opponents", name: "opponents" });
  const openSeats = el("select", { id: "open-seats", name: "open" });
  // pass-and-play (a game with the `local` rule): more players take turns on this device,
  // and the table has no open seat then
  const localOption = game.options?.find((o) => o.name === "local");
  const here = el("select", { id: "players-here", name: "here", "aria-describedby": "players-here-help" });
  const people = () => Number(here.value || 1);
  // the table has you, the COMs and the open seats: as many seats as the preset (else the
  // game) allows (GET /api/games: `seats`), so the counts offered are only those: any
  // number of COMs the open seats can make up to a table, then the open seats that make
  // one with the COMs chosen (a preset of 4 seats, 2 COMs: 1 open seat)
  const limits = () => game.presets.find((p) => p.name === presetSelect.value)?.seats ?? game.seats;
  /** @param {HTMLSelectElement} select @param {number} from @param {number} to @param {number} wanted */
  const fill = (select, from, to, wanted) => {
    const chosen = Math.min(Math.max(wanted, from), to);
    const counts = Array.from({ length: Math.max(to - from + 1, 0) }, (_, i) => from + i);
    select.replaceChildren(...counts.map((n) => option(String(n), String(n), n === chosen)));
  };
  const fillOpen = () => {
    const { min, max } = limits();
    const taken = people() + Number(opponents.value);
    if (people() > 1) fill(openSeats, 0, 0, 0);
    else fill(openSeats, Math.max(min - taken, 0), max - taken, Number(openSeats.value || 0));
    openSeats.disabled = people() > 1;
  };
  /** @param {boolean} reset back to the preset's usual table: you and its COMs */
  const fillSeats = (reset) => {
    const { min, max } = limits();
    fill(here, 1, localOption ? max : 1, reset ? 1 : people());
    const usual = (game.default_seats[presetSelect.value]?.length ?? min) - 1;
    // (with no open seat, the COMs make up the least table the players here do not)
    const least = people() > 1 ? Math.max(min - people(), 0) : 0;
    fill(opponents, least, max - people(), reset ? Math.max(usual, min - 1) : Number(opponents.value));
    if (reset) openSeats.replaceChildren(); // (the preset's usual table: no open seat)
    fillOpen();
  };
  const fillOpponents = () => {
    const preset = game.presets.find((p) => p.name === presetSelect.value);
    presetRules.textContent = preset ? rulesText(preset.rules) : "";
    presetRules.hidden = !presetRules.textContent;
    fillSeats(true);
  };
  // Hearts: how the cards are passed, the preset's way to begin with (across only at a
  // table of four: the service refuses it at another)
  const passingOption = game.options?.find((o) => o.name === "passing");
  const passingSelect = el("select", { id: "passing", name: "passing" });
  /** @param {boolean} [reset] back to the preset's way */
  const fillPassing = (reset = false) => {
    if (!passingOption) return;
    const players = 1 + Number(opponents.value) + Number(openSeats.value || 0);
    const rules = /** @type {Record<string, unknown>} */ (game.presets.find((p) => p.name === presetSelect.value)?.rules ?? {});
    const wanted = reset || !passingSelect.value ? String(rules.passing ?? "none") : passingSelect.value;
    const ways = /** @type {string[]} */ (passingOption.schema.enum ?? []).filter((way) => way !== "across" || players === 4);
    const chosen = ways.includes(wanted) ? wanted : ways[0];
    passingSelect.replaceChildren(...ways.map((way) => option(way, PASSING_WAYS[way] ?? way, way === chosen)));
  };
  fillOpponents();
  fillPassing(true);
  presetSelect.addEventListener("change", () => {
    fillOpponents();
    fillPassing(true);
  });
  opponents.addEventListener("change", () => {
    fillOpen();
    fillPassing();
  });
  openSeats.addEventListener("change", () => fillPassing());
  here.addEventListener("change", () => {
    fillSeats(false);
    fillPassing();
  });
  const round = capitalWord(game.round_name);
  const form = el("form", { class: "panel new-match", "aria-labelledby": "new-match" }, [
    el("h2", { id: "new-match" }, [`New ${game.title} match`]),
    el("label", { for: "game" }, ["Game"]),
    choose,
    el("p", {}, [game.description]),
    el("label", { for: "preset" }, ["Rules"]),
    presetSelect,
    presetRules,
    el("label", { for: "rounds" }, [`${round}s`]),
    // Golf plays its holes; a game to a target score may be played until a total reaches it
    golf
      ? el("input", { id: "rounds", name: "rounds", type: "number", min: "1", max: "18", value: "1", required: "" })
      : el("input", { id: "rounds", name: "rounds", type: "number", min: "1", max: "50", value: "1", placeholder: "until the target score", "aria-describedby": "rounds-help" }),
    golf ? "" : el("p", { id: "rounds-help", class: "help" }, [`Empty: ${round.toLowerCase()}s until a total reaches the target score.`]),
    ...(golf
      ? []
      : [
          el("label", { for: "target" }, ["Target score"]),
          el("input", { id: "target", name: "target", type: "number", min: "1", max: "1000", placeholder: "the rules' (100)", "aria-describedby": "target-help" }),
          el("p", { id: "target-help", class: "help" }, ["The match ends once a total reaches it. Empty: the rules' own."]),
        ]),
    ...(passingOption ? [el("label", { for: "passing" }, ["Passing"]), passingSelect] : []),
    ...(localOption
      ? [
          el("label", { for: "players-here" }, ["Players on this device"]),
          here,
          el("p", { id: "players-here-help", class: "help" }, ["Two or more: pass-and-play, the players take their turns on this device, handing it round (no open seats then)."]),
        ]
      : []),
    el("label", { for: "opponents" }, ["Computer opponents"]),
    opponents,
    el("label", { for: "level" }, ["Their level"]),
    el("select", { id: "level", name: "level" }, game.com_levels.map((level) => option(level, level, level === game.default_com_level))),
    el("label", { for: "open-seats" }, ["Open seats for other players"]),
    openSeats,
    el("label", { for: "turn-timeout" }, ["Seconds per turn (optional)"]),
    el("input", { id: "turn-timeout", name: "turn_timeout", type: "number", min: "10", max: "2592000", placeholder: "no limit", "aria-describedby": "turn-timeout-help" }),
    el("p", { id: "turn-timeout-help", class: "help" }, ["When a player's time runs out, the server moves for them."]),
    el("label", { class: "check" }, [el("input", { type: "checkbox", name: "hints", checked: "" }), " Hints"]),
    game.name === "ninety-nine" ? "" : el("label", { class: "check" }, [el("input", { type: "checkbox", name: "undo" }), " Practice: allow undo"]),
    el("div", { class: "buttons" }, [el("button", { type: "submit" }, ["Start the match"])]),
  ]);
  choose.addEventListener("change", () => {
    form.replaceWith(newMatchForm(games, choose.value));
    document.getElementById("game")?.focus();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const level = /** @type {ComSeatRequest["level"]} */ (String(data.get("level")));
    const players = Number(data.get("here") ?? 1) || 1;
    /** @type {SeatRequest[]} */
    const seats = Array.from({ length: players }, () => /** @type {SeatRequest} */ ({ type: "me" }));
    for (let i = 0; i < Number(data.get("opponents")); i += 1) seats.push({ type: "com", level });
    // open seats wait for other players to join (the match starts when the last one does)
    for (let i = 0; i < Number(data.get("open")); i += 1) seats.push({ type: "open" });
    const preset = String(data.get("preset"));
    const rounds = Number(data.get("rounds"));
    // (a game to a target score: no number of deals, until a total reaches it)
    const dealsAsked = String(data.get("rounds") ?? "").trim() ? { max_deals: rounds } : {};
    const target = String(data.get("target") ?? "").trim();
    const targetAsked = target ? { target_score: Number(target) } : {};
    const hints = data.get("hints") !== null;
    const undo = data.get("undo") !== null;
    const seconds = String(data.get("turn_timeout") ?? "").trim();
    /** @type {api.MatchCreate} */
    let request;
    if (game.name === "golf") {
      request = { game: "golf", preset: /** @type {GolfMatchCreate["preset"]} */ (preset), holes: rounds, seats, hints };
      if (undo) request.undo = true;
      if (players > 1) request.local = true;
    } else if (game.name === "hearts") {
      const passing = /** @type {NonNullable<HeartsMatchCreate["rules"]>["passing"]} */ (String(data.get("passing") ?? "") || undefined);
      request = { game: "hearts", preset: /** @type {HeartsMatchCreate["preset"]} */ (preset), rules: { ...dealsAsked, ...targetAsked, players: /** @type {3 | 4 | 5} */ (seats.length), ...(passing ? { passing } : {}) }, seats, hints };
      if (undo) request.undo = true;
    } else {
      request = { game: "ninety-nine", preset: /** @type {NinetyNineMatchCreate["preset"]} */ (preset), rules: { ...dealsAsked, ...targetAsked }, seats, hints };
    }
    if (seconds) request.turn_timeout = Number(seconds);
    void submitOnce(form, async () => {
      const detail = await api.createMatch(request);
      clearError();
      go(`#/match/${detail.id}`);
    });
  });
  return form;
}

/** Hearts' ways of passing, as the new-match form names them. @type {Record<string, string>} */
const PASSING_WAYS = {
  none: "no passing",
  rotate: "left, right, across, hold in turn (no across at 3 or 5)",
  left: "always to the left",
  right: "always to the right",
  across: "always across",
};

/** @param {string} word */
function capitalWord(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * A match's rounds in its game's words: what it calls one ("hole", "deal") and, for a game
 * played to a target score, whose `rounds` is only the most it can last, "at most ".
 * @param {api.MatchSummary} m @param {api.Game[]} games
 */
function roundWords(m, games) {
  const game = games.find((g) => g.name === m.game);
  return { name: game?.round_name ?? "round", most: game?.ends_at_target ? "at most " : "" };
}

/** How far a match has got: "hole 3 of 9", "deal 3 of at most 16".
 * @param {api.MatchSummary} m @param {api.Game[]} games */
function progressText(m, games) {
  const { name, most } = roundWords(m, games);
  return `${name} ${m.round} of ${most}${m.rounds}`;
}

/** How long a match will last, for a lobby: "9 holes", "at most 16 deals".
 * @param {api.MatchSummary} m @param {api.Game[]} games */
function lengthText(m, games) {
  const { name, most } = roundWords(m, games);
  return `${most}${m.rounds} ${name}${m.rounds === 1 ? "" : "s"}`;
}

/** The lobby's lists read this many matches at a time. */
const PAGE_SIZE = 20;

/**
 * A list of matches, a page at a time: the first page's items and, while the API's page
 * names a `next` one, "More…", which reads it and adds its items (the focus goes
 * to the first one added, so the keyboard goes on from where the list grew). The next
 * page is the one the API's link names (a cursor, `before`: a page number shifts as
 * matches join or leave the list, and "More…" skipped the one that took a place).
 * @param {api.MatchPage} first
 * @param {(m: api.MatchSummary) => HTMLLIElement | null} item a match's line (null: none)
 * @param {string} name what the list holds, for the button's label
 * @returns {HTMLElement[]} the list, then the button
 */
function pagedList(first, item, name) {
  const list = el("ul", {});
  const listed = new Set();
  /** @param {api.MatchPage} page @returns {HTMLLIElement[]} */
  const add = (page) => {
    // a match created meanwhile moves the others down a page: one already listed is not again
    const fresh = page.results.filter((m) => !listed.has(m.id));
    for (const m of fresh) listed.add(m.id);
    const items = fresh.map(item).filter((li) => li !== null);
    list.append(...items);
    return items;
  };
  add(first);
  const more = el("button", { type: "button", class: "secondary more", "aria-label": `More ${name}` }, ["More…"]);
  let next = first.next;
  more.hidden = !next;
  more.addEventListener("click", () =>
    void guarded(async () => {
      if (!next) return;
      more.disabled = true;
      /** @type {api.MatchPage} */
      let page;
      try {
        page = await api.matchesAt(next);
      } finally {
        more.disabled = false; // after an error, it can be tried again
      }
      next = page.next;
      const added = add(page);
      more.hidden = !next;
      const target = added[0]?.querySelector("a, button");
      if (target instanceof HTMLElement) target.focus();
    }),
  );
  return [list, more];
}

/** @param {api.MatchPage} page @param {api.User} user @param {api.Game[]} games */
function matchList(page, user, games) {
  const section = el("section", { class: "panel my-matches", "aria-labelledby": "mine" }, [
    el("h2", { id: "mine" }, ["Your matches"]),
  ]);
  if (page.results.length === 0 && !page.next) {
    section.append(el("p", {}, ["None yet: start one."]));
    return section;
  }
  /** @param {api.MatchSummary} m */
  const item = (m) => {
    const others = m.seats
      .filter((s) => s.username !== user.username)
      .map((s) => (s.kind === "com" ? `COM (${s.com_level ?? ""})` : (s.username ?? "open seat")));
    // a local match: several seats of yours, played on one device
    const here = m.seats.filter((s) => s.username === user.username).length;
    const table = [here > 1 ? `${here} players on this device` : "", others.length ? `against ${others.join(", ")}` : ""].filter(Boolean).join(", ");
    const state = m.status === "active" ? (m.your_turn ? "your turn" : "in play") : m.status;
    return el("li", { "data-status": m.status }, [
      el("a", { href: `#/match/${m.id}` }, [`${m.game} · ${m.preset}`]),
      ` ${table} · ${progressText(m, games)} · ${state}`,
    ]);
  };
  section.append(...pagedList(page, item, "of your matches"));
  return section;
}

/** Matches waiting for players that you could join: a Join button each.
 * @param {api.MatchPage} page @param {api.Game[]} games */
function openMatchList(page, games) {
  const section = el("section", { class: "panel open-matches", "aria-labelledby": "open-matches" }, [
    el("h2", { id: "open-matches" }, ["Open matches"]),
  ]);
  /** @param {api.MatchSummary} m */
  const joinable = (m) => m.your_seat === null && m.seats.some((s) => s.kind === "open");
  if (!page.results.some(joinable) && !page.next) {
    section.append(el("p", {}, ["No match is waiting for players now."]));
    return section;
  }
  /** @param {api.MatchSummary} m */
  const item = (m) => {
    if (!joinable(m)) return null;
    const players = m.seats.map((s) => (s.kind === "com" ? `COM (${s.com_level ?? ""})` : (s.username ?? "open seat")));
    const join = el("button", { type: "button", "data-match": m.id, "aria-label": `Join the ${m.game} match of ${players.join(", ")}` }, ["Join"]);
    join.addEventListener("click", () =>
      void guarded(async () => {
        join.disabled = true;
        try {
          await api.join(m.id);
        } finally {
          join.disabled = false; // after an error, it can be tried again
        }
        clearError();
        go(`#/match/${m.id}`);
      }),
    );
    return el("li", { "data-match": m.id }, [`${m.game} · ${m.preset} · ${players.join(", ")} · ${lengthText(m, games)} `, join]);
  };
  section.append(...pagedList(page, item, "open matches"));
  return section;
}

/** @param {api.Game[]} games */
function gameList(games) {
  return el("section", { class: "panel games", "aria-labelledby": "games" }, [
    el("h2", { id: "games" }, ["Games"]),
    el("ul", {}, games.map((g) =>
      el("li", {}, [
        el("strong", {}, [g.title]),
        ` (${g.seats.min}–${g.seats.max} players): ${g.presets.map((p) => p.name).join(", ")}`,
      ]),
    )),
  ]);
}

/** @param {number} turn the route that shows it */
async function lobbyPage(turn) {
  // newest first: an order no move changes, so "More" neither skips nor repeats a match
  // that moved on since the first page (by latest activity it would go to that page)
  /** @type {api.MatchListQuery} */
  const mineQuery = { mine: true, order: "created", page_size: PAGE_SIZE };
  /** @type {api.MatchListQuery} */
  const waitingQuery = { joinable: true, order: "created", page_size: PAGE_SIZE };
  const [user, games, mine, waiting] = await Promise.all([api.me(), api.games(), api.matches(mineQuery), api.matches(waitingQuery)]);
  if (turn !== routed) return; // another page was asked for meanwhile
  showAccount(user);
  main.replaceChildren(
    el("div", { class: "lobby" }, [
      newMatchForm(games, "golf"),
      matchList(mine, user, games),
      openMatchList(waiting, games),
      gameList(games),
    ]),
  );
}

// --- a table -------------------------------------------------------------------------------

/** @param {string} id @param {number} turn the route that shows it */
async function matchPage(id, turn) {
  const [user, detail] = await Promise.all([api.me(), api.match(id)]);
  // another page was asked for meanwhile: no table (it would follow the match unseen)
  if (turn !== routed) return;
  showAccount(user);
  const root = el("div", { class: "table-root" });
  const proof = el("section", { class: "panel verification", "aria-label": "Deal verification", hidden: "" });
  main.replaceChildren(root, proof);
  // a seated player may leave a match under way (not a lobby, nor a local match), and the
  // creator of a lobby may cancel it (a lobby is not left): the button is the page's,
  // outside the table (which is drawn again at every version). A lobby of yours that
  // fills while shown (the table reads the match again when a seat is taken) offers
  // "Leave" from then on, no more "Cancel"; once the match has ended, neither.
  /** @type {HTMLElement | null} */
  let offered = null;
  /** the match as last read: who else sits at it, which says what leaving does */
  let latest = detail;
  /** @type {"leave" | "cancel" | null} */
  let offeredKind = null;
  let ended = false;
  /** @param {api.MatchDetail} now */
  const offerLeave = (now) => {
    /** @type {"leave" | "cancel" | null} */
    let kind = null;
    if (!ended && now.your_seat !== null && now.status === "active" && !now.local) kind = "leave";
    else if (!ended && now.status === "waiting" && now.can_abort) kind = "cancel";
    if (kind === offeredKind) return;
    offered?.remove();
    offered = kind === "leave" ? leaveBar(id, () => leaveQuestion(latest)) : kind === "cancel" ? cancelBar(id) : null;
    offeredKind = kind;
    if (offered) root.after(offered);
  };
  offerLeave(detail);
  table =
    detail.game === "hearts" ? new HeartsTable(root, detail, showError, clearError)
    : detail.game === "ninety-nine" ? new NinetyNineTable(root, detail, showError, clearError)
    : new GolfTable(root, detail, showError, clearError);
  table.onDetail = (now) => {
    latest = now;
    offerLeave(now);
  };
  // once the match has ended there is nothing to leave; the API reveals the seed: check
  // the deals in this browser
  table.onEnded = () => {
    ended = true;
    offerLeave(detail);
    void showVerification(proof, id, (error) => void loggedOut(error));
  };
  table.onLoggedOut = (error) => void loggedOut(error);
  await table.start();
}

/**
 * What leaving a match means, asked before it is left (the browser's confirm): while
 * another player sits at it a COM plays your seat on; the last player to leave aborts it
 * (the API's leave, docs/api.md).
 * @param {api.MatchDetail} detail the match as last read
 */
function leaveQuestion(detail) {
  const others = detail.seats.some((s) => s.kind === "human" && s.index !== detail.your_seat);
  if (!others) {
    return "Leave this match?\n\nNo other player sits at this table, so leaving aborts the match: " +
      "it ends here, unfinished, and this page goes back to the lobby.";
  }
  return "Leave this match?\n\nA computer player (COM) will play your seat from now on, and this page " +
    "goes back to the lobby. You can still watch the rest of the match as a spectator by " +
    "opening its address again.";
}

/** What cancelling a lobby means, asked before it is aborted. */
const CANCEL_QUESTION =
  "Cancel this match?\n\nNo one can join it any more, and it no longer counts among your " +
  "unfinished matches. Anyone who has joined it sees it aborted.";

/**
 * A button that, once confirmed (the browser's confirm asks `question()`, as the match is
 * then), sends its request, then shows the lobby; a refusal is shown, and the button may be
 * pressed again.
 * @param {string} label @param {string} kind its class @param {() => string} question
 * @param {() => Promise<unknown>} send
 * @returns {HTMLElement}
 */
function confirmedBar(label, kind, question, send) {
  const button = el("button", { type: "button", class: `secondary ${kind}` }, [label]);
  button.addEventListener("click", () => {
    if (!window.confirm(question())) return;
    void guarded(async () => {
      button.disabled = true;
      try {
        await send();
      } finally {
        button.disabled = false; // after an error, it can be tried again
      }
      clearError();
      go("#/");
    });
  });
  return el("div", { class: "page-actions" }, [button]);
}

/** "Leave this match…": `POST /api/matches/{id}/leave` (a COM takes the seat, or the last
 * player aborts the match). @param {string} id @param {() => string} question */
const leaveBar = (id, question) => confirmedBar("Leave this match…", "leave-match", question, () => api.leave(id));

/** "Cancel this match…" on a lobby of yours: `POST /api/matches/{id}/abort`. @param {string} id */
const cancelBar = (id) => confirmedBar("Cancel this match…", "cancel-match", () => CANCEL_QUESTION, () => api.abort(id));

/** Stops the table shown, if any (it follows its match no more). */
function leaveTable() {
  if (table) {
    table.stop();
    table = null;
  }
}

async function route() {
  const turn = ++routed;
  leaveTable();
  if (!api.bindSavedToken()) {
    loginPage();
    return;
  }
  // (an id as any case spells it, and an address ending in "/", are a match's too)
  const matched = /^#\/match\/([0-9a-f-]{36})\/?$/i.exec(location.hash);
  if (!matched && location.hash.startsWith("#/match/")) {
    showError("This address names no match: here is the lobby.");
  }
  const failure = await guarded(async () => {
    if (matched && matched[1]) await matchPage(matched[1].toLowerCase(), turn);
    else if (location.hash === "#/password") await passwordPage(turn);
    else await lobbyPage(turn);
  });
  if (failure !== null && turn === routed && api.savedToken()) {
    leaveTable();
    if (failure instanceof api.ApiError && failure.problem?.code === "match_not_found") {
      // no reading again will find it: the way back is the lobby
      main.replaceChildren(el("p", {}, [el("a", { href: "#/" }, ["Back to the lobby"])]));
      return;
    }
    // the page could not be read (the service busy, the network down): the error says
    // why, and a button reads it again (the link home would not: the address is the same)
    const again = el("button", { type: "button" }, ["Try again"]);
    again.addEventListener("click", () => {
      clearError();
      void route();
    });
    main.replaceChildren(el("p", {}, ["This page could not be loaded. "]), again);
  }
}

// The skip link's "#main" is no route (the router would take it for the lobby, leaving the
// table): it moves the focus to the page's content, which stays as it is
document.querySelector("a.skip")?.addEventListener("click", (event) => {
  event.preventDefault();
  main.focus();
});

window.addEventListener("hashchange", () => {
  clearError();
  void route();
});
// a log-in or log-out in another tab: this one shows that account's page from the start
api.onAccountChange(() => {
  clearError();
  void route();
});
void route();
