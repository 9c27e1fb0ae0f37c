"""The pure Golf rules engine: no framework imports, no clock, no global randomness."""
