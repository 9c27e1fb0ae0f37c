"""The web client against a fake API, in headless Chromium (tests/web/client_faults.mjs):
what a live service does only now and then (a page on plain HTTP, the server moving on
while a choice is open, a token revoked between two clicks, a slow read overtaken, more
matches than a page) made to happen every time, in a few seconds, with no server. The
page's files are web/'s, served with the service's Content-Security-Policy."""

from __future__ import annotations

import re

import pytest

from config.web import WEB_CLIENT_POLICY
from tests.web.test_golf_browser import play

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
LOGGED_OUT = "Authentication failed: Invalid token.\nPlease log in again."
RECONNECTING = "Connection lost: reconnecting…"


@pytest.fixture(scope="module")
def scenarios() -> dict:
    summary, seconds = play("client_faults.mjs", WEB_CLIENT_POLICY)
    print(f"browser against a fake API: {seconds:.1f} s")
    return summary["scenarios"]


def seen_in(scenarios: dict, name: str) -> dict:
    """What the page did in one scenario (which ran to its end, the console clean)."""
    seen = scenarios[name]
    assert seen["error"] is None, seen["error"]
    assert seen["consoleErrors"] == [], seen["consoleErrors"]
    return seen


def test_a_move_goes_from_a_page_on_plain_http_and_a_failure_is_shown(scenarios):
    seen = seen_in(scenarios, "plainHttp")
    # no secure context (http at a host other than localhost): no crypto.randomUUID
    assert seen["context"] == {"secure": False, "randomUUID": "undefined"}
    # yet each move went, with a random v4 UUID of its own as its Idempotency-Key
    first, second = seen["keys"]
    assert UUID4.match(first) and UUID4.match(second) and first != second, seen["keys"]
    assert seen["moved"]["version"] == 11 and seen["moved"]["busy"] == "false"
    # a move that failed in the page (its answer unreadable): drawn again, said, offered again
    failed = seen["failed"]
    assert failed["version"] == 11 and failed["busy"] == "false", failed
    assert failed["message"].startswith("This page failed: "), failed
    assert seen["stockOffered"] == 1


def test_a_move_being_sent_is_said_until_its_answer_comes(scenarios):
    """The table only stopped offering moves: a slow answer looked like a dead click."""
    seen = seen_in(scenarios, "sendingShown")
    assert seen["before"]["ariaBusy"] == "false" and seen["before"]["cursor"] == "auto"
    sending = seen["sending"]
    assert sending["prompt"] == "Sending your move…" and sending["clickable"] == 0, sending
    assert sending["ariaBusy"] == "true" and sending["cursor"] == "progress", sending
    answered = seen["answered"]
    assert answered["version"] == 11 and answered["ariaBusy"] == "false", answered
    assert answered["prompt"].startswith("Your turn: draw"), answered
    assert answered["cursor"] == "auto", answered


def test_an_error_answer_without_a_problem_is_said_in_a_sentence(scenarios):
    """A proxy's page (the service down, or restarting) was shown as "HTTP 502"."""
    seen = seen_in(scenarios, "statusWithoutProblem")
    assert seen["badGateway"] == "The service is unavailable right now; try again in a moment."
    assert seen["serverError"] == (
        "The service failed on this request (error 500); try again in a moment."
    )


def test_a_choice_and_a_hint_go_when_the_server_moves_on(scenarios):
    seen = seen_in(scenarios, "staleChoice")
    choosing = seen["choosing"]
    assert choosing["prompt"] == "Choose a face-down card of yours to turn up."
    assert choosing["hint"] and "Cancel" in choosing["toolbar"]
    # the next hole dealt, not by this page: its flips asked for, no choice or hint left
    dealt = seen["dealt"]
    assert dealt["phase"] == "flips" and dealt["clickable"] == 6, dealt
    assert dealt["prompt"].startswith("Turn up 2 more of your cards"), dealt
    assert dealt["hint"] is None and dealt["hinted"] == 0 and "Cancel" not in dealt["toolbar"]
    # while every seat flips at once, another seat's flip leaves the hint standing
    flipped = seen["otherFlipped"]
    assert flipped["version"] == 12 and flipped["hint"] == "Hint: Turn up card 4."
    assert flipped["hinted"] == 1


@pytest.mark.parametrize("request_made", ["Move", "Hint", "History"])
def test_a_401_on_a_players_request_logs_out(scenarios, request_made):
    seen = seen_in(scenarios, f"loggedOut{request_made}")
    assert seen["refused"] == 1
    assert seen["token"] is None and seen["loginForm"] == 1, seen
    assert seen["message"] == LOGGED_OUT, seen


def test_logging_in_again_at_a_table_shows_the_table(scenarios):
    """Logged out at a table (a 401, a log-out in another tab), a player who logged in
    again was taken to the lobby, and had to find the match again."""
    seen = seen_in(scenarios, "logInAgain")
    assert seen["loggedOut"] == AT_THE_TABLE
    assert seen == {**seen, "hash": AT_THE_TABLE, "table": 1, "lobby": 0}, seen


