"""Battles (§5, H-1, H-2, C-1): fire, targets, damage, reinforcements, retreats.

Pure rule functions over a State and its current Battle; the flow of rounds and firing moments
lives in ``engine.py``.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import IllegalActionError
from .i18n import Joined, Msg, Msgc, N_, get_language, render  # noqa: F401  (Joined: re-exported)
from .i18n import Term as Name
from .sides import Side
from .state import Battle, State
from .units import ASIDE, CRACK, MILITIA, OUT, POOL, REDUCED, Unit, unit_name  # noqa: F401


def battle_units(state: State, battle: Battle, side: Side) -> list[Unit]:
    """The side's units fighting in the battle (routed ones are out, AO-8.1), in a stable order (by id)."""
    return sorted((u for u in state.by_box[battle.box] if u.side is side and not u.routed), key=lambda u: u.id)


def routed_units(state: State, battle: Battle, side: Side) -> list[Unit]:
    """AO-8.1: the side's routed units in the battle box."""
    return sorted((u for u in state.by_box[battle.box] if u.side is side and u.routed), key=lambda u: u.id)


#: T-5 morale by quality (militia: 2 in 1861, 3 later).
MORALE = {"crack": 5, "veteran": 4}


def morale(state: State, unit: Unit) -> int:
    """T-5: crack 5, veteran 4, militia 3 from 1862 (2 in 1861)."""
    from .calendar import Turn
    if unit.type.quality in MORALE:
        return MORALE[unit.type.quality]
    return 2 if Turn.of(state.turn).year == 1861 else 3


def shooters(state: State, battle: Battle) -> list[Unit]:
    """The firing side's shooters this moment: all its battle units, or under A-7 those chosen."""
    units = battle_units(state, battle, battle.firing)
    if battle.firers is None:
        return units
    return [u for u in units if u.id in battle.firers]


def is_entrenched_in_battle(state: State, battle: Battle, unit: Unit) -> bool:
    """4.2.5 for targets in this battle; H-1: reinforcements are never entrenched in it."""
    if "H-1" in state.options and unit.id in battle.reinforced:
        return False
    if battle.contained_attack and unit.side is battle.attacker:
        return False  # A-4 (c): attacking in a contained box costs the attacker its entrenchment
    return state.is_entrenched(unit)


@dataclass(frozen=True, slots=True)
class Term:
    """One term of a shot's effective value (5.2.a): its signed amount, what it is and the rule behind it."""

    amount: int
    what: str
    rule: str

    @property
    def base(self) -> bool:
        """The shooter's own value (T-1; A-5 for a coastal defence, AO-8.4 for a foreign unit)."""
        return self.rule in BASE_RULES

    def msg(self) -> Msg:
        """The term as a message: 'veteran infantry 3', '+ 1 river crossing (5.2.3)'."""
        if self.base:
            what = Name("unit", self.what)
            if self.rule == "T-1":
                return Msgc("shot term", "{what} {amount}", what=what, amount=self.amount)
            return Msgc("shot term", "{what} {amount} ({rule})", what=what, amount=self.amount, rule=self.rule)
        return Msgc("shot term", "{sign} {amount} {what} ({rule})", sign="+" if self.amount >= 0 else "−",
                    amount=abs(self.amount), what=Msg(self.what), rule=self.rule)

    def __msg__(self, lang: str) -> str:
        return self.msg().render(lang)

    def __str__(self) -> str:
        return self.msg().render()


#: The rules giving a shooter's own value: T-1 (the unit table), A-5 (a coastal defence), AO-8.4 (foreign units).
BASE_RULES = ("T-1", "A-5", "AO-8.4")


def value_terms(shooter_value: int, shooter_name: str = "shooter", *, crossing_bonus: bool, target_entrenched: bool,
                target_crack_infantry: bool, leader_points: int = 0, base_rule: str = "T-1") -> list[Term]:
    """5.2.a, term by term: the shooter's value (T-1), + 1 river crossing (5.2.3), + leader points
    (AO-8.2.2), − 1 entrenched target (5.2.1), − 1 crack infantry target (5.2.2). Only the terms that
    apply are listed; their sum is the effective value (the one computation behind ``shot_value``,
    ``effective_value`` and the shot's explanation)."""
    terms = [Term(shooter_value, shooter_name, base_rule)]
    if crossing_bonus:
        terms.append(Term(1, N_("river crossing"), "5.2.3"))
    if leader_points:
        terms.append(Term(leader_points, N_("leader points") if leader_points > 1 else N_("leader point"), "AO-8.2.2"))
    if target_entrenched:
        terms.append(Term(-1, N_("entrenched"), "5.2.1"))
    if target_crack_infantry:
        terms.append(Term(-1, N_("crack infantry target"), "5.2.2"))
    return terms


