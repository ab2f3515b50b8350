"""Battle odds and the live war odds: the layer above the rules engine, below the computer players.

- a battle under evaluation: its units, the result, the checks (:mod:`ahd.odds.battle`);
- exact battle odds by a Markov chain (:mod:`ahd.odds.exact`: ``battle_odds``);
- simulated battles in numpy (:mod:`ahd.odds.montecarlo`: ``simulate_battles``);
- the best of the two by size (:mod:`ahd.odds.auto`: ``odds``);
- the odds of a game's battle (:mod:`ahd.odds.game_odds`: ``odds_for``);
- the live model of the war's odds (:mod:`ahd.odds.war`: ``war_odds``; the deep playouts are
  ``ahd.war_odds(game, "deep")`` in :mod:`ahd.analysis.war_odds`).
"""
from __future__ import annotations

from .auto import odds
from .battle import ATTACKER, DEFENDER, SIMULATED, BattleOdds, Fighter, OddsError, not_modelled
from .exact import AUTO_MAX_STATES, AUTO_SAMPLES, battle_odds, estimate_states
from .game_odds import odds_for
from .montecarlo import SimulatedOdds, simulate_battles
from .war import WarOdds, WarOddsError, war_odds

__all__ = ["ATTACKER", "AUTO_MAX_STATES", "AUTO_SAMPLES", "DEFENDER", "SIMULATED", "BattleOdds", "Fighter",
           "OddsError", "SimulatedOdds", "WarOdds", "WarOddsError", "battle_odds", "estimate_states",
           "not_modelled", "odds", "odds_for", "simulate_battles", "war_odds"]
