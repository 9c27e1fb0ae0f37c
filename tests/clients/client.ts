// What a frontend writes on the declarations openapi-typescript generates from the
// service's OpenAPI schema (docs/clients.md). `tsc --strict` checks it in `make test`
// (tests/clients/test_generated_clients.py): it builds every request body a frontend
// sends and reads every view field a table needs, with no cast and no `any`; each
// `@ts-expect-error` line is a request the schema must refuse to type-check.
import type { components, operations, paths } from "../../var/clients/api";

type Schemas = components["schemas"];
type Body<P extends keyof paths, M extends "post"> = paths[P][M] extends {
  requestBody?: { content: { "application/json": infer B } };
}
  ? B
  : never;
type Ok<O extends keyof operations, S extends keyof operations[O]["responses"]> =
  operations[O]["responses"][S] extends { content: { "application/json": infer R } } ? R : never;

// --- requests -------------------------------------------------------------------------

export const register: Body<"/api/accounts/register", "post"> = {
  username: "ada",
  password: "correct horse battery",
};
export const logIn: Body<"/api/auth/token", "post"> = { username: "ada", password: "pw" };

type MatchCreate = Body<"/api/matches", "post">;
export const golfMatch: MatchCreate = {
  game: "golf",
  preset: "nine-card",
  holes: 3,
  rules: { jokers: true, values: { K: 0 }, decks: 2, final_turns: "others_once" },
  seats: [{ type: "me" }, { type: "com", level: "hard" }, { type: "open" }],
  hints: false,
  turn_timeout: 3600,
  hole_pause_seconds: 60,
};
export const heartsMatch: MatchCreate = {
  game: "hearts",
  preset: "hearts-classic",
  rules: { passing: "rotate", target_score: 50, jack_of_diamonds: "minus_10", max_deals: null },
  seats: [{ type: "me" }, { type: "com", level: "easy" }, { type: "com", level: "normal" }, { type: "open" }],
};
export const ninetyNineMatch: MatchCreate = {
  game: "ninety-nine",
  rules: { premium_bids: "off", max_deals: 3 },
  seats: [{ type: "me" }, { type: "com", level: "normal" }, { type: "com", level: "hard" }],
  spectate: false,
};
export const join: Body<"/api/matches/{match_id}/join", "post"> = {};
export const abort: Body<"/api/matches/{match_id}/abort", "post"> = { reason: "we stop here" };

type Action = Body<"/api/matches/{match_id}/actions", "post">;
export const actions: Action[] = [
  { type: "reveal", position: 4 },
  { type: "draw" },
  { type: "take_discard" },
  { type: "swap", position: 0, expected_version: 12 },
  { type: "discard", flip: 3 },
  { type: "next" },
  { type: "undo" },
  { type: "pass", cards: ["QS", "AH", "KH"] },
  { type: "play", card: "2C" },
  { type: "bid", cards: ["AS", "6H", "KC"] },
  { type: "declare" },
  { type: "reveal" },
];
type ListQuery = NonNullable<operations["matches_list"]["parameters"]["query"]>;
export const lobby: ListQuery = { mine: true, status: "waiting", game: "hearts", page_size: 50 };
type EventsQuery = NonNullable<operations["matches_events_retrieve"]["parameters"]["query"]>;
export const poll: EventsQuery = { after: 41, limit: 100, wait: 25 };

// The schema refuses these.
export const invalid: unknown[] = [
  // @ts-expect-error: no such rule
  { game: "golf", rules: { jokerz: "yes" } } satisfies MatchCreate,
  // @ts-expect-error: a COM seat names its level
  { game: "hearts", seats: [{ type: "me" }, { type: "com" }] } satisfies MatchCreate,
  // @ts-expect-error: only a COM seat has a level
  { game: "golf", seats: [{ type: "me", level: "hard" }] } satisfies MatchCreate,
  // @ts-expect-error: a swap names its position
  { type: "swap" } satisfies Action,
  // @ts-expect-error: a card code, not a word
  { type: "bid", cards: ["ace", "six", "king"] } satisfies Action,
  // @ts-expect-error: Hearts has no six-card preset
  { game: "hearts", preset: "six-card" } satisfies MatchCreate,
  // @ts-expect-error: a level a game does not have
  { game: "golf", seats: [{ type: "com", level: "grandmaster" }] } satisfies MatchCreate,
];

