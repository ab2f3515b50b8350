"""A search opponent: the heuristic's best few options, each tried in simulated continuations.

At a movement (where to march next), march order or battle decision the bot takes the heuristic's choice and its next best
alternatives (``candidates``), and plays each on in copies of the game whose dice come from the
bot's own generator (never the real game's future dice), both sides played by the heuristic, until
``horizon`` half-turns have ended (or the game, or after ``depth`` decisions if given). The position reached is scored by the live war-odds
model as first fitted (``ahd.odds.war.SEARCH_MODEL``, on games between the heuristic players; a finished
game scores 1, 0 or ½). Every candidate is tried with the same
dice seeds (common random numbers), so their scores differ by the choice, not the luck. The
alternative with the best mean replaces the heuristic's choice only if it beats it by ``margin`` in
log-odds.

Campaign plan (on by default, ``campaign=False`` to turn it off): at a movement decision the march
proposed by ``ahd.campaign.CampaignPlan`` (storm the enemy's strongest objective when the whole army
that can reach it has ``campaign_odds`` to win; else, when the heuristic is idle, gather spare units
next to it) becomes the default option, tried against the heuristic's in the continuations and
carried out order by order if kept. The heuristic alone never takes a defended Richmond.

Short game (``maxima=on``, off by default): in the short game (S-13) the Confederacy's heuristic, here and
in the continuations, values boxes by what they move the army maxima by (``ahd.bots.short_game``); in every
other game the setting changes nothing. ``maxima_years=on`` (off by default) does the same in a year scenario
scored on the maxima (T-8, S-0: not played on); campaign games and games played on are unchanged.
``maxima_union=on`` (with ``maxima_years``) makes the Union's garrisons there hold the boxes it holds by the
larger of their campaign value and what they move the maxima by (hard's Union).

Scored turn, the Union (``final_union=on``, off by default): in the Union's half of the turn a game scored on the
maxima ends with, when its plan has no storm to make, a march takes the enemy-held cities that move the maxima
(``ahd.bots.final``), each origin keeping its garrison, for the Confederacy answers.

Budget: ``iterations`` dice samples per candidate (deterministic for a seed), or else a time
budget of ``seconds`` per decision (default 1 s; whole rounds of candidates only, so a decision takes
at most about ``seconds`` plus one continuation). A decision with one legal action, or a kind of
decision not searched (promotion, recruitment, targets), is answered by the heuristic at once.
"""
from __future__ import annotations

import time
from typing import Callable

import numpy as np

from ..core.actions import Action, CavalryRetreat, HoldGround, OpenFire, Reinforce, Retreat
from .base import table_score_turn, without_losing_moves
from .campaign import CampaignPlan, Orders, follow, idle_score
from .final import final_march, turns_to_score
from .plan_lines import defence_line, raid_line
from ..core.errors import AhdError
from ..core.game import Game
from ..core.i18n import Msg
from .heuristic import GARRISONS, HeuristicBot
from .short_game import MaximaHeuristic
from ..core.sides import CHANCE, Side
from ..odds.war import SEARCH_MODEL, live_value

SEARCHED = ("movement", "march", "battle_options", "cavalry_retreat")
#: searched by default: all of them (a cheaper bot searches only ``("movement", "battle_options",
#: "cavalry_retreat")``: where to march next and the battle choices, not each march order)
DEFAULT_SEARCHED = SEARCHED


class SearchError(AhdError, ValueError):
    """Bad settings for the search bot."""


def plan_key(plan: "Msg | str") -> object:
    """What a plan line says without its odds, size and the maxima now (``chance``, ``n``, ``union``,
    ``south``), so that a plan is said again only when the plan itself changes, not its odds, size or the
    score from march to march."""
    if isinstance(plan, Msg):
        return plan.msgid, tuple(sorted((name, value) for name, value in plan.params.items()
                                        if name not in ("chance", "n", "union", "south")))
    return str(plan).split(",")[0]


