"""Reading a battle in the tutorials: the next shot, misses until a round, modifiers, effective values, days."""
from __future__ import annotations

from ahd import Game
from ahd.core.actions import ChooseFirer, EndMovement, FireAuto, LeaderPoint, Move, OpenFire, Roll
from ahd.core import combat
from ahd.core.positions import march, position_game
from ahd.core.sides import CHANCE, Side

from widgets.tutorials.board_views import U


# =========================================================================== reading a battle
def next_shot(game: Game) -> tuple[str, str, int]:
    """The pending shot (5.1.b) as (shooter id, target id, effective value: it hits on that or less)."""
    battle = game.battle
    if battle is None or game.decision != "shot":
        raise ValueError(f"no shot is pending (decision {game.decision!r})")
    shooter, target = battle.targets[battle.shot_index]
    state = game.state
    return shooter, target, combat.effective_value(state, battle, state.units[shooter], state.units[target])


def misses_until(game: Game, round: int, firing: Side | str | None = None) -> None:
    """Play the battle in progress with default targets and every shot a 6 (a miss, H-2) until round
    ``round`` begins, or until ``firing`` is about to act in that round (typed-in dice only)."""
    side = None if firing is None else Side.parse(firing)
    battle = game.battle
    if battle is None:
        raise ValueError("no battle is in progress")
    while not (game.battle.round == round and (side is None or game.battle.firing is side)
               and game.decision in ("battle_options", "targets")):
        if game.battle is None or game.battle.round > round or game.is_over:
            raise ValueError(f"the battle did not reach round {round}")
        if game.decision == "battle_options":
            game.apply(OpenFire())
        elif game.decision == "targets":
            game.apply(FireAuto())
        elif game.current_player == CHANCE:
            game.apply(Roll(6))
        else:
            raise ValueError(f"unexpected decision {game.decision!r} in a battle")


def modifier_battle(attacker: str, defender: str, *, entrenched: bool = False, crossing: bool = False) -> Game:
    """A Union ``attacker`` (type code) attacks a Confederate ``defender`` in Fredericksburg: across the
    Potomac from Washington (``crossing``, a blue side: 5.2.3) or by rail from Richmond."""
    origin, line = ("washington", "river") if crossing else ("richmond", "rail")
    game = position_game([("union", attacker, origin), ("confederate", defender, "fredericksburg", 1, entrenched)])
    (unit,) = game.units_in(origin, U)
    march(game, origin, Move(unit.id, (origin, "fredericksburg"), (line,)))
    if game.decision == "movement":
        game.apply(EndMovement())
    return game


def effective_values(game: Game) -> tuple[int, int]:
    """In a one-against-one battle: (attacker's effective value at the defender, defender's at the attacker),
    as they stand in the current round (5.2.a)."""
    state, battle = game.state, game.battle
    attacker, = state.units_in(battle.box, battle.attacker)
    defender, = state.units_in(battle.box, battle.attacker.enemy)
    return (combat.effective_value(state, battle, attacker, defender),
            combat.effective_value(state, battle, defender, attacker))


def fight_days(game: Game, command_rolls: dict, until_round: int) -> tuple[dict, dict]:
    """Play the battle in progress under A-7 with typed-in dice until round ``until_round`` is over (or the
    battle ends): the command rolls of each side in order (``{"union": [4, 1, 5], ...}``), every shot a 6
    (a miss, H-2), the first units offered as firers, leader points to the first unit offered.

    Returns ``(commands, shots)``: ``commands[day][side]`` is the day's command (A-7 b) and
    ``shots[round][side]`` the number of units that fired in that round's moment.
    """
    rolls = {Side.parse(side): list(values) for side, values in command_rolls.items()}
    commands: dict[int, dict[str, int]] = {}
    shots: dict[int, dict[str, int]] = {}
    while game.battle is not None and game.battle.round <= until_round:
        battle, decision = game.battle, game.decision
        if decision == "command_roll":
            side = battle.command_pending[0]
            if not rolls.get(side):
                raise ValueError(f"no command roll left for the {side.adjective} side on day {battle.day}")
            game.apply(Roll(rolls[side].pop(0)))
            if game.battle is not None and not game.battle.command_pending:
                commands[game.battle.day] = {s.value: n for s, n in game.battle.command.items()}
        elif decision == "firers":
            game.apply(next(a for a in game.legal_actions() if isinstance(a, ChooseFirer)))
        elif decision == "leader_points":
            game.apply(next(a for a in game.legal_actions() if isinstance(a, LeaderPoint)))
        elif decision == "targets":
            game.apply(FireAuto())
            shots.setdefault(battle.round, {})[battle.firing.value] = len(battle.targets)
        elif decision == "battle_options":
            game.apply(OpenFire())
        elif game.current_player == CHANCE:
            game.apply(Roll(6))
        else:
            raise ValueError(f"unexpected decision {decision!r} in a battle")
    return commands, shots