// --- reading what the service answers ---------------------------------------------------

type Detail = Ok<"matches_retrieve", 200>;
type View = Schemas["GameView"];

/** One line a table shows, per game: every field it needs, narrowed by `game`. */
export function describe(view: View): string[] {
  const lines = [`v${view.version} seat ${view.seat ?? "spectator"} to act ${view.seats_to_act.join(",")}`];
  const timer = view.turn_deadline ? ` until ${new Date(view.turn_deadline).toISOString()}` : "";
  switch (view.game) {
    case "golf": {
      const cell = (card: string | null) => card ?? "??";
      lines.push(`hole ${view.hole}/${view.holes} ${view.phase}${timer} dealer ${view.dealer}`);
      view.grids.forEach((grid, seat) => {
        const rows = Array.from({ length: view.rows }, (_, r) =>
          grid.slice(r * view.cols, (r + 1) * view.cols).map(cell).join(" "),
        );
        lines.push(`${view.players[seat]} ${seat}: ${rows.join(" / ")} (${view.face_up_totals[seat]})`);
      });
      lines.push(`stock ${view.stock_size}, discard ${view.discard_top ?? "-"} (${view.discard.length})`);
      if (view.drawn) lines.push(`seat ${view.drawn.seat} drew ${view.drawn.card ?? "a card"} from ${view.drawn.source}`);
      if (view.final_turns) lines.push(`final turns: ${view.final_turns.turns_left} after seat ${view.final_turns.finisher}`);
      view.hole_scores.forEach((scores, hole) =>
        lines.push(`hole ${hole + 1}: ${scores.join(" ")} out: ${view.hole_finishers[hole] ?? "nobody"}`),
      );
      lines.push(`turn ${view.turns_in_hole}/${view.max_turns} flips left ${view.flips_left.join(",")}`);
      lines.push(`totals ${view.totals.join(" ")} ${view.end_reason ?? ""} winners ${view.winners.join(",")}`);
      lines.push(`undo ${view.undo_available} seen ${view.seen.map((s) => `${s.seat}:${s.position}:${s.card}`)}`);
      lines.push(`stock seen ${view.stock_seen.length} drawn seen ${view.drawn_seen} last ${view.last_hole_grids.length}`);
      break;
    }
    case "hearts": {
      lines.push(`deal ${view.deal}/${view.deals} ${view.phase}${timer} passing ${view.direction}`);
      lines.push(`hand ${view.hand.join(" ")} sizes ${view.hand_sizes.join(",")} removed ${view.removed.join(" ")}`);
      view.hands.forEach((hand, seat) => lines.push(`${seat}: ${hand ? hand.join(" ") : "hidden"}`));
      if (view.pass) lines.push(`passed ${view.pass.cards.join(" ")} to ${view.pass.to}, got ${view.pass.received?.join(" ") ?? "?"} from ${view.pass.from ?? "?"}`);
      lines.push(`chosen ${view.passes_chosen.map((c) => (c ? "y" : "n")).join("")}`);
      lines.push(`trick led by ${view.leader ?? "-"}: ${view.trick.map((p) => `${p.seat}:${p.card}`).join(" ")}, to act ${view.to_act ?? "-"}`);
      view.tricks.forEach((t) => lines.push(`trick ${t.trick} from ${t.leader}: ${t.cards.join(" ")} to ${t.winner} (${t.points})`));
      lines.push(`taken ${view.taken.join(" ")} jack ${view.jack ?? "-"} broken ${view.hearts_broken}`);
      if (view.last_deal) lines.push(`last deal ${view.last_deal.deal}: ${view.last_deal.scores.join(" ")} moon ${view.last_deal.moon ?? "none"}`);
      lines.push(`totals ${view.totals.join(" ")} of ${view.target_score} (${view.deal_scores.length} deals) winners ${view.winners.join(",")}`);
      lines.push(`undo ${view.undo_available} seen ${view.seen.map((s) => `${s.seat}:${s.card}`)}`);
      break;
    }
    case "ninety-nine": {
      lines.push(`deal ${view.deal}/${view.most_deals} ${view.phase}${timer} to ${view.target_score}, premium ${view.premium_bids}`);
      lines.push(`dealer ${view.dealer} eldest ${view.eldest} trumps ${view.trumps ?? "none"}`);
      view.hands.forEach((hand, seat) =>
        lines.push(`${seat}: ${hand ? hand.join(" ") : `${view.hand_sizes[seat]} cards`} dealt ${view.dealt[seat]?.length ?? "?"} bid ${view.has_bid[seat]} ${view.bid_cards[seat]?.join(" ") ?? ""} contract ${view.contracts[seat] ?? "?"} won ${view.tricks_won[seat]}`),
      );
      lines.push(`premium ${view.premium.kind ?? "-"} by ${view.premium.seat ?? "-"} shown ${view.premium.shown} calls ${view.premium.calls.join(",")}`);
      lines.push(`trick from ${view.trick.leader}: ${view.trick.plays.map((p) => `${p.seat}:${p.card}`).join(" ")}`);
      view.tricks.forEach((t) => lines.push(`trick ${t.trick} to ${t.winner}`));
      if (view.last_deal) lines.push(`last deal: made ${view.last_deal.made.join(",")} points ${view.last_deal.points.map((p) => p.total).join(" ")}`);
      lines.push(`totals ${view.totals.join(" ")} (${view.deal_scores.length} deals) winners ${view.winners.join(",")}`);
      break;
    }
  }
  lines.push(`auto moves ${(view.auto_moves ?? []).join(",")}`);
  return lines;
}