class SearchBot:
    """Lookahead over the heuristic's options. ``choose(game) -> action``."""

    name = "search"

    def __init__(self, seed: int | None = None, rng: np.random.Generator | None = None, *,
                 seconds: float | None = 1.0, iterations: int | None = None, candidates: int = 3,
                 horizon: int = 1, depth: int | None = None, margin: float = 0.3,
                 searched: tuple[str, ...] = DEFAULT_SEARCHED, campaign: bool = True, campaign_odds: float = 0.6,
                 garrison: str = "each", guard: bool = False, objective: str = "strongest",
                 lookahead: bool = True, campaign_idle: float = 2.0, grab: bool = False, endgame: int = 0,
                 push: bool = False, sally: bool = False, grab_fight: bool = False, capital: bool = False,
                 finish: bool = False, retake: bool = False, clear: bool = False, final: int = 0,
                 maxima: bool = False, final_union: bool = False, maxima_years: bool = False,
                 maxima_union: bool = False) -> None:
        if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int)
                                       or iterations < 1):
            raise SearchError(f"iterations must be a positive integer or None, got {iterations!r}")
        if garrison not in GARRISONS:
            raise SearchError(f"garrison must be one of {', '.join(GARRISONS)}, got {garrison!r}")
        if objective not in ("strongest", "weakest"):
            raise SearchError(f"objective must be 'strongest' or 'weakest', got {objective!r}")
        if iterations is None and (seconds is None or not seconds > 0):
            raise SearchError(f"give a positive time budget in seconds or an iteration budget, got seconds={seconds!r}")
        if isinstance(candidates, bool) or not isinstance(candidates, int) or candidates < 1:
            raise SearchError(f"candidates must be a positive integer, got {candidates!r}")
        if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 1:
            raise SearchError(f"horizon must be a positive number of half-turns, got {horizon!r}")
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
            raise SearchError(f"depth must be a non-negative number of actions or None, got {depth!r}")
        if not isinstance(campaign, bool):
            raise SearchError(f"campaign must be True or False, got {campaign!r}")
        if not 0.0 <= campaign_odds <= 1.0:
            raise SearchError(f"campaign_odds must be a probability, got {campaign_odds!r}")
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
        self.orders: Orders | None = None  # the planned march being carried out
        self.garrison = garrison
        self.lookahead = bool(lookahead)  # False: the plan or the heuristic's choice, no continuations
        self.final_union = bool(final_union)  # the Union's half-turn of the scored turn: grab, keeping garrisons
        self.maxima = bool(maxima)  # the short game's Confederacy plays by the maxima (short_game.py)
        self.maxima_years = bool(maxima_years)  # ... and a year scenario's scored on T-8 (not played on)
        # ... where the Union's garrisons hold its cities by the maxima too (short_game.py)
        self.maxima_union = bool(maxima_union)
        self.heuristic = (MaximaHeuristic(rng=self.rng, garrison=garrison, union=self.maxima_union)
                          if self.maxima or self.maxima_years else HeuristicBot(rng=self.rng, garrison=garrison))
        self.campaign = (CampaignPlan(self.heuristic, odds=campaign_odds, guard=guard, choose=objective,
                                      idle=campaign_idle, grab=grab, endgame=endgame, push=push, sally=sally,
                                      grab_fight=grab_fight, capital=capital, finish=finish,
                                      retake=retake, clear=clear)
                         if campaign else None)
        self.final = int(final)  # a scored game's last ``final`` Confederate half-turns: march where the maxima move most (final.py)
        self.plan: Msg | None = None  # its campaign plan in one line (``ahd.bots.plan``), None before any
        self._plan_key: object = None  # the plan said, without its odds and size (``plan_key``)
        self.stats = {"decisions": 0, "searched": 0, "changed": 0, "campaign": 0, "rollouts": 0,
                      "seconds": 0.0}

    def _say(self, line: Msg) -> None:
        """Make ``line`` the plan said, if the plan itself changed (``plan_key``: not its odds, size or the
        maxima from march to march)."""
        key = plan_key(line)
        if key != self._plan_key:
            self.plan, self._plan_key = line, key

    # ------------------------------------------------------------------ entry point
    def choose(self, game: Game, should_stop: Callable[[], bool] | None = None) -> Action:
        """Its action. ``should_stop`` (optional, e.g. the app's cancel button) is asked between
        continuations: when it returns True the search ends at once with the best option so far (the
        heuristic's or the plan's if none was tried). Not given, the answer depends only on the seed and
        the iteration budget (or the time budget)."""
        actions = game.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        self.stats["decisions"] += 1
        # a year scenario scored on T-8 (S-0) by the maxima, where ``maxima_years`` plays by them
        year_scored = table_score_turn(game) if self.maxima_years else None
        if isinstance(self.heuristic, MaximaHeuristic):
            self.heuristic.set_active((self.maxima and game.scenario.end == "short") or year_scored is not None)
        if len(actions) == 1:
            return actions[0]
        actions = without_losing_moves(game, actions)
        planned = follow(self.orders, game, actions)
        if planned is not None:
            return planned
        self.orders = None
        if game.decision not in self.searched:
            return self.heuristic.choose(game)
        if game.decision == "battle_options" and self.campaign is not None and not self.lookahead \
                and (self.campaign.capital is True
                     or (self.campaign.capital == "year" and game.scenario.start_turn > 1)):
            return self.campaign.reinforcement(game, actions, self.heuristic.choose(game))
        ranked = self.heuristic.ranked(game, actions) if game.decision in ("movement", "march") else None
        options = self._options(game, actions, ranked)
        plans: dict[Action, Orders] = {}
        campaign = None
        if game.decision == "movement":
            campaign = self.campaign.march(game, actions, idle_score(ranked)) if self.campaign else None
            if campaign is not None and self.campaign.plan is not None:
                self._say(self.campaign.plan)
            elif campaign is None and self.campaign is not None and game.phasing is Side.CONFEDERATE:
                short = game.scenario.last_turn if self.maxima and game.scenario.end == "short" else None
                self._say(defence_line(game.state, Side.CONFEDERATE, short, year_scored))  # no march of the plan: what it holds
            elif campaign is None and game.phasing is Side.UNION and game.scenario.end == "short":
                self._say(raid_line(game.state, game.scenario.last_turn))  # the short game: the maxima decide
            if campaign is not None:  # the plan is the default; the search may still find better
                action, plans[action] = campaign
                options = [action] + [a for a in options if a != action]
            left = turns_to_score(game) if self.final else None
            last = None
            garrison = lambda box: self.heuristic._garrison_need(game.state, box, game.state.phasing)  # noqa: E731
            storms = campaign is not None and any(game.state.control[box] is not game.state.phasing
                                                  for box in campaign[1].moves.values())
            if left is not None and left < self.final:  # the last ``final`` Confederate half-turns of a scored game
                last = final_march(game, actions, None if left == 0 else garrison)
            elif self.final_union and turns_to_score(game, Side.UNION) == 0 and not storms:
                # the Union's half of the scored turn, no storm of the plan to make: grab what moves the maxima,
                # keeping the garrisons (the South answers)
                last = final_march(game, actions, garrison)
            if last is not None:  # the scored turn's march: what moves the maxima (final.py)
                action, moves, _ = last
                plans[action] = Orders(game.state.phasing, game.state.turn, action.origin, moves)
                options = [action] + [a for a in options if a != action]
                campaign = last
        if len(options) == 1 or not self.lookahead:
            choice = options[0]
        else:
            start = time.perf_counter()
            choice = self._search(game, options, plans, should_stop)
            self.stats["searched"] += 1
            self.stats["changed"] += choice != options[0]
            self.stats["seconds"] += time.perf_counter() - start
        if choice in plans:
            self.orders = plans[choice]
            self.stats["campaign"] += 1
        return choice

    def _options(self, game: Game, actions: list[Action], scored: list[tuple[float, Action]] | None) -> list[Action]:
        """The heuristic's choice first, then up to ``candidates - 1`` distinct alternatives
        (``scored``: the heuristic's ranking at a movement or march decision)."""
        decision = game.decision
        if scored is not None:
            ranked = [a for _, a in scored]
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
    def _search(self, game: Game, options: list[Action], plans: dict[Action, Orders],
                should_stop: Callable[[], bool] | None = None) -> Action:
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
            if should_stop is not None and should_stop():
                break
            dice = int(self.rng.integers(0, 2 ** 62))
            round_totals = np.zeros(len(options))
            for i, action in enumerate(options):
                if should_stop is not None and should_stop():
                    break
                t0 = time.perf_counter()
                round_totals[i] = self._rollout(game, action, dice, side, plans.get(action))
                slowest = max(slowest, time.perf_counter() - t0)
            else:
                totals += round_totals
                rounds += 1
                continue
            break
        if not rounds:
            return options[0]
        means = np.clip(totals / rounds, 1e-6, 1 - 1e-6)
        logits = np.log(means / (1 - means))  # compare in log-odds: long shots matter too
        best = int(np.argmax(logits))
        if best != 0 and logits[best] - logits[0] > self.margin:
            return options[best]
        return options[0]

    def _rollout(self, game: Game, action: Action, dice: int, side: Side, orders: Orders | None = None) -> float:
        """Play ``action`` (with its march ``orders``, if a plan) and go on with the heuristic for
        ``horizon`` half-turn ends; ``side``'s score."""
        self.stats["rollouts"] += 1
        sim = game.copy(dice_seed=dice)
        sim.apply(action)
        # a fresh one: its caches are per position
        player = (self.heuristic.fresh(self.rng) if isinstance(self.heuristic, MaximaHeuristic)
                  else HeuristicBot(rng=self.rng, garrison=self.garrison))
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
            planned = follow(orders, sim)
            if planned is None:
                orders = None
            sim.apply(planned if planned is not None else player.choose(sim))
            moves += 1
        if sim.is_over:
            winner = sim.outcome.winner
            p_union = 1.0 if winner is Side.UNION else 0.0 if winner is Side.CONFEDERATE else 0.5
        else:
            p_union = live_value(sim.state, sim.scenario, sim.play_on, SEARCH_MODEL)
        return p_union if side is Side.UNION else 1.0 - p_union

