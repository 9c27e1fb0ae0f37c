// @ts-check
// The reference client: log in, a lobby, and a table (Golf, in this version). One page,
// routed by the URL's hash: #/ is the lobby, #/match/<id> a table.

import * as api from "./api.js";
import { GolfTable, el } from "./golf.js";

/** @typedef {api.Schemas["GolfMatchCreate"]} GolfMatchCreate */
/** @typedef {api.Schemas["ComSeatRequest"]} ComSeatRequest */
/** @typedef {api.Schemas["SeatRequest"]} SeatRequest */

const main = /** @type {HTMLElement} */ (document.getElementById("main"));
const errors = /** @type {HTMLElement} */ (document.getElementById("errors"));
const account = /** @type {HTMLElement} */ (document.getElementById("account"));

/** @type {GolfTable | null} */
let table = null;

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
  button.addEventListener("click", clearError);
  return button;
}

function clearError() {
  errors.replaceChildren();
  errors.hidden = true;
}

/** Runs `work`; an API error becomes a readable message. @param {() => Promise<void>} work */
async function guarded(work) {
  try {
    await work();
  } catch (error) {
    if (error instanceof api.ApiError) {
      if (error.status === 401 && api.savedToken()) {
        api.saveToken(null);
        showError(`${error.readable}\nPlease log in again.`);
        await route();
        return;
      }
      showError(error.readable);
    } else {
      showError(error instanceof Error ? error.message : String(error));
    }
  }
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
    void guarded(async () => {
      const token = intent === "register"
        ? (await api.register({ username, password })).token
        : (await api.logIn({ username, password })).token;
      api.saveToken(token);
      clearError();
      go("#/");
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
  account.replaceChildren(lobby, el("span", { class: "who" }, [`${user.username}`]), out);
}

/** @param {api.Game} golf */
function newGolfForm(golf) {
  const presets = golf.presets.map((p) => el("option", { value: p.name }, [p.name]));
  const defaultPreset = presets.find((o) => o.value === golf.default_preset);
  if (defaultPreset) defaultPreset.selected = true;
  const levels = golf.com_levels.map((level) =>
    el("option", level === golf.default_com_level ? { value: level, selected: "" } : { value: level }, [level]),
  );
  const opponents = Array.from({ length: golf.seats.max - 1 }, (_, i) =>
    el("option", i === 1 ? { value: String(i + 1), selected: "" } : { value: String(i + 1) }, [String(i + 1)]),
  );
  const form = el("form", { class: "panel new-match", "aria-labelledby": "new-golf" }, [
    el("h2", { id: "new-golf" }, ["New Golf match"]),
    el("p", {}, [golf.description]),
    el("label", { for: "preset" }, ["Rules"]),
    el("select", { id: "preset", name: "preset" }, presets),
    el("label", { for: "holes" }, ["Holes"]),
    el("input", { id: "holes", name: "holes", type: "number", min: "1", max: "18", value: "1", required: "" }),
    el("label", { for: "opponents" }, ["Computer opponents"]),
    el("select", { id: "opponents", name: "opponents" }, opponents),
    el("label", { for: "level" }, ["Their level"]),
    el("select", { id: "level", name: "level" }, levels),
    el("label", { class: "check" }, [el("input", { type: "checkbox", name: "hints", checked: "" }), " Hints"]),
    el("label", { class: "check" }, [el("input", { type: "checkbox", name: "undo" }), " Practice: allow undo"]),
    el("div", { class: "buttons" }, [el("button", { type: "submit" }, ["Start the match"])]),
  ]);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const level = /** @type {ComSeatRequest["level"]} */ (String(data.get("level")));
    const count = Number(data.get("opponents"));
    /** @type {SeatRequest[]} */
    const seats = [{ type: "me" }];
    for (let i = 0; i < count; i += 1) seats.push({ type: "com", level });
    /** @type {GolfMatchCreate} */
    const request = {
      game: "golf",
      preset: /** @type {NonNullable<GolfMatchCreate["preset"]>} */ (String(data.get("preset"))),
      holes: Number(data.get("holes")),
      seats,
      hints: data.get("hints") !== null,
    };
    if (data.get("undo") !== null) request.undo = true;
    void guarded(async () => {
      const detail = await api.createMatch(request);
      clearError();
      go(`#/match/${detail.id}`);
    });
  });
  return form;
}

/** @param {api.MatchPage} page @param {api.User} user */
function matchList(page, user) {
  const section = el("section", { class: "panel my-matches", "aria-labelledby": "mine" }, [
    el("h2", { id: "mine" }, ["Your matches"]),
  ]);
  if (page.results.length === 0) {
    section.append(el("p", {}, ["None yet: start one."]));
    return section;
  }
  const list = el("ul", {});
  for (const m of page.results) {
    const others = m.seats
      .filter((s) => s.username !== user.username)
      .map((s) => (s.kind === "com" ? `COM (${s.com_level ?? ""})` : (s.username ?? "open seat")));
    const state = m.status === "active" ? (m.your_turn ? "your turn" : "in play") : m.status;
    list.append(
      el("li", { "data-status": m.status }, [
        el("a", { href: `#/match/${m.id}` }, [`${m.game} · ${m.preset}`]),
        ` against ${others.join(", ")} · round ${m.round} of ${m.rounds} · ${state}`,
      ]),
    );
  }
  section.append(list);
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
        g.name === "golf" ? "" : " · its table comes in a later version of this client",
      ]),
    )),
  ]);
}

async function lobbyPage() {
  const [user, games, mine] = await Promise.all([api.me(), api.games(), api.matches({ mine: true, page_size: 20 })]);
  showAccount(user);
  const golf = games.find((g) => g.name === "golf");
  main.replaceChildren(
    el("div", { class: "lobby" }, [
      golf ? newGolfForm(golf) : el("p", {}, ["This service has no Golf."]),
      matchList(mine, user),
      gameList(games),
    ]),
  );
}

// --- a table -------------------------------------------------------------------------------

/** @param {string} id */
async function matchPage(id) {
  const [user, detail] = await Promise.all([api.me(), api.match(id)]);
  showAccount(user);
  if (detail.game !== "golf") {
    main.replaceChildren(el("p", { class: "panel" }, [`This client shows Golf tables only for now; this match is ${detail.game}.`]));
    return;
  }
  const root = el("div", { class: "table-root" });
  main.replaceChildren(root);
  table = new GolfTable(root, detail, showError);
  await table.start();
}

async function route() {
  if (table) {
    table.stop();
    table = null;
  }
  if (!api.savedToken()) {
    loginPage();
    return;
  }
  const matched = /^#\/match\/([0-9a-f-]{36})$/.exec(location.hash);
  await guarded(async () => {
    if (matched && matched[1]) await matchPage(matched[1]);
    else await lobbyPage();
  });
}

window.addEventListener("hashchange", () => {
  clearError();
  void route();
});
void route();