def test_a_past_version_read_too_late_is_not_shown(scenarios):
    seen = seen_in(scenarios, "historyRace")
    # answered after "Back to live": the table stays live, its moves offered
    live = seen["afterLive"]
    assert live["history"] == "false" and live["version"] == 10 and live["clickable"] == 2
    # answered after a later pick: the later one stays
    overtaken = seen["overtaken"]
    assert overtaken["history"] == "true" and overtaken["version"] == 7, overtaken


def test_the_lobby_reaches_matches_past_its_first_page(scenarios):
    seen = seen_in(scenarios, "lobbyPages")
    assert seen["first"] == {
        "mine": 20,
        "yourTurn": 0,
        "open": 20,
        "more": ["More of your matches", "More open matches"],
    }
    # the match waiting for your move, on page 2, is reached; "More" goes at the end; the
    # open match joined meanwhile made no other skipped (a page number did: the next page
    # began one further on)
    assert seen["after"] == {"mine": 25, "yourTurn": 1, "open": 22, "more": []}
    # newest first, an order no move changes, from the cursor the API's `next` names
    assert seen["pages"][2:] == [
        "?mine=true&order=created&page_size=20&before=00000000-0000-4000-8000-000000000019",
        "?joinable=true&order=created&page_size=20&before=00000000-0000-4000-8000-000000000119",
    ]
    assert seen["focused"] and seen["focused"].startswith("golf · six-card")  # the first added
    # how far a match has got, and how long it lasts, in its game's words: a game played
    # to a target score lasts at most its `rounds`
    mine, waiting = seen["texts"]
    assert mine == [
        "hearts · hearts against COM (easy) · deal 3 of at most 16 · finished",
        "golf · six-card against COM (easy) · hole 2 of 9 · finished",
        "golf · six-card against COM (easy) · hole 1 of 1 · finished",
    ]
    assert waiting == [
        "hearts · hearts · bob0, open seat · at most 16 deals Join",
        "golf · six-card · bob1, open seat · 9 holes Join",
        "golf · six-card · bob2, open seat · 1 hole Join",
    ]


def test_a_card_seen_before_an_undo_is_named(scenarios):
    # Golf: a button's label is its whole name, so the card seen is in it, as on the card
    golf = seen_in(scenarios, "golfSeen")
    assert golf["label"] == "your card 2, face down (seen before an undo: 9 of hearts)"
    assert golf["text"] == "(9 of hearts)" and golf["tag"] == "BUTTON"
    # Hearts: the cards seen, back in a COM's hand among its backs, said under that hand
    hearts = seen_in(scenarios, "heartsSeen")
    assert hearts["texts"] == ["Seen before an undo: the 9 of hearts, the 2 of diamonds."]
    assert hearts["seats"] == ["1"]


def test_a_golf_grids_points_are_said_for_what_they_are(scenarios):
    """Beside a grid whose hole scored 0 (two matched columns) stood "20 points showing": the
    view's face_up_totals counts a matched line at full value, it is not the score."""
    seen = seen_in(scenarios, "golfPoints")
    # in play (COM 1's grid, then yours): the face-up cards, said to be before the matches
    assert seen["columns"] == [
        " · face up: 4 points (before matched columns)",
        " · face up: 16 points (before matched columns)",
    ]
    assert seen["none"] == [" · face up: 4 points", " · face up: 16 points"]  # nothing matches
    # the hole over: its score, not the 40 and 20 points face up
    assert seen["over"] == [" · this hole: 4 points", " · this hole: 0 points"]


def test_the_cards_seen_on_top_of_the_golf_stock_are_shown_and_named(scenarios):
    seen = seen_in(scenarios, "golfStockSeen")
    # the stock's button names them, top first, as a card seen is named on a grid
    assert seen["label"] == (
        "stock, 32 cards (seen before an undo: the 9 of hearts next, then the 2 of clubs)"
        ": draw a card"
    )
    assert seen["tag"] == "BUTTON" and seen["byLabel"] == 1
    # and they are shown under it
    assert seen["text"].splitlines() == [
        "Stock (32)",
        "Seen before an undo: the 9 of hearts next, then the 2 of clubs.",
    ]


def test_the_prompt_and_the_move_log_stay_on_the_page_their_text_changed(scenarios):
    seen = seen_in(scenarios, "liveRegions")
    start, moved, other = seen["start"], seen["moved"], seen["otherMoved"]
    assert start["samePrompt"] and start["sameLog"] and start["log"] == []
    assert start["prompt"].startswith("You hold the king of diamonds: ")
    swapped = "You put the king of diamonds at card 1 and discarded the queen of hearts."
    # this page's move: the same live regions, never off the page, their text new
    assert moved == {
        "version": 11,
        "samePrompt": True,
        "sameLog": True,
        "left": [],
        "prompt": "Waiting for COM 1 (easy)…",
        "log": [swapped],
    }
    # another seat's move, from the stream: the same again
    assert other == {
        "version": 12,
        "samePrompt": True,
        "sameLog": True,
        "left": [],
        "prompt": "Your turn: draw from the stock, or take the top card of the discard pile.",
        "log": [
            swapped,
            "COM 1 (easy) put the 9 of spades at card 3 and discarded the 2 of diamonds.",
        ],
    }


def test_the_skip_link_focuses_the_game_and_leaves_the_table_where_it_is(scenarios):
    seen = seen_in(scenarios, "skipLink")
    assert seen["hash"] == "#/match/11111111-2222-4333-8444-555555555555", seen
    assert seen["table"] == 1 and seen["focused"] == "main", seen