/** A match's view narrows by its game, like any view. */
export function yourHand(detail: Detail): string {
  const view = detail.view;
  if (view.game === "hearts") return view.hand.join(" ");
  if (view.game === "golf") return view.grids[view.seat ?? 0]?.map((c) => c ?? "??").join(" ") ?? "";
  return view.hands[view.seat ?? 0]?.join(" ") ?? `${view.hand_sizes.length} hands`;
}

/** The legal actions go back as they are: each is an action request. */
export function firstMove(detail: Detail): Action | undefined {
  const move: Action | undefined = detail.view.legal_actions[0];
  return move === undefined ? undefined : { ...move, expected_version: detail.version };
}

export function summary(detail: Detail): string {
  const seats = detail.seats.map((s) => `${s.index}:${s.kind}${s.com_level ? `(${s.com_level})` : ""}`);
  const rules = detail.game === "golf" && "grid" in detail.rules ? detail.rules.grid : detail.preset;
  return `${detail.game}/${detail.preset} ${detail.status} round ${detail.round}/${detail.rounds} ${seats.join(" ")} ${rules} your turn ${detail.your_turn} seed ${detail.seed ?? detail.seed_commitment}`;
}

export function lobbyLines(page: Ok<"matches_list", 200>, games: Ok<"games_list", 200>): string[] {
  const names = games.map((g) => `${g.name}: ${g.presets.map((p) => p.name).join(",")} levels ${g.com_levels.join(",")}`);
  return [...names, ...page.results.map((m) => `${m.id} ${m.game} ${m.status} ${m.your_turn}`), `${page.count} in all`];
}

/** An event narrowed by its type: its data is that type's payload. */
export function eventLine(e: Schemas["Event"]): string {
  const head = `${e.seq} by ${e.actor} (seat ${e.seat ?? "-"}) at ${e.created_at}`;
  switch (e.type) {
    case "card_drawn":
      return `${head}: seat ${e.data.seat} drew ${e.data.card ?? "a card"} from ${e.data.source}`;
    case "card_played":
      return `${head}: seat ${e.data.seat} played ${e.data.card}`;
    case "trick_won":
      return `${head}: trick ${e.data.trick} to seat ${e.data.winner}`;
    case "bid_made":
      return `${head}: seat ${e.data.seat} bid ${e.data.cards.map((c) => c ?? "??").join(" ")}`;
    case "match_finished":
      return `${head}: winners ${e.data.winners.join(",")}, seed ${e.data.seed ?? "hidden"}`;
    default:
      return `${head}: ${e.type} ${JSON.stringify(e.data)}`;
  }
}

export function history(page: Ok<"matches_events_retrieve", 200>): string[] {
  return page.events.map(eventLine);
}

export function problemText(problem: Schemas["Problem"]): string {
  const fields = Object.entries(problem.errors ?? {}).map(([field, messages]) => `${field}: ${messages.join(" ")}`);
  return [`${problem.title} (${problem.code}, ${problem.status})`, problem.detail, ...fields].join("\n");
}

export function hintText(hint: Ok<"matches_hint_retrieve", 200>): string {
  return `${hint.action.type}: ${hint.reason}`;
}