def shot_value(shooter_value: int, *, crossing_bonus: bool, target_entrenched: bool, target_crack_infantry: bool) -> int:
    """5.2.a: value + 1 river crossing − 1 entrenched target − 1 crack infantry target."""
    return sum(t.amount for t in value_terms(shooter_value, crossing_bonus=crossing_bonus,
                                             target_entrenched=target_entrenched,
                                             target_crack_infantry=target_crack_infantry))


def shot_terms(state: State, battle: Battle, shooter: Unit, target: Unit) -> list[Term]:
    """The terms of a shot of this battle (5.2.a): 5.2.3 applies to the defender's shots in rounds 1–2 at
    crossing attackers that did not come as reinforcements; entrenchment as ``is_entrenched_in_battle``
    (4.2.5, H-1, A-4 c); leader points given to the shooter this moment (AO-8.2.2)."""
    return value_terms(
        shooter.type.value, shooter.type.name,
        crossing_bonus=(shooter.side is battle.defender and battle.round <= 2 and target.crossing
                        and target.id not in battle.reinforced),
        target_entrenched=is_entrenched_in_battle(state, battle, target),
        target_crack_infantry=target.type.is_crack_infantry,
        leader_points=sum(1 for _, uid in battle.leader_points if uid == shooter.id),
        base_rule="A-5" if shooter.is_coastal else "AO-8.4" if shooter.is_foreign else "T-1")


def effective_value(state: State, battle: Battle, shooter: Unit, target: Unit) -> int:
    """5.2.a for a shot of this battle: the sum of ``shot_terms``."""
    return sum(t.amount for t in shot_terms(state, battle, shooter, target))


def explain_terms_msg(terms: Sequence[Term]) -> Msg:
    """``explain_terms`` as a message, said in any language."""
    joined = Joined(terms, " ")
    if len(terms) == 1:
        return Msg("{terms}, no modifier", terms=joined)
    return Msgc("shot terms", "{terms}", terms=joined)


def explain_terms(terms: Sequence[Term]) -> str:
    """'veteran infantry 3 + 1 river crossing (5.2.3) − 1 entrenched (5.2.1)'; 'militia infantry 2, no
    modifier' when nothing modifies the shooter's value (in the current language)."""
    return explain_terms_msg(terms).render()


def explain_shot(state: State, battle: Battle, shooter: Unit, target: Unit) -> Msg:
    """How a shot's number is reached: '3 = veteran infantry 3 + 1 river crossing (5.2.3) − 1 entrenched
    (5.2.1)'; with H-2 on, a note that a 6 still misses when the number is 6 or more. A message (its
    ``str`` is the current language's)."""
    terms = shot_terms(state, battle, shooter, target)
    value = sum(t.amount for t in terms)
    if value >= 6 and "H-2" in state.options:
        return Msg("{value} = {terms}; a 6 always misses (H-2)", value=value, terms=explain_terms_msg(terms))
    return Msg("{value} = {terms}", value=value, terms=explain_terms_msg(terms))


def hit_probability(value: int, h2: bool) -> float:
    """Chance that one shot of effective value ``value`` hits (5.1.b, H-2)."""
    if value <= 0:
        return 0.0
    return min(value, 5 if h2 else 6) / 6


def leader_point_shot(values: Sequence[int], given: Sequence[int], h2: bool) -> int | None:
    """AO-8.2.2, the automatic choice of where the next leader point goes: the shot (index into
    ``values``, the shots' effective values with the points given so far) whose hit chance it raises,
    the one with the fewest points yet, the first on ties, so points spread (Lee 3: 1+1+1); None if
    no shot gains (all sure hits, or too weak for one point to help)."""
    cap = 5 if h2 else 6
    best = None
    for i, value in enumerate(values):
        if 0 <= value < cap and (best is None or given[i] < given[best]):
            best = i
    return best


def leader_points_plan(values: Sequence[int], points: int, h2: bool) -> list[int]:
    """The points of a side's leaders (AO-8.2.2) spread over its shots by ``leader_point_shot``:
    the effective values afterwards."""
    values, given = list(values), [0] * len(values)
    for _ in range(points):
        i = leader_point_shot(values, given, h2)
        if i is None:
            break
        values[i] += 1
        given[i] += 1
    return values