# --- Hearts and Ninety-Nine tables --------------------------------------------------------------
def test_the_keyboard_stays_on_the_table_after_a_card_is_played(scenarios):
    seen = seen_in(scenarios, "focusAfterPlay")
    # the card played is no button once sent: the prompt holds the keyboard meanwhile
    assert seen["busy"] == {"tag": "P", "inTable": True}
    # and the first card offered when the turn comes back
    assert seen["yourTurnAgain"] == {"tag": "BUTTON", "inTable": True}


def test_the_jack_of_diamonds_is_named_only_where_the_rules_count_it(scenarios):
    seen = seen_in(scenarios, "jackOfDiamonds")
    assert "jack" not in seen["off"]
    assert "took the jack of diamonds (\u221210)" in seen["counted"]  # (a minus sign)


def test_a_hint_stands_when_only_other_seats_chose_meanwhile(scenarios):
    seen = seen_in(scenarios, "hintWhileOthersPass")
    assert seen["state"]["version"] == 11
    assert seen["state"]["hint"] == "Hint: Pass the queen of spades and two high hearts."
    assert seen["chosen"] == 1  # the card picked before stays picked


def test_a_pass_the_timer_chose_ends_the_choice_and_says_so(scenarios):
    seen = seen_in(scenarios, "timerPassedForYou")
    assert seen["state"]["hint"] is None and seen["state"]["hinted"] == 0
    assert seen["log"][-1].endswith("(your time ran out: the server chose)"), seen["log"]


def test_the_premium_prompt_offers_only_the_calls_there_are(scenarios):
    seen = seen_in(scenarios, "premiumPrompt")
    assert seen["prompt"] == "A premium bid? Reveal (your hand shown too, 60 more), or pass."
    assert not [b for b in seen["toolbar"] if b.startswith("Declare")]


def test_a_hint_is_not_shown_on_a_past_version(scenarios):
    seen = seen_in(scenarios, "hintInHistory")
    assert seen["past"]["history"] == "true"
    assert seen["past"]["hint"] is None and seen["past"]["hinted"] == 0
    assert seen["live"]["hint"] == "Hint: Play the king of diamonds."  # back to the table now


def test_the_trick_just_won_is_said_until_the_next_begins(scenarios):
    (line,) = seen_in(scenarios, "lastTrick")["last"]
    assert "king of diamonds" in line and line.endswith("you took it.")


def test_the_hint_is_one_live_region_kept_on_the_page(scenarios):
    seen = seen_in(scenarios, "hintRegion")
    assert seen == {**seen, "same": True, "role": "status"}
    assert seen["text"] == "Hint: Pass the queen of spades and two high hearts."


# --- Ninety-Nine: a refused move, the move log, the live contract, the last deal -----------------
@pytest.mark.parametrize("kind", ["Rules", "Down", "Network"])
def test_a_refused_bid_keeps_the_cards_chosen_and_the_hint(scenarios, kind):
    seen = seen_in(scenarios, f"moveRefused{kind}")
    assert seen["posts"] == 2
    before, after = seen["before"], seen["after"]
    assert sorted(before["chosen"]) == ["8C", "JH", "QD"], before
    assert after["message"], after  # the refusal said
    # the bid is ready to go again: the same three cards, the button, the hint
    assert sorted(after["chosen"]) == ["8C", "JH", "QD"], after
    assert after["send"] == {"text": "Bid 5 tricks", "disabled": False}, after
    assert after["hint"] == before["hint"] and after["hint"].startswith("Hint: Lay aside"), after
    assert sorted(after["hinted"]) == ["8C", "JH", "QD"], after
    # sent again, it goes: the message of the refusal, no longer true, is gone
    assert seen["sentAgain"]["version"] == 11 and seen["sentAgain"]["message"] is None, seen


def test_a_pass_refused_as_stale_keeps_what_still_holds_at_the_table_read_again(scenarios):
    seen = seen_in(scenarios, "passStale")
    assert seen["version"] == 11 and seen["message"], seen
    # the jack of clubs is in no pass offered at 11: it goes, the other two stay
    assert sorted(seen["chosen"]) == ["5C", "QS"], seen
    assert seen["send"] == {"text": "Pass these three cards", "disabled": True}, seen
    assert seen["hint"] == "Hint: Pass the queen of spades and two high hearts.", seen


def test_another_seats_move_just_before_the_pages_own_is_logged_once_in_order(scenarios):
    seen = seen_in(scenarios, "logOvertaken")
    assert seen["log"] == [
        "COM 1 (easy) laid three bid cards aside.",
        "You laid three bid cards aside.",
    ], seen
    assert seen["reads"] == ["?after=10&limit=1"], seen


def test_the_contract_of_the_bid_cards_picked_is_one_live_region_kept_on_the_page(scenarios):
    seen = seen_in(scenarios, "contractRegion")
    assert seen == {
        **seen,
        "same": True,
        "role": "status",
        "text": "Bid cards: 3 + 2 = a contract of 5 tricks",
        "contract": "5",
    }


