"""A search opponent: the heuristic's best few options, each tried in simulated continuations.

At a movement (where to march next), march order or battle decision the bot takes the heuristic's choice and its next best
alternatives (``candidates``), and plays each on in copies of the game whose dice come from the
bot's own generator (never the real game's future dice), both sides played by the heuristic, until
``horizon`` half-turns have ended (or the game, or after ``depth`` decisions if given). The position reached is scored by the live war-odds
model (``ahd.war_odds``; a finished game scores 1, 0 or ½). Every candidate is tried with the same
dice seeds (common random numbers), so their scores differ by the choice, not the luck. The
alternative with the best mean replaces the heuristic's choice only if it beats it by ``margin`` in
log-odds.

Assaults (off by default): the heuristic weighs each unit's move alone, so it never starts an attack
that only a whole stack could win. With ``assaults=N`` the bot also tries, at a movement decision, up
to N *assault plans*: a march from a box next to enemy units that sends every unit able to reach them,
when the stack together has at least ``assault_odds`` to win (exact odds). A plan is tried in the
continuations like any option and, if chosen, carried out order by order in the real march. Measured
over 200 1861 games a seat against the heuristic (``search:iterations=2,assaults=2``), the plans gained
material (final army-maximum difference +1.6 as Union, +5.5 as Confederacy) but not wins: 6/200 as
Union (heuristic 7/200), and 183/200 as Confederacy against 193/200: one half-turn of lookahead does
not see a city left open for the Union's final sweep. Hence off by default.

Budget: ``iterations`` dice samples per candidate (deterministic for a seed), or else a time
budget of ``seconds`` per decision (default 1 s; whole rounds of candidates only, so a decision takes
at most about ``seconds`` plus one continuation). A decision with one legal action, or a kind of
decision not searched (promotion, recruitment, targets), is answered by the heuristic at once.
"""
from __future__ import annotations

import time

import numpy as np

from . import movement
from .actions import Action, BeginMarch, CavalryRetreat, EndMarch, HoldGround, Move, OpenFire, Reinforce, Retreat
from .errors import AhdError
from .game import Game
from .heuristic import HeuristicBot, _spec, _win_chance
from .sides import CHANCE, Side
from .war_odds import live_value

SEARCHED = ("movement", "march", "battle_options", "cavalry_retreat")
#: searched by default: all of them (a cheaper bot searches only ``("movement", "battle_options",
#: "cavalry_retreat")``: where to march next and the battle choices, not each march order)
DEFAULT_SEARCHED = SEARCHED


class SearchError(AhdError, ValueError):
    """Bad settings for the search bot."""