def hit_roll_needed(state: State, value: int) -> bool:
    """Is the outcome of a shot uncertain? ≤ 0 never hits; ≥ 6 always hits unless H-2."""
    if value <= 0:
        return False
    return value < 6 or "H-2" in state.options


def is_hit(state: State, value: int, natural: int) -> bool:
    """5.1.b: hit if roll ≤ effective value; H-2: a natural 6 always misses."""
    if value <= 0:
        return False
    if natural == 6 and "H-2" in state.options:
        return False
    return natural <= value


# --------------------------------------------------------------------------- targets (5.1.a)
def required_distinct(shooters: int, enemies: int) -> int:
    return min(shooters, enemies)


def next_shooter(state: State, battle: Battle) -> Unit | None:
    declared = {s for s, _ in battle.targets}
    for unit in shooters(state, battle):
        if unit.id not in declared:
            return unit
    return None


def _spread_feasible(shooters: list[Unit], enemies: list[Unit], targets: list[tuple[str, str]]) -> bool:
    """5.1.a: can the remaining shooters still reach min(shooters, enemies) distinct targets?"""
    distinct = len({t for _, t in targets})
    return distinct + len(shooters) - len(targets) >= required_distinct(len(shooters), len(enemies))


def _priorities_feasible(shooters: list[Unit], enemies: list[Unit], targets: list[tuple[str, str]]) -> bool:
    """O-2.2: cavalry covers min(cavalry, enemy cavalry) distinct enemy cavalry and then spreads over
    the other enemies before doubling; infantry covers min(infantry, enemy infantry) distinct enemy
    infantry and may fire at cavalry only once every enemy infantry is covered by infantry."""
    arm = {u.id: u.type.is_cavalry for u in shooters + enemies}
    enemy_cav = sum(1 for u in enemies if u.type.is_cavalry)
    enemy_inf = len(enemies) - enemy_cav
    for cavalry in (True, False):
        group = [u for u in shooters if arm[u.id] is cavalry]
        declared = [t for s, t in targets if arm[s] is cavalry]
        remaining = len(group) - len(declared)
        same_arm = {t for t in declared if arm[t] is cavalry}
        need_same = min(len(group), enemy_cav if cavalry else enemy_inf) - len(same_arm)
        if need_same > remaining:
            return False
        if cavalry:
            need_distinct = min(len(group), len(enemies)) - len(set(declared))
            if need_distinct > remaining:
                return False
    return True


def check_target(state: State, battle: Battle, shooter_id: str, target_id: str) -> IllegalActionError | None:
    firing = shooters(state, battle)
    if battle.firers is not None and shooter_id not in battle.firers and \
            shooter_id in {u.id for u in battle_units(state, battle, battle.firing)}:
        return IllegalActionError("A-7", Msg("{shooter} was not chosen to fire this moment", shooter=shooter_id))
    return _check_target(state, battle, firing, shooter_id, target_id)


def _check_target(state: State, battle: Battle, shooters: list[Unit], shooter_id: str,
                  target_id: str) -> IllegalActionError | None:
    enemies = battle_units(state, battle, battle.firing.enemy)
    declared = {s for s, _ in battle.targets}
    if shooter_id not in {u.id for u in shooters}:
        return IllegalActionError("5.1.a", Msg("{shooter} is not a firing unit of this battle", shooter=shooter_id))
    if shooter_id in declared:
        return IllegalActionError("5.1.a", Msg("{shooter} has already declared its target", shooter=shooter_id))
    if target_id not in {u.id for u in enemies}:
        return IllegalActionError("5.1.a", Msg("{target} is not an enemy unit in this battle", target=target_id))
    coastal = forced_target(state, battle)
    if coastal is not None:
        if target_id != coastal.id:
            return IllegalActionError("A-5", Msg("while the coastal defence {coastal} survives every Union shot "
                                                 "must target it", coastal=coastal.id))
        return None
    targets = battle.targets + [(shooter_id, target_id)]
    if "O-2.2" in state.options:
        if not declaration_feasible(state.options, shooters, enemies, targets):
            return IllegalActionError(
                "O-2.2", Msg("battlefield targets: cavalry first fires at distinct enemy cavalry, then at other enemies "
                             "before doubling up; infantry fires at enemy cavalry only once every enemy infantry "
                             "unit is targeted by infantry"))
    elif not _spread_feasible(shooters, enemies, targets):
        needed = required_distinct(len(shooters), len(enemies))
        return IllegalActionError(
            "5.1.a", Msg("targets must be spread: {needed} different enemy units must be targeted before any "
                         "unit is fired at twice", needed=needed))
    return None