def test_the_last_deal_shows_the_bid_cards_shown_and_a_missed_contract(scenarios):
    lines = {line["seat"]: line for line in seen_in(scenarios, "lastDealShown")["lines"]}
    assert lines["0"]["text"].startswith("You: 5 tricks, made 5 tricks;"), lines
    assert lines["0"]["bid"] == ["8C", "JH", "QD"]
    assert lines["0"]["label"] == "Your bid cards, deal 1: 3 + 2 + 0 = 5 tricks"
    # a revealer who missed: the contract named, the bid cards shown
    assert lines["2"]["text"].startswith(
        "COM 2 (easy) (revealed): 2 tricks, missed a contract of 3 tricks;"
    ), lines
    assert lines["2"]["bid"] == ["7C", "8D", "9D"]
    # a bid that stays face down: nothing of it
    assert lines["1"]["text"].startswith("COM 1 (easy): 2 tricks, missed;"), lines
    assert lines["1"]["bid"] == []


def test_bid_cards_laid_aside_are_captioned(scenarios):
    """Your three bid cards were drawn as a second row of your hand, uncaptioned."""
    seen = seen_in(scenarios, "bidCaption")
    assert seen["bids"] == [
        {
            "seat": "1",
            "caption": "COM 1 (easy)'s bid cards: 3 + 0 + 0 = 3 tricks",
            "visible": True,
            "cards": ["7C", "8D", "9D"],
        },
        {
            "seat": "0",
            "caption": "Your bid cards: 3 + 3 + 2 = 8 tricks",
            "visible": True,
            "cards": ["6C", "TC", "6H"],
        },
    ]


def test_ninety_nine_says_what_each_seat_does_in_good_english(scenarios):
    seen = seen_in(scenarios, "ninetyNineTexts")
    assert seen["bidding"]["facts"] == "No trumps · You lead first", seen
    assert seen["bidding"]["marks"] == [" · bidding", " · bidding"], seen
    assert seen["calling"] == [" · deciding on a premium bid"], seen
    assert seen["over"] == "No trick: the match is over.", seen


def test_the_last_trick_of_a_deal_is_said_in_the_next(scenarios):
    (line,) = seen_in(scenarios, "lastTrickOfDeal")["last"]
    assert line == (
        "Last trick of deal 1 (COM 1 (easy): 10 of spades, COM 2 (easy): queen of hearts,"
        " you: 9 of spades): COM 1 (easy) took it."
    )


def test_the_last_trick_of_a_hearts_deal_is_said_in_the_next_and_the_moon_in_a_sentence(
    scenarios,
):
    seen = seen_in(scenarios, "heartsLastTrickOfDeal")
    assert seen["last"] == [
        "Last trick of deal 1 (COM 1 (easy): king of spades, COM 2 (easy): 3 of hearts,"
        " COM 3 (easy): queen of spades, you: ace of hearts): COM 1 (easy) took it."
    ], seen
    assert seen["moon"] == "Deal 1: you shot the moon.", seen


def test_ninety_nine_says_your_bid_is_shown(scenarios):
    assert seen_in(scenarios, "ninetyNineYourBidShown")["log"][-1] == (
        "Your bid is shown: 5 tricks."
    )


def test_the_history_slider_keeps_the_keyboard(scenarios):
    seen = seen_in(scenarios, "historyKeys")
    assert seen["onSlider"] == "history" and seen["afterLive"] == "history", seen


# --- leaving a match ----------------------------------------------------------------------------
LEAVE = "Leave this match\u2026"
AT_THE_TABLE = "#/match/11111111-2222-4333-8444-555555555555"


def test_a_player_leaves_a_match_after_confirming_and_returns_to_the_lobby(scenarios):
    seen = seen_in(scenarios, "leaveMatch")
    # a real button, on the page around the table (not in it: the table is drawn again)
    assert seen["shown"]["button"] == {
        "text": LEAVE,
        "type": "button",
        "disabled": False,
        "visible": True,
        "inTable": False,
    }
    # the browser's confirm, in plain words, each time
    for dialog in seen["dialogs"]:
        assert dialog["type"] == "confirm", dialog
        message = dialog["message"]
        assert "COM" in message and "play your seat from now on" in message, message
        assert "as a spectator" in message and "abort" not in message, message
    assert len(seen["dialogs"]) == 2
    # dismissed: nothing sent, the table still shown
    dismissed = seen["dismissed"]
    assert dismissed["leaves"] == [] and dismissed["hash"] == AT_THE_TABLE, dismissed
    assert dismissed["table"] == 1 and dismissed["button"]["disabled"] is False, dismissed
    # accepted: one POST leave, with the token, then the lobby
    accepted = seen["accepted"]
    assert accepted["leaves"] == ["POST Bearer a-token"], accepted
    assert accepted["hash"] == "#/" and accepted["lobby"] == 1 and accepted["table"] == 0
    assert accepted["message"] is None, accepted


def test_the_leave_confirmation_says_what_leaving_does_at_this_match(scenarios):
    """It said a COM would play the seat, and the match would be aborted "if you are the
    last player left", at a match where no other player sat: leaving aborted it."""
    seen = seen_in(scenarios, "leaveQuestion")
    for alone in (seen["withComs"], seen["bobLeft"]):
        assert "No other player sits at this table" in alone, alone
        assert "leaving aborts the match" in alone and "play your seat" not in alone, alone
    # bob there: a COM plays your seat on; bob gone (seat_handed_over), you are the last
    with_bob = seen["withBob"]
    assert "play your seat from now on" in with_bob and "abort" not in with_bob, with_bob


