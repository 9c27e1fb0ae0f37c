"""The pure Hearts engine: no framework import, no clock, no global randomness; the
platform reaches it through ``hearts.game.HEARTS`` (a :class:`cards.protocol.Game`).

    events = start_match(rules, players, seed)      # the first events
    state = replay(events)                          # fold events into a state
    legal_actions(state, seat)                      # what a seat may do
    new_events = decide(state, seat, action)        # or an IllegalActionError
    view_for(state, seat)                           # what that seat may see

Modules: ``rules`` (options, presets), ``dealing`` (the seeded deals), ``actions``,
``events``, ``state`` (the fold), ``decide``, ``scoring``, ``views`` (redaction),
``audit``, ``hidden``, ``snapshot``, ``schemas``, ``com`` (computer players, hints),
``simulate`` and ``arena`` (command lines).
"""
