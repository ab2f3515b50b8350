"""The odds of a battle by the best means for its size: exact when small, simulated when large."""
from __future__ import annotations

from typing import Sequence

from .exact import AUTO_MAX_STATES, AUTO_SAMPLES, BattleOdds, OddsError, battle_odds, estimate_states, not_modelled
from .montecarlo import SimulatedOdds, simulate_battles


def odds(attacker: Sequence, defender: Sequence, *, method: str = "auto", samples: int = AUTO_SAMPLES,
         seed: int = 0, max_states: int = AUTO_MAX_STATES, **kwargs) -> "BattleOdds | SimulatedOdds":
    """The odds of a battle by the best means for its size: ``method="auto"`` (exact if it needs at
    most ``max_states`` states, else ``samples`` simulated battles), ``"exact"`` or ``"monte carlo"``.
    The result's ``method`` says which was used. Other arguments as for ``battle_odds``."""
    if method not in ("auto", "exact", "monte carlo"):
        raise OddsError(f"unknown method {method!r}: 'auto', 'exact' or 'monte carlo'")
    if method == "monte carlo":
        return simulate_battles(attacker, defender, samples, seed=seed, **kwargs)
    if method == "exact":
        return battle_odds(attacker, defender, **kwargs)
    if not_modelled(kwargs.get("options")):
        return simulate_battles(attacker, defender, samples, seed=seed, **kwargs)
    reserves = (kwargs.get("attacker_reserves", ()), kwargs.get("defender_reserves", ()))
    if estimate_states(attacker, defender, *reserves) <= 50 * max_states:
        try:
            return battle_odds(attacker, defender, max_states=max_states, **kwargs)
        except OddsError as exc:
            if "too large" not in str(exc):
                raise
    return simulate_battles(attacker, defender, samples, seed=seed, **kwargs)