def test_a_refused_leave_is_shown_and_the_button_stays_usable(scenarios):
    seen = seen_in(scenarios, "leaveRefused")
    refused = seen["refused"]
    assert refused["message"] == "Cannot leave: a local match is not left: abort it instead"
    assert refused["leaves"] == ["POST Bearer a-token"], refused
    # still at the table, the button there and ready
    assert refused["hash"] == AT_THE_TABLE and refused["table"] == 1, refused
    assert refused["button"]["disabled"] is False and refused["button"]["visible"], refused
    # pressed again: asked again, sent again
    assert seen["dialogs"] == 2
    assert len(seen["again"]["leaves"]) == 2, seen["again"]


@pytest.mark.parametrize("whose", ["spectator", "local", "waiting", "ended"])
def test_no_leave_button_where_there_is_no_seat_to_leave(scenarios, whose):
    seen = seen_in(scenarios, "noLeaveButton")[whose]
    assert seen["table"] == 1, seen  # the table is shown
    assert seen["button"] is None, seen


def test_the_leave_button_goes_when_the_match_ends_while_shown(scenarios):
    seen = seen_in(scenarios, "noLeaveButton")["endsWhileShown"]
    assert seen["before"]["button"] and seen["before"]["button"]["text"] == LEAVE, seen
    assert seen["after"]["button"] is None and seen["after"]["table"] == 1, seen


def test_a_seat_left_to_a_com_is_named_as_the_com_once_it_moves(scenarios):
    """A leave wrote no event before seat_handed_over (a log from then): the page named the
    player for the COM's moves for good."""
    seen = seen_in(scenarios, "seatLeft")
    assert seen["reads"] == seen["readsBefore"] + 1  # the match read again, once
    assert seen["log"] and seen["log"][-1].startswith("COM 1 (normal)"), seen["log"]
    assert not seen["names"]


def test_a_seat_handed_to_a_com_is_named_as_the_com_and_logged(scenarios):
    seen = seen_in(scenarios, "seatHandedOver")
    assert seen["reads"] == seen["readsBefore"] + 1  # the match read again, once
    assert seen["log"] and seen["log"][-1] == "A COM plays seat 2 from now on.", seen["log"]
    assert not seen["names"]


def test_the_leave_confirmation_says_where_the_page_goes(scenarios):
    (first, *_) = seen_in(scenarios, "leaveMatch")["dialogs"]
    message = first["message"]
    # the page goes to the lobby: it says so, and how to watch the match from there
    assert "goes back to the lobby" in message and "as a spectator" in message, message
    assert "you will watch" not in message and "opening its address again" in message, message


def test_the_leave_button_comes_when_a_lobby_of_yours_fills_while_shown(scenarios):
    seen = seen_in(scenarios, "leaveWhenFilled")
    player = seen["player"]
    assert player["before"]["button"] is None and player["before"]["table"] == 1, player
    assert player["before"]["cancel"]["text"] == "Cancel this match…", player  # (its creator)
    assert player["after"]["cancel"] is None, player
    # the last seat taken (seat_taken, from the stream): the match is under way, leavable
    assert player["after"]["button"] and player["after"]["button"]["text"] == LEAVE, player
    assert player["after"]["button"]["inTable"] is False, player
    # a spectator of the same lobby: nothing to leave, before or after
    spectator = seen["spectator"]
    assert spectator["before"]["button"] is None and spectator["after"]["button"] is None, seen


def test_a_deals_heading_says_the_deals_set_or_the_target(scenarios):
    """Without a number of deals it said "Deal 1 · up to 12": the most the rules allow,
    which reads as a plan."""
    seen = seen_in(scenarios, "dealHeadings")
    assert seen["hearts"] == "Deal 1 · to 100"
    assert seen["heartsOfThree"] == "Deal 1 of 3"
    assert seen["ninetyNine"] == "Deal 1 · to 60"


def test_the_scores_caption_says_when_the_match_ends(scenarios):
    """A match of 3 deals said "the match ends at 100" (it ends after the third deal)."""
    seen = seen_in(scenarios, "scoreCaptions")
    assert seen["hearts"] == "Scores (lowest wins; the match ends at 100)"
    assert seen["heartsOfThree"] == (
        "Scores (lowest wins; the match ends after 3 deals, or when a total reaches 100)"
    )
    assert seen["ninetyNineOfOne"] == (
        "Scores (highest wins; the match ends after 1 deal, or when a total reaches 60)"
    )