def forced_target(state: State, battle: Battle) -> Unit | None:
    """A-5 (c): the surviving coastal defence every Union shot must target, or None."""
    if battle.firing is not Side.UNION:
        return None
    return next((u for u in state.by_box[battle.box] if u.is_coastal), None)


def check_volley(state: State, battle: Battle, targets: tuple[tuple[str, str], ...]) -> IllegalActionError | None:
    firing = {u.id for u in shooters(state, battle)}
    if battle.targets:
        return IllegalActionError("5.1.a", Msg("some targets are already declared; declare the rest one by one"))
    given = [s for s, _ in targets]
    if sorted(given) != sorted(firing):
        return IllegalActionError("5.1.a", Msg("a volley declares exactly one target for every firing unit"))
    trial = battle.copy()
    for shooter, target in targets:
        error = check_target(state, trial, shooter, target)
        if error:
            return error
        trial.targets.append((shooter, target))
    return None


def greedy_targets(shooters: list, enemies: list, declared: list[tuple[str, str]], value, legal) -> list[tuple[str, str]]:
    """The default spread (also the odds' default firing policy): shooters, best shot first, each take
    the legal target they are likeliest to hit, preferring enemies not yet covered, then reduced ones,
    then the most valuable. ``value(shooter, target)`` is the effective value; ``legal(targets)`` says
    whether a partial declaration can still be completed under 5.1.a / O-2.2."""
    if not enemies:
        return []
    shooters = sorted(shooters, key=lambda s: -max(value(s, t) for t in enemies))
    targets = list(declared)
    result = []
    for shooter in shooters:
        covered = {t for _, t in targets}
        options = [t for t in enemies if legal(targets + [(shooter.id, t.id)])]
        target = max(options, key=lambda t: (t.id not in covered, value(shooter, t), t.strength == REDUCED,
                                             t.type.value, t.id))
        targets.append((shooter.id, target.id))
        result.append((shooter.id, target.id))
    return result


def declaration_feasible(options, shooters: list, enemies: list, targets: list[tuple[str, str]]) -> bool:
    if "O-2.2" in options:
        return _priorities_feasible(shooters, enemies, targets)
    return _spread_feasible(shooters, enemies, targets)


def auto_targets(state: State, battle: Battle) -> list[tuple[str, str]]:
    """FireAuto: the remaining shooters' targets by ``greedy_targets``. Always legal (5.1.a or O-2.2)."""
    firing = shooters(state, battle)
    enemies = battle_units(state, battle, battle.firing.enemy)
    declared = {s for s, _ in battle.targets}
    coastal = forced_target(state, battle)
    if coastal is not None:
        return [(u.id, coastal.id) for u in firing if u.id not in declared]
    return greedy_targets(
        [u for u in firing if u.id not in declared], enemies, battle.targets,
        lambda s, t: effective_value(state, battle, s, t),
        lambda targets: declaration_feasible(state.options, firing, enemies, targets))


# --------------------------------------------------------------------------- damage (5.1.c, 5.d)
def eliminate(state: State, unit: Unit, in_battle: bool = True) -> None:
    """5.d: militia back to the owner's pool; veteran and crack out of the game. A destroyed coastal
    defence (A-5) is set aside until its battle ends."""
    if unit.is_coastal:
        state.place(unit, OUT)
        return
    if unit.is_foreign:
        state.place(unit, ASIDE)  # AO-8.4 (d): set aside, may come back to Europe
        return
    if in_battle and unit.side is Side.CONFEDERATE and unit.type.is_infantry and unit.type.quality != MILITIA:
        state.veteran_losses += 1  # O-4.3
    state.place(unit, POOL if unit.type.quality == MILITIA else OUT)


def damage(state: State, unit: Unit) -> bool:
    """5.1.c: full → reduced, reduced → eliminated. Returns True if eliminated."""
    if unit.strength == REDUCED:
        eliminate(state, unit)
        return True
    unit.strength = REDUCED
    return False


# --------------------------------------------------------------------------- recovery (5.2.7)
def recover_all(state: State) -> int:
    count = 0
    for unit in state.units.values():
        if unit.on_map and unit.strength == REDUCED:
            unit.strength = "full"
            count += 1
    return count


def is_promotable(unit: Unit) -> bool:
    return unit.type.quality != CRACK and not unit.is_coastal and not unit.is_foreign  # A-5, AO-8.4 (c)
