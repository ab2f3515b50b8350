"""Analyses above the computer players: simulations of many games, the deep war odds (playouts),
balance studies and the benchmarks."""