def test_the_creator_cancels_a_lobby_after_confirming_and_returns_to_the_lobby(scenarios):
    """A lobby is not left, and the client offered no abort: a creator whose lobbies with
    COMs nobody joined was held at the cap of unfinished matches for a week."""
    seen = seen_in(scenarios, "cancelLobby")
    # only where the detail says its reader may abort it, beside the table, not in it
    assert seen["notYours"]["cancel"] is None and seen["notYours"]["table"] == 1, seen
    assert seen["shown"]["cancel"] == {
        "text": "Cancel this match…",
        "visible": True,
        "inTable": False,
    }
    assert seen["shown"]["button"] is None  # (a lobby is not left)
    assert [d["type"] for d in seen["dialogs"]] == ["confirm", "confirm"]
    assert "No one can join it any more" in seen["dialogs"][0]["message"]
    # dismissed: nothing sent; accepted: one POST abort, then the lobby
    assert seen["dismissed"]["aborts"] == [] and seen["dismissed"]["table"] == 1, seen
    accepted = seen["accepted"]
    assert accepted["aborts"] == ["POST"] and accepted["lobby"] == 1 and accepted["hash"] == "#/"


# --- a timed turn, the next hole, Hearts' passing, the final turns, the new-match form ----------
def test_the_turn_timer_counts_down_from_the_first_version_shown(scenarios):
    seen = seen_in(scenarios, "timerTicks")
    first, later = seen["first"], seen["later"]
    assert not first["hidden"] and 60 <= first["seconds"] <= 65, seen
    # about 2 s later, with no new version: counted down each second
    assert 1 <= first["seconds"] - later["seconds"] <= 3, seen
    assert later["text"] != first["text"], seen


def test_the_deadline_after_a_move_is_the_answers_with_no_read_of_the_match(scenarios):
    seen = seen_in(scenarios, "deadlineFromAnswer")
    assert seen["deadline"] == {"hidden": False, "at": seen["expected"]}, seen
    assert seen["readsAfterMove"] == 0, seen


def test_a_local_match_is_listed_as_its_players_on_this_device(scenarios):
    texts = seen_in(scenarios, "localListed")["texts"]
    assert [t.split(" · ")[1] for t in texts] == [
        "six-card 2 players on this device",
        "six-card 2 players on this device, against COM (easy)",
        "six-card against COM (easy)",
    ], texts


def test_an_opponent_named_you_is_not_taken_for_you(scenarios):
    seen = seen_in(scenarios, "youNamed")
    seats = sorted(seen["seats"], key=lambda s: s["seat"])
    assert seats == [
        {"seat": 0, "label": "Your grid", "heading": "You", "card": "your card 1, queen of hearts"},
        {"seat": 1, "label": "you's grid", "heading": "you", "card": "you: card 1, 4 of clubs"},
    ], seats
    assert (seen["drawn"], seen["holds"]) == ("you's drawn card, hidden", "you holds"), seen


def test_next_hole_goes_without_if_match_as_every_human_says_it_at_once(scenarios):
    seen = seen_in(scenarios, "holeOverNext")
    # another human's "next" came first: the page's still goes, valid whatever the version
    assert seen["posts"] == [{"ifMatch": None, "body": {"type": "next"}}], seen["posts"]
    after = seen["after"]
    assert after["version"] == 12 and after["phase"] == "flips", after
    assert after["message"] is None and after["busy"] == "false", after


def test_a_next_hole_too_late_reads_the_table_again(scenarios):
    """Sent without If-Match, a "next" the pause's end overtook is the rules' 422: the page
    said the rules forbid it; it is a table that moved on."""
    after = seen_in(scenarios, "holeOverTooLate")["after"]
    assert after["version"] == 12 and after["phase"] == "flips", after
    assert after["message"] == "The table moved on before your move arrived: here it is again."


@pytest.mark.parametrize("case", ["fourDesktop", "fourPhone", "fiveDesktop", "fivePhone"])
def test_the_hearts_scores_fit_their_column(scenarios, case):
    """At four seats the scores were cut off on the right, at 1280 px as at 390 px: the
    heads were "COM 3 (normal)", and the caption was cut with them."""
    seen = seen_in(scenarios, "scoresFit")[case]
    assert seen["clipped"] == [0, 0] and seen["page"] == 0, seen
    heads = seen["heads"]
    assert heads[:2] == [["Deal", None], ["You", None]], heads
    # a COM's level in its head's title; a username whole there, however it is cut
    assert heads[-1] == [f"COM {len(heads) - 2}", f"COM {len(heads) - 2} (normal)"], heads
    if case.startswith("five"):
        assert heads[2] == ["margaret-hamilton", "margaret-hamilton"], heads


def test_hearts_passing_is_said_to_a_spectator_without_your(scenarios):
    seen = seen_in(scenarios, "heartsPassingWords")
    assert seen["player"].startswith("Passing: to your left · "), seen
    assert seen["spectator"].startswith("Passing: each player passes to the left · "), seen
    assert seen["spectatorAcross"].startswith("Passing: each player passes across the table"), seen
    assert "your" not in seen["spectator"] + seen["spectatorAcross"], seen
    assert seen["marks"] == [" · has chosen a pass", " · choosing a pass", " · choosing a pass"]


def test_the_final_turns_banner_is_one_live_region_kept_on_the_page(scenarios):
    seen = seen_in(scenarios, "finalTurnsBanner")
    went_out = "Final turns: COM 1 (easy) went out."
    texts = {
        "before": "",  # no final turns yet: the region is there, empty
        "20": f"{went_out} 2 turns left in this hole.",
        "21": f"{went_out} 1 turn left in this hole.",
        "22": "",  # the hole is over: empty again
    }
    for when, text in texts.items():
        banner = seen[when]
        assert banner == {
            "same": True,
            "left": False,
            "role": "status",
            "text": text,
            "count": 1,
        }, (
            when,
            banner,
        )


