"""What each decision of the engine means: one table, keyed by the engine's step names.

For each step (``Game.decision``): its segment (3.a), the rule that governs it, who decides it (a role:
the phasing side, the defender, the side firing this round, the battle's winner or loser, the side
rallying, or chance for a pending die, then the die's owner: the side who rolls it at the table), what
the decider is asked (``prompt``, a message of the engine's catalog) and a short phrase naming it
(``label``, e.g. for a teacher's list of games). ``action_box`` says which box an action is played on.

The CLI, the bots' plan lines, the teacher page and the app read this table, never the step names.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from .i18n import Msg, N_, Term
from .sides import CHANCE, Side

if TYPE_CHECKING:
    from .actions import Action
    from .game import Game
    from .state import State

# ---------------------------------------------------------------- who decides
PHASING = "phasing"          # the side whose half-turn it is
DEFENDER = "defender"        # the battle's defender (5.2.6)
FIRING = "firing"            # the side whose firing moment it is in the battle (5.b), attacker or defender
WINNER = "winner"            # the battle's winner (6.a)
LOSER = "loser"              # the battle's loser (AO-8.12)
RALLYING = "rallying"        # the next side to decide a rally (AO-8.11)
CONFEDERATE = "confederate"  # always the Confederacy (O-4.3, AO-8.3)
COMMANDER = "commander"      # the next side to roll its command
UNIT_OWNER = "unit owner"    # the owner of the unit the die is rolled for (AO-8.1, AO-8.12)
NOBODY = "nobody"            # the game is over

# ---------------------------------------------------------------- how it is played
MARCH = "march"   # select a stack on the map, then a destination (the Movement segment's marches)
BOX = "box"       # a click on a box plays the action there (see action_box); the rest in a panel
PANEL = "panel"   # choices that are not on a box (targets, firers, rally)
DIE = "die"       # a die to roll (or type in)
OVER = "over"     # nothing: the game is over

#: Each role as the side it names in a state.
_ROLE_SIDE: dict[str, Callable[["State"], "Side | None"]] = {
    PHASING: lambda s: s.phasing,
    DEFENDER: lambda s: s.battle.defender,
    FIRING: lambda s: s.battle.firing,
    WINNER: lambda s: s.battle.winner,
    LOSER: lambda s: s.battle.winner.enemy,
    RALLYING: lambda s: s.battle.rally_pending[0],
    CONFEDERATE: lambda s: Side.CONFEDERATE,
    COMMANDER: lambda s: s.battle.command_pending[0],
    UNIT_OWNER: lambda s: s.units[s.battle.morale_pending[0] if s.step == "morale_roll"
                                  else s.battle.desertion_pending[0][0]].side,
    NOBODY: lambda s: None,
}


@dataclass(frozen=True)
class Decision:
    """One step of the engine. ``decider`` is a role (PHASING, DEFENDER, ...) or CHANCE for a die, whose
    roller is ``die_owner``; ``play`` how it is played (MARCH, BOX, PANEL, DIE, OVER); ``prompt`` and ``label``
    are catalog messages (``prompt`` says what is asked; :func:`prompt` puts who decides before it)."""

    step: str
    segment: str
    rule: str
    decider: str
    play: str
    label: str
    prompt: str
    die_owner: str | None = None

    @property
    def is_chance(self) -> bool:
        return self.decider == CHANCE


def _d(step: str, segment: str, rule: str, decider: str, label: str, prompt: str,
       die_owner: str | None = None) -> tuple[str, Decision]:
    play = DIE if decider == CHANCE else OVER if decider == NOBODY else _PLAY.get(step, BOX)
    return step, Decision(step, segment, rule, decider, play, label, prompt, die_owner)


#: The decisions not played with a click on a box (the others, but dice and the end, are BOX).
_PLAY = {"movement": MARCH, "march": MARCH, "firers": PANEL, "leader_points": PANEL, "targets": PANEL, "rally": PANEL}


#: Every decision the engine can be waiting for, in the order of a game turn (3.b).
DECISIONS: dict[str, Decision] = dict([
    _d("supply", "movement", "A-2", PHASING, N_("choosing the losses out of supply"),
       N_("choose the unit each stack out of supply loses (A-2)")),
    _d("border_roll", "movement", "AO-8.3", CHANCE, N_("rolling for a border state's support"),
       N_("roll the die for a border state's support (AO-8.3)"), CONFEDERATE),
    _d("leader_arrival", "movement", "AO-8.2", PHASING, N_("placing the arriving leaders"),
       N_("place the arriving leader (AO-8.2)")),
    _d("march_roll", "movement", "4.a", CHANCE, N_("rolling for the number of marches"),
       N_("roll the die for the number of marches (4.a)"), PHASING),
    _d("movement", "movement", "4.b", PHASING, N_("choosing the next march"),
       N_("begin a march, move by sea, or end the movement (4.b)")),
    _d("march", "movement", "4.b", PHASING, N_("moving the units of a march"),
       N_("move the units of this march, entrench, or end the march (4.b)")),
    _d("containment", "combat", "A-4", PHASING, N_("containing an invasion"),
       N_("contain the invaders or assault them (A-4)")),
    _d("choose_battle", "combat", "5.a", PHASING, N_("choosing the next battle"),
       N_("choose the box of the next battle (5.a)")),
    _d("cavalry_retreat", "combat", "5.2.6", DEFENDER, N_("the defending cavalry's retreat"),
       N_("retreat the cavalry or hold the ground (5.2.6)")),
    _d("battle_options", "combat", "5.b", FIRING, N_("retreating, reinforcing or opening fire"),
       N_("retreat, bring in a reinforcement, or open fire (5.b)")),
    _d("command_roll", "combat", "A-7", CHANCE, N_("rolling for command"),
       N_("roll the die for this day's command (A-7)"), COMMANDER),
    _d("firers", "combat", "A-7", FIRING, N_("choosing the units that fire"),
       N_("choose the units that fire, then fire (A-7)")),
    _d("leader_points", "combat", "AO-8.2", FIRING, N_("giving the leaders' points"),
       N_("give each leader's point to a unit (AO-8.2)")),
    _d("targets", "combat", "5.1.a", FIRING, N_("choosing the targets"),
       N_("choose each unit's target, or fire automatically (5.1.a)")),
    _d("shot", "combat", "5.1.b", CHANCE, N_("rolling a shot"),
       N_("roll the die for this shot (5.1.b)"), FIRING),
    _d("morale_roll", "combat", "AO-8.1", CHANCE, N_("rolling for battlefield morale"),
       N_("roll the die for a unit's battlefield morale (AO-8.1)"), UNIT_OWNER),
    _d("rally", "combat", "AO-8.11", RALLYING, N_("rallying routed units"),
       N_("rally a routed unit, or none (AO-8.11)")),
    _d("rout_retreat", "combat", "AO-8.12", LOSER, N_("retreating the routed units"),
       N_("choose where the routed units retreat (AO-8.12)")),
    _d("desertion_roll", "combat", "AO-8.12", CHANCE, N_("rolling for desertion"),
       N_("roll the die for a unit's desertion test (AO-8.12)"), UNIT_OWNER),
    _d("battle_promotion", "combat", "6.a", WINNER, N_("promoting after a battle"),
       N_("promote a unit that won the battle, or none (6.a)")),
    _d("training_roll", "promotion", "O-4.3", CHANCE, N_("rolling for replacement training"),
       N_("roll the die for replacement training (O-4.3)"), CONFEDERATE),
    _d("promotion", "promotion", "6.b", PHASING, N_("promoting a unit"),
       N_("promote a unit, or none (6.b)")),
    _d("leader_return", "recruitment", "AO-8.2", PHASING, N_("placing the returning leaders"),
       N_("place the returning leader (AO-8.2)")),
    _d("recruit_roll", "recruitment", "7.a", CHANCE, N_("rolling for the number of recruits"),
       N_("roll the die for the number of recruits (7.a)"), PHASING),
    _d("recruitment", "recruitment", "7.b", PHASING, N_("placing recruits"),
       N_("place a recruit in a recruiting city, or end the recruitment (7.b)")),
    _d("washington_roll", "recruitment", "A-6", CHANCE, N_("rolling for the capture of Washington"),
       N_("roll the die for the capture of Washington (A-6)"), PHASING),
    _d("over", "over", "10", NOBODY, N_("the game is over"), N_("the game is over (10)")),
])

#: The segment (3.a) of each step.
SEGMENT_OF_STEP = {step: d.segment for step, d in DECISIONS.items()}
#: The steps where a die is pending (``current_player`` is ``"chance"``).
CHANCE_STEPS = tuple(step for step, d in DECISIONS.items() if d.is_chance)


def decision(step: str) -> Decision:
    """The table's entry for ``step`` (KeyError for a name the engine never uses)."""
    return DECISIONS[step]


