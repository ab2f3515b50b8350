"""The rules engine: board, units, state, actions, one module per rule section, the sequence of play
(``engine``), the game with its dice, undo and records (``game``), scenarios and replays.

It is the lowest layer: it imports nothing from ``ahd.odds``, ``ahd.bots``, ``ahd.analysis`` or
``ahd.cli`` (tests/test_layers.py checks it).
"""