def offered_tables(offered: dict) -> dict:
    """Each preset's tables the form offers: the seat counts, you, the COMs and the open seats."""
    return {
        preset: {1 + int(coms) + int(n) for coms, opens in seen["open"].items() for n in opens}
        for preset, seen in offered.items()
    }


def test_the_new_match_form_offers_only_the_tables_the_preset_allows(scenarios):
    seen = seen_in(scenarios, "newMatchCounts")
    # every count of COMs and open seats offered makes a table the preset allows, and
    # every table it allows is offered
    assert offered_tables(seen["golf"]) == {"six-card": {2, 3, 4, 5, 6}}, seen["golf"]
    assert offered_tables(seen["hearts"]) == {"hearts": {3, 4, 5}, "hearts-classic": {4}}
    # the preset's usual table to begin with (no open seat)
    assert seen["golf"]["six-card"]["chosen"] == {"opponents": "1", "open": "0"}
    assert seen["hearts"]["hearts-classic"]["chosen"] == {"opponents": "3", "open": "0"}
    assert seen["hearts"]["hearts-classic"]["open"]["2"] == ["1"], seen["hearts"]
    # Golf against no COM: one seat open for another player, so a table of two is sent
    assert seen["golfNoCom"] == "1"
    golf, hearts, targeted = seen["created"]
    assert golf["seats"] == [{"type": "me"}, {"type": "open"}], golf
    # hearts-classic with 2 COMs: the fourth seat is open, and 4 players are asked for
    assert [s["type"] for s in hearts["seats"]] == ["me", "com", "com", "open"], hearts
    assert hearts["preset"] == "hearts-classic" and hearts["rules"]["players"] == 4, hearts
    # Hearts' passing: the preset's way to begin with, across only at a table of four; and
    # no number of deals asked for: until a total reaches the target
    assert seen["passingAtFour"] == {
        "chosen": "none",
        "ways": ["none", "rotate", "left", "right", "across"],
    }
    assert seen["passingAtThree"] == ["none", "rotate", "left", "right"]
    assert seen["classicChosen"] == "rotate"
    assert hearts["rules"] == {"players": 4, "passing": "across"}, hearts
    # a target score asked for (the form said "until a total reaches the target score"
    # and offered no way to set it); Golf plays its holes and has none
    assert targeted["rules"] == {**hearts["rules"], "target_score": 50}, targeted
    assert seen["golfTarget"] == 0


def test_another_tabs_log_in_is_never_sent_under_this_tabs_account(scenarios):
    """The token is every tab's (localStorage): after a log-in as bob in another tab,
    alice's table sent its moves, and its "Leave this match…", with bob's token, and drew
    bob's seat as "Your …" under alice's name."""
    seen = seen_in(scenarios, "otherTab")
    assert seen["shown"] == {"who": "alice", "table": 1, "loginForm": 0}
    assert seen["loggedOutElsewhere"]["loginForm"] == 1  # no click needed
    assert seen["bobShown"]["who"] == "bob"
    # the click at alice's table sent nothing; bob's pages were read from the start
    assert not any(line.startswith("POST") for line in seen["after"]), seen["after"]
    assert seen["after"] and all(line.endswith("Bearer bob-token") for line in seen["after"])


def test_a_matchs_address_in_any_spelling_and_one_naming_nothing(scenarios):
    seen = seen_in(scenarios, "addresses")
    assert seen["capitals"] == "/matches/11111111-2222-4333-8444-555555555555"
    assert seen["noMatch"] == "This address names no match: here is the lobby."
    assert seen["missing"]["tryAgain"] == 0
    assert seen["missing"]["message"].startswith("Match not found")


def test_a_verification_that_fails_can_be_checked_again_and_a_401_logs_out(scenarios):
    seen = seen_in(scenarios, "verifyFailures")
    assert "The deal could not be checked: Service unavailable" in seen["failed"]
    assert seen["audits"] == 2
    assert seen["loggedOut"]["loginForm"] == 1 and seen["loggedOut"]["token"] is None


def test_a_retry_after_past_a_minute_is_waited_a_minute(scenarios):
    seen = seen_in(scenarios, "retryAfterCapped")
    assert seen["before"] == 1 and seen["after"] == 2


def test_a_form_is_sent_once_while_its_answer_is_on_its_way(scenarios):
    """A double click on "Start the match" created two matches."""
    seen = seen_in(scenarios, "doubleSubmit")
    assert seen["creating"] == {"posts": 1, "disabled": True}
    assert seen["created"] == {"posts": 1, "hash": AT_THE_TABLE}
    assert seen["loggingIn"] == {"posts": 1, "disabled": [True, True]}
    assert seen["loggedIn"] == {"posts": 1}


