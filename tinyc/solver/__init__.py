"""tinyc.solver: Bulls-and-Cows / Mastermind games, strategies and whole-game evaluation."""