def player_of(state: "State") -> "Side | str | None":
    """Who the engine takes the next action from: a side, ``"chance"`` for a pending die, None once over."""
    entry = DECISIONS[state.step]
    if entry.is_chance:
        return CHANCE
    return _ROLE_SIDE[entry.decider](state)


def die_owner_of(state: "State") -> Side | None:
    """The side who rolls the pending die at the table, or None when no die is pending."""
    entry = DECISIONS[state.step]
    return _ROLE_SIDE[entry.die_owner](state) if entry.is_chance else None


def die_owner(game: "Game") -> Side | None:
    """The side who rolls the pending die at the table (the firing side for a shot, the unit's owner for a
    morale or desertion test...), or None when no die is pending."""
    return die_owner_of(game.state)


def deciding_side(game: "Game") -> Side | None:
    """The side who makes the pending decision: the side to move, or for a die the side who rolls it at the
    table; None once the game is over."""
    state = game.state
    entry = DECISIONS[state.step]
    return _ROLE_SIDE[entry.die_owner if entry.is_chance else entry.decider](state)


def prompt(game: "Game") -> Msg:
    """What the decider is asked now, with the rule: "Union: begin a march, move by sea, or end the movement
    (4.b)" (a message: ``str()`` says it in the current language, ``render(.., lang)`` in another)."""
    entry = DECISIONS[game.state.step]
    side = deciding_side(game)
    return Msg(entry.prompt) if side is None else Msg(N_("{side}: {task}"), side=side, task=task(game))


