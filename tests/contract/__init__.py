"""The game contract, checked for every registered game (``test_games``)."""