def test_a_stream_silent_past_two_keep_alives_is_taken_as_lost_and_read_again(scenarios):
    """A connection that died without a word (a phone asleep, a router that forgot it)
    brings no error and no end: the table said nothing, and showed no move, for ever."""
    seen = seen_in(scenarios, "silentStream")
    # a keep-alive line every 20 s: a minute, and the stream is kept
    assert seen["kept"] == {"banner": "", "streams": 1, "closed": False}
    # 29 s with nothing is not yet a lost connection; 31 s is: let go, said, read again
    assert seen["quiet"] == {"banner": "", "closed": False}
    assert seen["cut"] == {"banner": RECONNECTING, "closed": True, "streams": 1}
    assert seen["again"] == {"banner": "", "url": "/stream?after=10"}


def test_offline_cuts_the_stream_at_once_and_online_reads_it_again_at_once(scenarios):
    seen = seen_in(scenarios, "offlineOnline")
    # offline: said, and the stream let go, with no wait for the stream to fall silent
    assert seen["offline"] == {"banner": RECONNECTING, "closed": True}
    # back online: the stream read again at once (the back-off was at 15 s)
    assert seen["streams"] == seen["tried"] + 1 and seen["online"] == "", seen


def test_cannot_be_reached_goes_once_the_service_answers_again(scenarios):
    """The banner went when the stream came back, and the message stayed, saying the
    service could not be reached while the table followed it live."""
    seen = seen_in(scenarios, "unreachableCleared")
    assert seen["failed"]["message"] == "The service cannot be reached: check your connection."
    assert seen["back"]["message"] is None and seen["back"]["busy"] == "false", seen["back"]


def test_a_move_never_answered_fails_in_time_and_is_offered_again(scenarios):
    seen = seen_in(scenarios, "silentMove")
    assert seen["waiting"]["busy"] == "true" and seen["waiting"]["message"] is None
    failed = seen["failed"]
    assert failed["busy"] == "false" and failed["clickable"] == 2, failed
    assert failed["message"] == (
        "The service did not answer in 30 s: check your connection, then try again."
    )
    assert seen["posts"] == 1


def test_a_401_of_this_pages_token_keeps_another_tabs_log_in(scenarios):
    assert seen_in(scenarios, "refusedAfterOtherTab")["token"] == "bob-token"


def test_a_username_is_shown_as_its_player_wrote_it(scenarios):
    """Only the client's own words begin a sentence in capitals ("You", "COM 2"): "h66bob"
    is never "H66bob", in the move log, a heading or a table."""
    seen = seen_in(scenarios, "usernamesAsWritten")
    assert seen["golf"] == ["h66bob took a seat.", "h66bob turned up card 1: the 4 of clubs."]
    hearts = seen["hearts"]
    assert hearts["log"] == ["h66bob played the 2 of clubs."]
    assert hearts["first"]["trick"] == ["h66bob to lead."]
    assert hearts["last"]["trick"] == ["h66bob (led)"]
    assert hearts["last"]["heading"] == "h66bob"
    assert hearts["last"]["rows"] == ["You", "h66bob", "COM 2 (easy)", "COM 3 (easy)"]
    ninety_nine = seen["ninetyNine"]
    assert ninety_nine["log"] == ["h66bob laid three bid cards aside."]
    assert ninety_nine["last"]["heading"] == "h66bob"
    assert ninety_nine["last"]["rows"] == ["You", "h66bob", "COM 2 (easy)"]
    assert ninety_nine["last"]["facts"] == "No trumps · h66bob leads first"
    assert ninety_nine["last"]["trick"] == ["h66bob to lead."]


def test_every_game_says_why_a_match_was_aborted(scenarios):
    """Every game's view says why in `end_reason`, whether the match was aborted while its
    table was shown or the table was opened on it aborted: no read of the log for it."""
    seen = seen_in(scenarios, "abortReason")
    stopped = "The match was stopped: power cut."
    assert seen["whileShown"] == {"prompt": stopped, "log": ["The match was stopped."]}
    for game in ("ninetyNine", "hearts", "golf"):
        assert seen[game] == {"prompt": stopped, "reads": []}, game


def test_a_player_changes_their_password_and_keeps_the_new_token(scenarios):
    seen = seen_in(scenarios, "passwordChange")
    assert seen["focused"] == "current-password"
    sent = {"password": "pw-alice-124", "new_password": "Another-pass-789"}
    assert seen["posts"][0] == {"body": sent, "authorization": "Bearer a-token"}
    # refused: the API's words, the form and the token kept
    refused = seen["refused"]
    assert refused["message"].startswith("Wrong password: this is not your password"), refused
    assert refused["formShown"] and refused["token"] == "a-token"
    # done: the new token saved and said so, the focus on the news; then the lobby
    assert seen["posts"][1]["body"] == {**sent, "password": "pw-alice-123"}
    done = seen["done"]
    assert done["token"] == "the-new-token" and done["message"] is None, done
    said = [line for line in done["text"].split("\n") if line]
    assert said == [
        "Password changed",
        "Your other devices must log in again.",
        "Back to the lobby",
    ]
    assert done["focused"] == "Password changed" and seen["lobby"] == "#/"
    # answered after the player went to the lobby: the token kept, the lobby still shown
    late = seen["late"]
    assert late["hash"] == "#/" and late["lobby"] == 1 and "Password changed" not in late["text"]
    # answered after a log-out: the log-out stands (the new token was saved, a reload logged
    # the device in again)
    assert seen["loggedOut"] == {"token": None, "loginForm": 1, "changes": 4}