def task(game: "Game") -> Msg:
    """What the pending decision asks, without who decides: "begin a march, move by sea, or end the movement
    (4.b)" (the app puts its own "Union to move." before it)."""
    return Msg(DECISIONS[game.state.step].prompt)


def march_open(game: "Game") -> bool:
    """A march has begun and its units are moving (4.b): a click moves them, or ends the march."""
    return game.state.step == "march"


def choosing_march(game: "Game") -> bool:
    """The Movement segment waits for the next march, a move by sea or its end (4.b)."""
    return game.state.step == "movement"


def play(game: "Game") -> str:
    """How the pending decision is played: MARCH, BOX, PANEL, DIE or OVER."""
    return DECISIONS[game.state.step].play


def label(step: str) -> Msg:
    """A short phrase naming a decision ("choosing the next march"), for lists and headings."""
    return Msg(DECISIONS[step].label)


def step_term(step: str) -> Term:
    """The decision's name as refusals say it ("now the decision is choose battle")."""
    return Term("decision", step.replace("_", " "))


#: The field of each kind of action that names the box it is played on (a path: its last box; a unit: the
#: box it stands in). A kind not listed is played in a panel.
BOX_FIELD = {"move": "path", "leader_move": "path", "naval_move": "to", "cavalry_retreat": "to", "retreat": "to",
             "invade": "port", "begin_march": "origin", "choose_battle": "box", "place_leader": "box",
             "contain": "box", "assault": "box", "break_out": "box", "recruit": "box", "reinforce": "unit",
             "promote": "unit", "entrench": "unit", "starve": "unit"}


def action_box(game: "Game", action: "Action") -> str | None:
    """The box a listed action is played on (its destination or place), or None for an action played in a
    panel (rolls, ends, targets, choices with no box)."""
    field = BOX_FIELD.get(action.kind)
    if field is None:
        return None
    value = getattr(action, field)
    if field == "path":
        return value[-1]
    if field == "unit":
        unit = game.state.units.get(value)
        return unit.location if unit is not None else None
    return value