class SearchBot:
    """Lookahead over the heuristic's options. ``choose(game) -> action``."""

    name = "search"

    def __init__(self, seed: int | None = None, rng: np.random.Generator | None = None, *,
                 seconds: float | None = 1.0, iterations: int | None = None, candidates: int = 3,
                 horizon: int = 1, depth: int | None = None, margin: float = 0.3,
                 searched: tuple[str, ...] = DEFAULT_SEARCHED, assaults: int = 0,
                 assault_odds: float = 0.5) -> None:
        if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int)
                                       or iterations < 1):
            raise SearchError(f"iterations must be a positive integer or None, got {iterations!r}")
        if iterations is None and (seconds is None or not seconds > 0):
            raise SearchError(f"give a positive time budget in seconds or an iteration budget, got seconds={seconds!r}")
        if isinstance(candidates, bool) or not isinstance(candidates, int) or candidates < 1:
            raise SearchError(f"candidates must be a positive integer, got {candidates!r}")
        if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 1:
            raise SearchError(f"horizon must be a positive number of half-turns, got {horizon!r}")
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
            raise SearchError(f"depth must be a non-negative number of actions or None, got {depth!r}")
        if isinstance(assaults, bool) or not isinstance(assaults, int) or assaults < 0:
            raise SearchError(f"assaults must be a non-negative integer, got {assaults!r}")
        if not 0.0 <= assault_odds <= 1.0:
            raise SearchError(f"assault_odds must be a probability, got {assault_odds!r}")
        unknown = set(searched) - set(SEARCHED)
        if unknown:
            raise SearchError(f"cannot search decisions {sorted(unknown)}; searchable: {', '.join(SEARCHED)}")
        self.rng = rng if rng is not None else np.random.default_rng(seed)
        self.seconds = seconds
        self.iterations = iterations
        self.candidates = candidates
        self.horizon = horizon
        self.depth = depth
        self.margin = margin
        self.searched = tuple(searched)
        self.assaults = assaults
        self.assault_odds = assault_odds
        self.plan: tuple | None = None  # (side, turn, origin, destination) of the assault being carried out
        self.heuristic = HeuristicBot(rng=self.rng)
        self.stats = {"decisions": 0, "searched": 0, "changed": 0, "assaults": 0, "rollouts": 0, "seconds": 0.0}

    # ------------------------------------------------------------------ entry point
    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        self.stats["decisions"] += 1
        if len(actions) == 1:
            return actions[0]
        planned = _follow(self.plan, game, actions)
        if planned is not None:
            return planned
        self.plan = None
        if game.decision not in self.searched:
            return self.heuristic.choose(game)
        options = self._options(game, actions)
        plans = self._assault_plans(game, actions, options) if game.decision == "movement" else []
        options += [action for action, _ in plans]
        if len(options) == 1:
            return options[0]
        start = time.perf_counter()
        choice = self._search(game, options, dict(plans))
        self.stats["searched"] += 1
        self.stats["changed"] += choice != options[0]
        self.stats["seconds"] += time.perf_counter() - start
        if choice in dict(plans):
            self.plan = (game.current_player, game.state.turn, choice.origin, dict(plans)[choice])
            self.stats["assaults"] += 1
        return choice

    def _assault_plans(self, game: Game, actions: list[Action], options: list[Action]) -> list[tuple[Action, str]]:
        """Up to ``assaults`` (march, destination) plans: all units of a box that can reach an enemy-held
        box attack it together, where their exact odds reach ``assault_odds``; best odds x stake first."""
        if not self.assaults:
            return []
        state = game.state
        side = state.phasing
        found = []
        for action in actions:
            if not isinstance(action, BeginMarch):
                continue
            reach: dict[str, list] = {}
            for unit in state.units_in(action.origin, side):
                if movement._ready(state, unit) is not None:
                    continue
                for path, _ in movement.legal_paths(state, unit):
                    if state.has_units(path[-1], side.enemy):
                        reach.setdefault(path[-1], []).append((unit, state.board.enters_over_water(path[-1], path[-2])))
            for dest, movers in reach.items():
                movers = list({u.id: (u, c) for u, c in movers}.values())
                attackers = [_spec(state, u, crossing=u.crossing, entrenched=False) for u in state.units_in(dest, side)]
                attackers += [_spec(state, u, crossing=c, entrenched=False) for u, c in movers]
                defenders = [_spec(state, u) for u in state.units_in(dest, side.enemy)]
                if len(movers) < 2 or len(attackers) > 5 or len(defenders) > 4:
                    continue  # one unit is the heuristic's own option; beyond 5 v 4 the exact odds cost too much
                chance = _win_chance(tuple(sorted(attackers)), tuple(sorted(defenders)))
                if chance >= self.assault_odds:
                    stake = self.heuristic._value(state, dest, side) + 4.0 * len(defenders)
                    found.append((chance * stake, action.origin, dest, action))
        found.sort(key=lambda f: (-f[0], f[1], f[2]))
        plans: list[tuple[Action, str]] = []
        for _, _, dest, action in found:
            if action not in options and all(action != a for a, _ in plans):
                plans.append((action, dest))
            if len(plans) == self.assaults:
                break
        return plans

    def _options(self, game: Game, actions: list[Action]) -> list[Action]:
        """The heuristic's choice first, then up to ``candidates - 1`` distinct alternatives."""
        decision = game.decision
        if decision in ("movement", "march"):
            ranked = [a for _, a in self.heuristic.ranked(game, actions)]
        else:
            first = self.heuristic.choose(game)
            ranked = [first]
            if decision == "battle_options":
                potential = self.heuristic.field(game.state, game.state.battle.firing)
                reinforce = [a for a in actions if isinstance(a, Reinforce)]
                retreat = [a for a in actions if isinstance(a, Retreat)]
                if OpenFire() in actions:
                    ranked.append(OpenFire())
                if reinforce:
                    ranked.append(max(reinforce, key=lambda a: (game.state.units[a.unit].type.value, a.unit)))
                if retreat:
                    ranked.append(max(retreat, key=lambda a: (potential[a.to], a.to)))
            elif decision == "cavalry_retreat":
                potential = self.heuristic.field(game.state, game.state.battle.defender)
                retreat = [a for a in actions if isinstance(a, CavalryRetreat)]
                ranked += [HoldGround()] + ([max(retreat, key=lambda a: (potential[a.to], a.to))] if retreat else [])
        out: list[Action] = []
        for action in ranked:
            if action not in out:
                out.append(action)
            if len(out) == self.candidates:
                break
        return out

    # ------------------------------------------------------------------ search
    def _search(self, game: Game, options: list[Action], plans: dict | None = None) -> Action:
        side = game.current_player
        totals = np.zeros(len(options))
        rounds = 0
        start = time.perf_counter()
        slowest = 0.0
        while True:
            if self.iterations is not None:
                if rounds >= self.iterations:
                    break
            elif rounds and time.perf_counter() - start + slowest * len(options) > self.seconds:
                break
            dice = int(self.rng.integers(0, 2 ** 62))
            for i, action in enumerate(options):
                t0 = time.perf_counter()
                totals[i] += self._rollout(game, action, dice, side, (plans or {}).get(action))
                slowest = max(slowest, time.perf_counter() - t0)
            rounds += 1
        means = np.clip(totals / rounds, 1e-6, 1 - 1e-6)
        logits = np.log(means / (1 - means))  # compare in log-odds: long shots matter too
        best = int(np.argmax(logits))
        if best != 0 and logits[best] - logits[0] > self.margin:
            return options[best]
        return options[0]

    def _rollout(self, game: Game, action: Action, dice: int, side: Side, dest: str | None = None) -> float:
        """Play ``action`` (with its assault on ``dest``, if given) and go on with the heuristic for
        ``horizon`` half-turn ends; ``side``'s score."""
        self.stats["rollouts"] += 1
        sim = game.copy(dice_seed=dice)
        plan = (side, sim.state.turn, action.origin, dest) if dest is not None else None
        sim.apply(action)
        player = HeuristicBot(rng=self.rng)  # a fresh one: its caches are per position
        start = (sim.state.turn, sim.state.phasing)
        ends = 0
        moves = 0
        while not sim.is_over:
            here = (sim.state.turn, sim.state.phasing)
            if here != start:
                ends += 1
                start = here
                if ends >= self.horizon:
                    break
            if sim.current_player == CHANCE:
                sim.roll()
                continue
            if self.depth is not None and moves >= self.depth:
                break
            planned = _follow(plan, sim, None)
            if planned is None:
                plan = None
            sim.apply(planned if planned is not None else player.choose(sim))
            moves += 1
        if sim.is_over:
            winner = sim.outcome.winner
            p_union = 1.0 if winner is Side.UNION else 0.0 if winner is Side.CONFEDERATE else 0.5
        else:
            p_union = live_value(sim.state, sim.scenario, sim.play_on)
        return p_union if side is Side.UNION else 1.0 - p_union


def _follow(plan: tuple | None, game: Game, actions: list[Action] | None) -> Action | None:
    """The next order of an assault plan in this march, or None when no plan applies here: every unit
    of the origin that can reach the destination goes there (shortest path first), then the march ends."""
    if plan is None or game.decision != "march":
        return None
    side, turn, origin, dest = plan
    state = game.state
    if game.current_player is not side or state.turn != turn or game.march_origin != origin:
        return None
    actions = game.legal_actions() if actions is None else actions
    moves = [a for a in actions if isinstance(a, Move) and a.path[-1] == dest]
    if moves:
        return min(moves, key=lambda a: (len(a.path), a.unit, a.lines))
    return EndMarch() if EndMarch() in actions else None
