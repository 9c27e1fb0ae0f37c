"""The game protocol: everything the platform (the match store, the API, the workers, the
admin, the verifier) may ask of a game, and all it may assume.

A game is one pure package that provides an object satisfying :class:`Game` and registers
it (``games/__init__.py``). The platform never imports a game package: it asks the
registry for ``get_game(match.game)`` and talks to the object it gets, with the game's
own rules, states, actions and events passed through opaquely. What crosses to the
platform in the other direction is JSON-ready data (dicts, lists, strings, numbers) and
the small dataclasses below.

Contract (checked for every registered game by ``tests/contract``):

* ``replay(events) == fold(evolve, events)``, and states, events and actions round-trip
  through their JSON forms;
* a seat's view, and every event as redacted for it, are the same whatever the cards it
  cannot see (``resample_hidden``) and whatever the seed;
* every action in ``legal_actions`` is accepted by ``decide``, anything else refused with
  a coded :class:`~cards.errors.EngineError`;
* ``com_action`` decides from the seat's view alone and always picks a legal action;
* every match ends (``summary(...).status`` becomes ``finished``) under legal play.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

HUMAN = "human"
COM = "com"
OPEN = "open"  # a seat waiting for a player (``cards.seating``)
Status = Literal["active", "finished", "aborted"]


@dataclass(frozen=True)
class Option:
    """One rules option: its name, what it means, and its JSON Schema (type and bounds)."""

    name: str
    doc: str
    schema: Mapping[str, Any]


@dataclass(frozen=True)
class GameInfo:
    """What a game is, for a lobby: its presets, options, seats and COM levels."""

    name: str  # the registry key, stored on every match ("golf")
    title: str
    description: str
    round_name: str  # what the game calls a round ("hole", "deal")
    min_seats: int
    max_seats: int
    presets: Sequence[str]
    default_preset: str
    options: Sequence[Option]
    com_levels: Sequence[str]  # weakest first
    default_com_level: str
    # other names of COM levels, accepted wherever a level is named ({"medium": "normal"})
    com_level_aliases: Mapping[str, str] = field(default_factory=dict)
    # a preset's table when a request names no seats: "me" (the requester), "com"
    default_seats: Mapping[str, Sequence[str]] = field(default_factory=dict)
    # phases that are a pause between rounds: the seats to act only say they are ready
    # (a match may bound how long the platform waits for them)
    pause_phases: Sequence[str] = ()
    # the boolean rules option that turns those pauses on, where the rules may turn them off
    pause_option: str | None = None
    # phases in which the seat to act goes on with a turn it began (Golf's opening flips,
    # the placement of the card it drew): its turn timer runs on; any other move of a
    # seat starts a new wait
    turn_goes_on_phases: Sequence[str] = ()
    # whether a match ends once a total reaches the rules' target, so that a summary's
    # ``rounds`` is only the most it can last (Hearts' deals), not the rounds it plays
    # (Golf's holes)
    ends_at_target: bool = False
    # the version of the game's engine, raised when a change makes an existing log fold to
    # another state (a finished Hearts match's ``end_reason``): a snapshot or cached state
    # written by another version is not read, the log is replayed instead
    engine: int = 1


@dataclass(frozen=True)
class Summary:
    """The game-neutral facts about a state the match store keeps beside its log."""

    status: Status
    round: int  # 1-based; 0 before the first deal
    rounds: int  # rounds planned, or the most the rules allow (``GameInfo.ends_at_target``)
    phase: str
    totals: tuple[int, ...]
    winners: tuple[int, ...]  # once finished


@dataclass(frozen=True)
class Schemas:
    """JSON Schemas for the API's documentation: ``components`` by name (names start with
    the game's title; they may refer to each other as ``#/components/schemas/<name>``) and
    which of them describe the game's rules, an action and a seat's view."""

    components: Mapping[str, Mapping[str, Any]]
    rules: str
    action: str
    view: str
    # examples for the docs: "actions" [(title, action)], "view", "act_result", "events", "hint"
    examples: Mapping[str, Any] = field(default_factory=dict)
    # the data of an event as a reader may see it: a union of "<event>_<type>" components
    event: str | None = None


@dataclass
class LogAudit:
    """What checking a log against the rules found: the faults (none when the log is
    sound), the state it reaches, and how many deals and reshuffles were recomputed."""

    faults: list[str] = field(default_factory=list)
    state: Any = None
    deals_checked: int = 0


class Game(Protocol):
    """A game, as the platform sees it. Every method is pure and deterministic."""

    info: GameInfo

    # --- rules ------------------------------------------------------------------------
    def rules(self, preset: str, overrides: Mapping[str, Any]) -> Any:
        """The preset's rules with ``overrides`` (JSON values by option name), validated:
        a ``RulesError`` names the option at fault."""

    def rules_to_json(self, rules: Any) -> dict[str, Any]: ...

    def rules_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def preset_rules(self, preset: str) -> dict[str, Any]:
        """A preset's rules, every option resolved, as JSON."""

    def seat_limits(self, rules: Any) -> tuple[int, int]:
        """The fewest and most seats ``rules`` can be played with."""

    def json_schemas(self) -> Schemas:
        """JSON Schemas of the game's rules, actions and views, for the API's documentation."""

    # --- playing ----------------------------------------------------------------------
    def start(self, rules: Any, players: Sequence[str], seed: bytes) -> list[Any]:
        """The first events of a match; ``players`` gives each seat's kind (HUMAN, COM, or
        OPEN: waiting for a player, see ``cards.seating``)."""

    def action_from_json(self, data: object) -> Any:
        """An action from its JSON form; ``MalformedActionError`` when it is not one."""

    def action_to_json(self, action: Any) -> dict[str, Any]: ...

    def legal_actions(self, state: Any, seat: int) -> list[Any]: ...

    def decide(self, state: Any, seat: int, action: Any) -> list[Any]:
        """The events ``action`` of ``seat`` causes (then the automatic ones), or an
        ``IllegalActionError`` with a code; the state is not changed."""

    def join(self, state: Any, seat: int) -> list[Any]:
        """The events of a player taking open ``seat`` (``seat_taken``), or a coded
        ``IllegalActionError``; once no seat is open the match can be played."""

    def hand_over(self, state: Any, seat: int) -> list[Any]:
        """The events of a player's ``seat`` handed to a COM (``seat_handed_over``: its
        player left, or staff handed it over), or a coded ``IllegalActionError``."""

    def abort(self, state: Any, reason: str) -> list[Any]:
        """The events that stop a running match now (the seed is revealed)."""

    def evolve(self, state: Any | None, event: Any) -> Any: ...

    def replay(self, events: Iterable[Any], state: Any | None = None) -> Any: ...

    # --- storing ----------------------------------------------------------------------
    def event_to_row(self, event: Any) -> tuple[str, int, dict[str, Any]]:
        """``(type, schema version, payload)`` as stored."""

    def event_from_row(self, type_: str, version: int, payload: Mapping[str, Any]) -> Any:
        """A stored event, upcast to the current version of its type."""

    def state_to_json(self, state: Any) -> dict[str, Any]: ...

    def state_from_json(self, data: Mapping[str, Any]) -> Any: ...

    # --- reading ----------------------------------------------------------------------
    def seats_to_act(self, state: Any) -> tuple[int, ...]: ...

    def summary(self, state: Any) -> Summary: ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see, with its legal actions."""

    def redact(self, event: Any, seat: int | None, *, match_ended: bool) -> dict[str, Any]:
        """An event's payload as ``seat`` may see it."""

    def acting_seat(self, event: Any) -> int | None:
        """The seat whose own move ``event`` records (taking its seat, a flip, a draw, a
        pass, a card played, a bid), or ``None`` for what the rules do (a deal, a trick
        taken, a score, the end) and for an undo (it names the seat whose move it takes
        back). Every event of a seat's action is that seat's or ``None``; the verifier
        checks that the log's actor for each names that seat."""

    def players(self, state: Any) -> tuple[str, ...]:
        """Each seat's kind (HUMAN, COM, or OPEN until a player takes it), as the log has
        it (a seat handed to a COM since keeps its kind here)."""

    def commitment(self, state: Any) -> str:
        """The public SHA-256 commitment to the match's seed."""

    def revealed_seed(self, state: Any) -> str | None:
        """The seed (hex) once the rules reveal it (the match has ended), else ``None``."""

    # --- computer players and hints ---------------------------------------------------
    def com_action(self, state: Any, seat: int, level: str, rng: random.Random) -> Any:
        """The move of a COM of ``level`` for ``seat``: decided from that seat's view alone."""

    def hint(self, state: Any, seat: int) -> dict[str, Any]:
        """A suggested move for ``seat`` with a readable reason:
        ``{"action": {...}, "reason": "..."}``."""

    # --- verifying --------------------------------------------------------------------
    def audit(self, events: Sequence[Any]) -> LogAudit:
        """Replay ``events`` through the rules, recomputing every derived event (deals and
        reshuffles from the seed, scores, totals, winners) and checking every action."""

    # --- testing ----------------------------------------------------------------------
    def resample_hidden(self, state: Any, seat: int | None, rng: random.Random) -> Any:
        """A state ``seat`` cannot tell from ``state``: every card it cannot see (and the
        seed) drawn afresh. The contract test checks views and COM choices against it."""
