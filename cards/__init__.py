"""The kernel every card game of the service shares: card notation, the verifiable
seeded shuffle and seed commitments, the errors games raise, trick-taking helpers, and
the game protocol. Pure: no framework import."""
