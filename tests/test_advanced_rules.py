"""Advanced rules (A-2 … A-7) as switches: each changes play as specified when on, nothing when off.

Dice are typed in (manual); positions are built with the conftest scenario builder.
"""
from __future__ import annotations

import pytest

import ahd
from ahd.core.options import PRESETS, SWITCHES
from ahd.core.sides import CHANCE, Side

from conftest import assert_refused, make_game, march, pass_until

U, C = Side.UNION, Side.CONFEDERATE
BASIC = ["H-1", "H-2", "H-3"]


def with_rules(*rules):
    return BASIC + list(rules)


def to_march_roll(game, side=U):
    pass_until(game, lambda g: g.decision == "march_roll" and g.phasing is side)


# =========================================================================== A-3
@pytest.mark.rule("A-3")
@pytest.mark.parametrize("turn, side, die, marches", [
    (12, U, 1, 2), (12, U, 3, 3), (12, U, 6, 4), (12, C, 6, 5), (12, C, 1, 3),   # 1862 (turn 13)
    (4, U, 6, 4), (4, C, 1, 2),                                                   # 1861 (turn 5)
    (24, C, 6, 6), (24, U, 2, 3),                                                 # 1863 (turn 25)
    (34, U, 6, 5), (34, C, 3, 4),                                                 # 1864 (turn 35)
    (35, U, 6, 6), (35, C, 6, 5),                                                 # 1865 (turn 36)
])
def test_march_roll_read_on_the_command_table(turn, side, die, marches):
    game = make_game([("union", "MF", "chicago"), ("confederate", "MF", "atlanta")], turn=turn,
                     options=with_rules("A-3"))
    to_march_roll(game, side)
    game.apply(ahd.Roll(die))
    assert game.marches_left == marches
    assert "T-4" in game.log[-1].text


@pytest.mark.rule("A-3")
def test_without_the_command_table_the_die_is_the_allowance():
    game = make_game([("union", "MF", "chicago"), ("confederate", "MF", "atlanta")], turn=12)
    to_march_roll(game, C)
    game.apply(ahd.Roll(6))
    assert game.marches_left == 6


@pytest.mark.rule("A-3")
@pytest.mark.rule("4.2.4")
def test_natural_six_still_allows_the_invasion_with_the_command_table():
    game = make_game([("union", "MF", "washington", 2), ("confederate", "MF", "atlanta")], turn=12,
                     options=with_rules("A-3"))
    to_march_roll(game)
    game.apply(ahd.Roll(6))
    assert game.marches_left == 4
    assert ahd.Invade("U-MF-01", "mobile") in game.legal_actions()
    game.apply(ahd.Invade("U-MF-01", "mobile"))
    assert game.units_in("mobile")[0].id == "U-MF-01"
    # a 5 gives as many marches in 1864 as a 6, but no invasion
    other = make_game([("union", "MF", "washington", 2), ("confederate", "MF", "atlanta")], turn=34,
                      options=with_rules("A-3"))
    to_march_roll(other)
    other.apply(ahd.Roll(5))
    assert other.marches_left == 5
    assert not any(isinstance(a, ahd.Invade) for a in other.legal_actions())
    assert_refused(other, ahd.Invade("U-MF-01", "mobile"), "4.2.4")


# =========================================================================== A-6
def washington_raid(options):
    """A Confederate MF walks into an empty Washington in the Confederate half of turn 2."""
    game = make_game([("confederate", "MF", "manassas_junction"), ("union", "MF", "chicago")],
                     options=options, control={"union": ["richmond"]})  # keeps 11.b(2) out of reach
    pass_until(game, lambda g: g.phasing is C and g.decision == "movement")
    march(game, "manassas_junction", ahd.Move("C-MF-01", ("manassas_junction", "washington"), ("rail",)))
    before = game.army_max(U)
    pass_until(game, lambda g: g.decision in ("washington_roll", "over") or g.turn.number == 3)
    return game, before


@pytest.mark.rule("A-6")
@pytest.mark.parametrize("die, fall", [(1, 2), (2, 2), (4, 4), (6, 6)])
def test_capture_of_washington_costs_the_roll_and_does_not_win(die, fall):
    game, before = washington_raid(with_rules("A-6"))
    assert game.decision == "washington_roll" and game.current_player == CHANCE
    assert "A-6" in game.pending_roll
    assert game.controller("washington") is C
    game.apply(ahd.Roll(die))
    assert not game.is_over
    assert game.army_max(U) == before - fall
    assert game.state.washington_penalty == fall - 1
    assert game.turn.number == 3


@pytest.mark.rule("A-6")
@pytest.mark.rule("11.b")
def test_without_a6_washington_wins_for_the_confederacy():
    game, _ = washington_raid(BASIC)
    assert game.is_over and game.outcome.winner is C and game.outcome.rule == "11.b"


@pytest.mark.rule("A-6")
def test_recapture_restores_only_washington_s_value_and_a_second_capture_repeats():
    game, before = washington_raid(with_rules("A-6"))
    game.apply(ahd.Roll(5))
    assert game.army_max(U) == before - 5
    # the Union retakes Washington: only its own value 1 comes back
    game.state.place(game.state.units["C-MF-01"], "manassas_junction")
    game.state.place(game.state.units["U-MF-01"], "washington")
    pass_until(game, lambda g: g.phasing is C and g.decision == "movement")
    assert game.controller("washington") is U
    assert game.army_max(U) == before - 4
    # a second capture rolls again and adds its own penalty
    game.state.place(game.state.units["U-MF-01"], "chicago")
    march(game, "manassas_junction", ahd.Move("C-MF-01", ("manassas_junction", "washington"), ("rail",)))
    pass_until(game, lambda g: g.decision == "washington_roll")
    game.apply(ahd.Roll(3))
    assert game.state.washington_penalty == 4 + 2
    assert game.army_max(U) == before - 1 - 6


# =========================================================================== presets
@pytest.mark.rule("0.2")
def test_advanced_and_everything_presets():
    assert {"A-3", "A-6"} <= set(PRESETS["advanced"])
    assert set(PRESETS["advanced"]) - set(BASIC) == {r for r in SWITCHES if r.startswith("A-")}
    assert set(PRESETS["everything"]) == set(SWITCHES) - {"S-12"}
    for name in ("advanced", "everything"):
        game = ahd.new_game("1862", options=name, seed=5)
        assert set(game.options.to_list()) == set(PRESETS[name])


def test_cli_plays_the_advanced_presets():
    import io
    from ahd.cli import main
    out = io.StringIO()
    assert main(["options"], out=out) == 0
    assert "advanced" in out.getvalue() and "everything" in out.getvalue()
    for preset in ("advanced", "everything"):
        out = io.StringIO()
        assert main(["play", "--scenario", "1863", "--preset", preset, "--union", "random",
                     "--confederate", "random", "--seed", "4", "--quiet"], out=out) == 0
        assert "A-3" in out.getvalue() and "Outcome:" in out.getvalue()


# =========================================================================== A-5
def invasion(options, port="mobile", defenders=(), invaders=2, roll=6):
    """Turn 13 (1862): the Union rolls a 6 and invades ``port`` from Washington with ``invaders`` MF."""
    units = [("union", "MF", "washington", 3), ("confederate", "MF", "atlanta")]
    units += [("confederate", code, port) for code in defenders]
    game = make_game(units, turn=12, options=options)
    to_march_roll(game)
    game.apply(ahd.Roll(roll))
    for i in range(1, invaders + 1):
        game.apply(ahd.Invade(f"U-MF-0{i}", port))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    return game


def rolls(game, *values):
    for value in values:
        assert game.current_player == CHANCE, game.decision
        game.apply(ahd.Roll(value))


@pytest.mark.rule("A-5")
def test_invading_an_empty_defended_port_meets_a_coastal_defence():
    game = invasion(with_rules("A-5"))
    battle = game.battle
    assert battle is not None and battle.box == "mobile"
    (defence,) = game.units_in("mobile", C)
    assert defence.is_coastal and defence.type.value == 2 and game.is_entrenched(defence.id)
    assert "coastal defence" in str(ahd.Target("U-MF-01", defence.id))
    # it fires first, with the river +1 against the crossing invaders: 2 + 1 = 3
    assert game.decision == "targets" and battle.firing is C
    game.apply(ahd.Target(defence.id, "U-MF-01"))
    assert "hits on 3 or less" in game.pending_roll
    rolls(game, 3)
    assert game.unit("U-MF-01").is_reduced
    # the Union's shots: only at the coastal defence; militia value 2 − 1 entrenched = 1
    assert "1 or less" in game.pending_roll
    rolls(game, 1, 1)  # two hits destroy it
    assert game.battle is None or game.decision != "battle_promotion"
    assert not any(u.is_coastal for u in game.state.units.values())
    assert [u.id for u in game.units_in("mobile")] == ["U-MF-01", "U-MF-02"]
    assert game.decision != "battle_promotion"  # A-5 (d): no promotion for beating only the defence


@pytest.mark.rule("A-5")
def test_without_coastal_defences_an_empty_port_is_simply_occupied():
    game = invasion(BASIC)
    assert game.battle is None and game.phase != "combat"
    pass_until(game, lambda g: g.phasing is C)
    assert game.controller("mobile") is U


@pytest.mark.rule("A-5")
def test_no_coastal_defence_in_a_port_without_a_confederate_value():
    game = invasion(with_rules("A-5"), port="norfolk")
    assert game.battle is None
    assert not any(u.is_coastal for u in game.state.units.values())


@pytest.mark.rule("A-5")
def test_every_union_shot_must_target_the_surviving_coastal_defence():
    game = invasion(with_rules("A-5"), defenders=("MF",))
    defence = next(u for u in game.units_in("mobile", C) if u.is_coastal)
    game.apply(ahd.FireAuto())
    rolls(game, 6, 6)  # the defenders miss
    assert game.battle.firing is U and game.decision == "targets"
    assert_refused(game, ahd.Target("U-MF-01", "C-MF-02"), "A-5")
    assert_refused(game, ahd.Volley((("U-MF-01", defence.id), ("U-MF-02", "C-MF-02"))), "A-5")
    legal = [a for a in game.legal_actions() if isinstance(a, ahd.Target)]
    assert legal and all(a.target == defence.id for a in legal)
    game.apply(ahd.FireAuto())
    assert all(t == defence.id for _, t in game.battle.targets)
    # first shot reduces it, the second destroys it; both rolls are needed
    rolls(game, 1, 1)
    assert not any(u.is_coastal for u in game.units_in("mobile"))
    # without A-5 the Union may fire at the militia
    plain = invasion(BASIC, defenders=("MF",))
    plain.apply(ahd.FireAuto())
    rolls(plain, 6)  # one defender: one shot; then the Union's only target is the militia
    assert plain.battle.firing is U and ("U-MF-01", "C-MF-02") in plain.battle.targets


@pytest.mark.rule("A-5")
def test_surplus_shots_at_a_destroyed_coastal_defence_are_lost():
    game = invasion(with_rules("A-5"), defenders=("MF",), invaders=3)
    defence = next(u for u in game.units_in("mobile", C) if u.is_coastal)
    game.apply(ahd.FireAuto())
    rolls(game, 6, 6)
    game.apply(ahd.FireAuto())
    rolls(game, 1, 1)  # destroyed after two shots
    assert any("is lost" in e.text for e in game.log[-3:])
    assert game.unit(defence.id).location == "@out"  # set aside until the battle ends
    assert game.unit("C-MF-02").strength == "full"
    pass_until(game, lambda g: g.battle is None)
    assert defence.id not in game.state.units


@pytest.mark.rule("A-5")
def test_a_lone_coastal_defence_cannot_retreat_and_others_leave_it_behind():
    game = invasion(with_rules("A-5"))
    defence = next(u for u in game.units_in("mobile", C) if u.is_coastal)
    game.apply(ahd.Target(defence.id, "U-MF-01"))
    rolls(game, 6, 4, 4)  # everybody misses: round 2
    assert game.battle.round == 2 and game.battle.firing is C
    assert game.decision == "targets"  # no retreat (nor reinforcement) to offer: straight to fire
    from ahd.core import battle_moves
    assert battle_moves.retreat_barrier(game.state, game.battle, C, "meridian").rule == "A-5"
    # with a militia beside it, a retreat takes only the militia; the defence ends with the battle
    other = invasion(with_rules("A-5"), defenders=("MF",))
    other.apply(ahd.FireAuto())
    rolls(other, 6, 6)
    other.apply(ahd.FireAuto())
    rolls(other, 4, 4)
    assert other.battle.round == 2 and other.decision == "battle_options"
    other.apply(ahd.Retreat("meridian"))
    assert [u.id for u in other.units_in("meridian")] == ["C-MF-02"]
    assert not any(u.is_coastal for u in other.state.units.values())
    assert other.decision == "battle_promotion"  # a militia took part: the Union winner may promote


# =========================================================================== A-2
@pytest.mark.rule("A-2.1")
@pytest.mark.rule("A-2.3")
def test_an_unsupplied_stack_loses_one_unit_of_its_owner_s_choice():
    game = make_game([("union", "MF", "atlanta"), ("union", "FV", "atlanta"), ("union", "MF", "chicago"),
                      ("confederate", "MF", "richmond")], options=with_rules("A-2"))
    assert game.decision == "supply" and game.current_player is U and game.phase == "movement"
    assert set(game.legal_actions()) == {ahd.Starve("U-MF-01"), ahd.Starve("U-FV-01")}
    assert "Out of supply" in str(ahd.Starve("U-FV-01"))
    assert_refused(game, ahd.Starve("U-MF-02"), "A-2.3")    # not in the stack
    assert_refused(game, ahd.Starve("C-MF-01"), "A-2.3")    # not his unit
    assert_refused(game, ahd.EndMovement(), "3.a")          # the loss comes first
    game.apply(ahd.Starve("U-MF-01"))
    assert game.unit("U-MF-01").location == "@pool"         # 5.d: militia back to the pool
    assert [u.id for u in game.units_in("atlanta")] == ["U-FV-01"]
    assert game.decision == "movement"
    assert any("A-2.3" in e.text for e in game.log)
    assert ahd.action_from_dict(ahd.Starve("U-FV-01").to_dict()) == ahd.Starve("U-FV-01")


@pytest.mark.rule("A-2.1")
def test_supply_switched_off_or_supplied_or_lone_units_lose_nothing():
    off = make_game([("union", "MF", "atlanta", 2), ("confederate", "MF", "richmond")])
    assert off.decision == "movement" and len(off.units_in("atlanta")) == 2
    # a lone unit is supplied; a stack in a home city with rail to others is supplied
    on = make_game([("union", "MF", "atlanta"), ("union", "MF", "chicago", 3), ("confederate", "MF", "richmond")],
                   options=with_rules("A-2"))
    assert on.decision == "movement"


@pytest.mark.rule("A-2.1")
def test_union_stacks_in_a_port_are_supplied():
    game = make_game([("union", "MF", "mobile", 2), ("union", "MF", "atlanta", 2)], options=with_rules("A-2"))
    assert game.decision == "supply"
    assert {a.unit for a in game.legal_actions()} == {"U-MF-03", "U-MF-04"}   # only the Atlanta stack
    game.apply(ahd.Starve("U-MF-03"))
    assert game.decision == "movement" and len(game.units_in("mobile")) == 2


@pytest.mark.rule("A-2.2")
def test_supply_line_is_cut_by_enemy_units_and_the_check_is_the_phasing_player_s():
    # Ironton's only rail runs to St. Louis
    supplied = make_game([("union", "MF", "ironton", 2)], options=with_rules("A-2"))
    assert supplied.decision == "movement"
    cut = make_game([("union", "MF", "ironton", 2), ("confederate", "MF", "st_louis")], options=with_rules("A-2"))
    assert cut.decision == "supply" and {a.unit for a in cut.legal_actions()} == {"U-MF-01", "U-MF-02"}
    # the Confederate stack at Ironton is checked only at the start of the Confederate half
    game = make_game([("union", "MF", "chicago"), ("confederate", "MF", "ironton", 2)], options=with_rules("A-2"))
    assert game.decision == "movement" and game.phasing is U
    pass_until(game, lambda g: g.phasing is C)
    assert game.decision == "supply"
    game.apply(ahd.Starve("C-MF-02"))
    assert game.decision == "movement" and [u.id for u in game.units_in("ironton")] == ["C-MF-01"]


@pytest.mark.rule("A-2.2")
def test_supply_lines_use_rail_and_river_only():
    from ahd.core import advanced
    game = make_game([("union", "MF", "ironton", 2)], options=with_rules("A-2"))
    reach = advanced.supply_reach(game.state, "ironton", U)
    assert "st_louis" in reach and "thayer" not in reach   # Ironton–Thayer is a road


@pytest.mark.rule("A-2.2")
@pytest.mark.rule("4.2.6")
def test_confederate_supply_lines_never_use_the_potomac():
    from ahd.core import advanced
    game = make_game([("confederate", "MF", "washington", 2), ("union", "MF", "chicago")],
                     options=with_rules("A-2", "A-6"), control={"union": ["manassas_junction"]})  # no 11.b win
    assert advanced.supply_reach(game.state, "washington", C) == {"washington"}  # not by river to Fredericksburg
    assert game.decision == "movement"
    pass_until(game, lambda g: g.phasing is C)
    assert game.decision == "supply"   # cut off: Confederate Washington cannot trace over the Potomac
    game.apply(ahd.Starve("C-MF-01"))
    assert len(game.units_in("washington")) == 1


# =========================================================================== A-7
def long_battle(options, turn=12, union=7, confederate=2, conf_code="MF"):
    """Union ``union`` MF attack ``confederate`` Confederate units at Lexington from Cincinnati."""
    game = make_game([("union", "MF", "cincinnati", union), ("confederate", conf_code, "lexington", confederate)],
                     turn=turn, options=options)
    game.apply(ahd.BeginMarch("cincinnati"))
    for i in range(1, union + 1):
        game.apply(ahd.Move(f"U-MF-{i:02d}", ("cincinnati", "lexington"), ("rail",)))
    if game.decision == "march":
        game.apply(ahd.EndMarch())
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    return game


def fight(game, command_rolls, until_round, choose=None):
    """Drive the battle, every shot missing (a 6 always misses, H-2); returns per round the number of
    Union shots and per day the commands."""
    rolls_left = {side: list(values) for side, values in command_rolls.items()}
    shots, commands = {}, {}
    while game.battle is not None and game.battle.round <= until_round:
        battle = game.battle
        if game.decision == "command_roll":
            side = battle.command_pending[0]
            game.apply(ahd.Roll(rolls_left[side].pop(0)))
            if not game.battle.command_pending:
                commands[game.battle.day] = dict(game.battle.command)
        elif game.decision == "firers":
            picks = [a for a in game.legal_actions() if isinstance(a, ahd.ChooseFirer)]
            game.apply(picks[0])
        elif game.decision == "targets":
            game.apply(ahd.FireAuto())
            if battle.firing is U:
                shots[battle.round] = len(battle.targets)
        elif game.decision == "shot":
            game.apply(ahd.Roll(6))
        elif game.decision == "battle_options":
            game.apply(ahd.OpenFire())
        else:
            raise AssertionError(game.decision)
    return shots, commands


@pytest.mark.rule("A-7")
def test_e4_battle_days_and_command():
    """E-4: 1862, Union day 1 roll 4 -> 3, day 2 roll 1 -> 2 + ceil(3/2) = 4, day 3 roll 5 -> 4 + 2 = 6."""
    game = long_battle(with_rules("A-7"))
    assert game.decision == "command_roll" and game.current_player == CHANCE
    assert "command roll" in game.pending_roll
    shots, commands = fight(game, {U: [4, 1, 5], C: [1, 1, 1]}, until_round=9)
    assert [commands[d][U] for d in (1, 2, 3)] == [3, 4, 6]
    assert [commands[d][C] for d in (1, 2, 3)] == [3, 3 + 2, 3 + 3]   # 1862 C: a 1 reads 3
    assert [shots[r] for r in range(1, 10)] == [3, 3, 3, 3, 4, 4, 4, 4, 6]   # ≤ command shooters
    assert any("(A-7)" in e.text and "= 4" in e.text for e in game.log)


@pytest.mark.rule("A-7")
def test_command_is_capped_at_eight():
    # 1863 Confederate: a 6 reads 6; day 2: 6 + 3 = 9 -> 8
    game = long_battle(with_rules("A-7"), turn=22, union=2, confederate=9, conf_code="FV")
    _, commands = fight(game, {U: [6, 6], C: [6, 6]}, until_round=5)
    assert commands[1][C] == 6 and commands[2][C] == 8
    assert commands[1][U] == 5 and commands[2][U] == 5 + 3


@pytest.mark.rule("A-7")
def test_the_side_chooses_its_firers_and_only_they_fire():
    game = long_battle(with_rules("A-7"))
    game.apply(ahd.Roll(4))   # Confederate defender: 1862, 4 -> 4 (two units: all fire)
    game.apply(ahd.Roll(1))   # Union: 1 -> 2
    assert game.battle.command == {C: 4, U: 2}
    game.apply(ahd.FireAuto())
    game.apply(ahd.Roll(6))
    game.apply(ahd.Roll(6))
    assert game.decision == "firers" and game.current_player is U
    assert {a.unit for a in game.legal_actions() if isinstance(a, ahd.ChooseFirer)} == {f"U-MF-{i:02d}" for i in range(1, 8)}
    assert_refused(game, ahd.FireChosen(), "A-7")            # at least one
    assert_refused(game, ahd.ChooseFirer("C-MF-01"), "A-7")  # not a firing unit
    game.apply(ahd.ChooseFirer("U-MF-05"))
    assert_refused(game, ahd.ChooseFirer("U-MF-05"), "A-7")  # chosen already
    assert ahd.FireChosen() in game.legal_actions()
    game.apply(ahd.ChooseFirer("U-MF-07"))                  # the command of 2 is reached
    assert game.decision == "targets"
    assert_refused(game, ahd.Target("U-MF-01", "C-MF-01"), "A-7")
    game.apply(ahd.FireAuto())
    assert sorted(s for s, _ in game.battle.targets) == ["U-MF-05", "U-MF-07"]
    for action in (ahd.ChooseFirer("U-MF-01"), ahd.FireChosen()):
        assert ahd.action_from_dict(action.to_dict()) == action and str(action)


@pytest.mark.rule("A-7")
def test_fewer_firers_may_be_chosen_and_without_a7_everybody_fires():
    game = long_battle(with_rules("A-7"))
    game.apply(ahd.Roll(4))
    game.apply(ahd.Roll(6))   # Union 1862: 6 -> 4
    game.apply(ahd.FireAuto())
    game.apply(ahd.Roll(6))
    game.apply(ahd.Roll(6))
    game.apply(ahd.ChooseFirer("U-MF-02"))
    game.apply(ahd.FireChosen())
    assert game.decision == "targets" or game.decision == "shot"
    assert [s for s, _ in game.battle.targets] in ([], ["U-MF-02"])
    plain = long_battle(BASIC)
    assert plain.decision == "targets" and plain.battle.firing is C
    plain.apply(ahd.FireAuto())
    plain.apply(ahd.Roll(6))
    plain.apply(ahd.Roll(6))
    assert plain.decision == "targets"
    plain.apply(ahd.FireAuto())
    assert len(plain.battle.targets) == 7


# =========================================================================== AO-8.2 leaders
LEADERS_ON = with_rules("AO-8.2")


def leader_at(game, name, box, value):
    """Test set-up: put a leader on the map (as a scenario or an arrival would)."""
    leader = game.state.leaders[name]
    leader.location, leader.value = box, value
    game._engine.invalidate()
    game._legal_cache = None
    return leader


@pytest.mark.rule("AO-8.2.0")
@pytest.mark.rule("S-1863")
@pytest.mark.rule("S-1864")
def test_scenarios_place_their_leaders_only_with_the_leader_rules():
    expected = {"1863": {"lee": ("fredericksburg", 3), "grant": ("arkansas_post", 1), "sherman": ("arkansas_post", 1)},
                "1864": {"lee": ("fredericksburg", 2), "sherman": ("sparta", 2), "grant": ("washington", 2)}}
    for scenario, leaders in expected.items():
        game = ahd.new_game(scenario, options=LEADERS_ON, seed=1)
        assert {n: (l.location, l.value) for n, l in game.state.leaders.items()} == leaders
        plain = ahd.new_game(scenario, seed=1)
        assert all(not l.on_map for l in plain.state.leaders.values())
        # leaders are not units: no unit counts or maxima change
        assert game.army_max(U) == plain.army_max(U) and len(game.units(U)) == len(plain.units(U))


@pytest.mark.rule("AO-8.2.0")
@pytest.mark.rule("C-2")
def test_leaders_arrive_right_after_the_marches_are_determined():
    game = ahd.new_game("1862", options=LEADERS_ON, seed=2, dice="manual")
    # Grant's date (turn 6) has passed: he enters at the first Union half, after the S-0 marches
    assert game.decision == "leader_arrival" and game.current_player is U and game.marches_left == 1
    boxes = {a.box for a in game.legal_actions()}
    assert boxes == {u.location for u in game.units(U)}
    assert_refused(game, ahd.PlaceLeader("grant", "richmond"), "AO-8.2.0")   # no Union units there
    assert_refused(game, ahd.PlaceLeader("lee", "richmond"), "AO-8.2.0")     # not his date, not his side
    game.apply(ahd.PlaceLeader("grant", "nashville"))
    assert game.state.leaders["grant"].location == "nashville" and game.state.leaders["grant"].value == 1
    assert game.decision == "movement"
    # Sherman comes on turn 9 (May 1862), in the Union half, after the march roll
    pass_until(game, lambda g: g.turn.number == 9 and g.decision in ("march_roll", "leader_arrival"))
    assert game.decision == "march_roll" and not game.state.leaders["sherman"].on_map
    game.apply(ahd.Roll(3))
    assert game.decision == "leader_arrival" and game.legal_actions()[0].leader == "sherman"
    without = ahd.new_game("1862", seed=2, dice="manual")
    assert without.decision == "movement"


@pytest.mark.rule("AO-8.2.0")
@pytest.mark.rule("C-2")
def test_leader_values_change_at_their_sides_half_turn():
    game = ahd.new_game("1863", options=LEADERS_ON, seed=3, dice="manual")
    pass_until(game, lambda g: g.turn.number == 20 and g.decision == "march_roll")
    assert game.state.leaders["grant"].value == 1
    game.apply(ahd.Roll(2))
    assert game.state.leaders["grant"].value == 2 and game.state.leaders["sherman"].value == 1
    assert any("Grant's value becomes 2" in e.text for e in game.log)


@pytest.mark.rule("AO-8.2.1")
@pytest.mark.rule("C-3")
def test_a_leader_alone_moves_as_infantry_at_most_twice_and_free():
    game = make_game([("union", "MF", "chicago"), ("union", "MF", "indianapolis"), ("confederate", "MF", "louisville")],
                     options=LEADERS_ON, marches=1)
    leader_at(game, "grant", "indianapolis", 1)
    moves = [a for a in game.legal_actions() if isinstance(a, ahd.LeaderMove)]
    assert moves and all(a.leader == "grant" for a in moves)
    assert not any(a.path[-1] == "louisville" for a in moves)        # never alone into enemy units
    # as infantry (C-3): at most two rail links, and only over friendly rail
    assert_refused(game, ahd.LeaderMove("grant", ("indianapolis", "dayton", "cincinnati", "lexington"),
                                        ("rail", "rail", "rail")), "4.c")
    assert game.why_not(ahd.LeaderMove("grant", ("indianapolis", "dayton", "cincinnati"), ("rail", "rail"))) is None
    game.apply(ahd.LeaderMove("grant", ("indianapolis", "lafayette"), ("rail",)))
    assert game.marches_left == 1                                     # no allowance cost
    game.apply(ahd.LeaderMove("grant", ("lafayette", "indianapolis"), ("rail",)))
    assert_refused(game, ahd.LeaderMove("grant", ("indianapolis", "lafayette"), ("rail",)), "AO-8.2.1")
    assert str(ahd.LeaderMove("grant", ("indianapolis", "lafayette"), ("rail",))).startswith("Grant")
    # the leader is no unit: Lafayette's control is untouched, no battle where he is alone
    assert game.state.leaders["grant"].location == "indianapolis"


def lee_attack(options, rolls_first=(6, 6, 6)):
    """Three Confederate FV with Lee (3) attack three Union MF at Cincinnati from Lexington."""
    game = make_game([("union", "MF", "cincinnati", 3), ("confederate", "FV", "lexington", 3)], options=options)
    pass_until(game, lambda g: g.phasing is C and g.decision == "movement")
    leader_at(game, "lee", "lexington", 3)
    game.apply(ahd.BeginMarch("lexington"))
    for i in (1, 2, 3):
        game.apply(ahd.Move(f"C-FV-0{i}", ("lexington", "cincinnati"), ("rail",)))
    if game.decision == "march":
        game.apply(ahd.EndMarch())
    if "AO-8.2" in options:
        assert ahd.LeaderFollow("lee", "C-FV-01") in game.legal_actions()
        assert_refused(game, ahd.LeaderFollow("grant", "C-FV-01"), "AO-8.2.1")
        game.apply(ahd.LeaderFollow("lee", "C-FV-01"))
        assert game.state.leaders["lee"].location == "cincinnati"
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    game.apply(ahd.FireAuto())          # the Union defender
    for value in rolls_first:
        game.apply(ahd.Roll(value))
    game.apply(ahd.FireAuto())          # Confederate targets, then Lee's points
    return game


@pytest.mark.rule("AO-8.2.2")
@pytest.mark.parametrize("split", [("C-FV-01", "C-FV-02", "C-FV-03"), ("C-FV-01",) * 3, ("C-FV-01", "C-FV-01", "C-FV-02")])
def test_e7_lee_splits_his_three_points_in_steps_of_one(split):
    """E-7: Lee (3), three shooters: +1/+1/+1, +3, +2/+1 are valid."""
    game = lee_attack(LEADERS_ON)
    assert game.decision == "leader_points" and game.current_player is C
    for unit in split:
        game.apply(ahd.LeaderPoint("lee", unit))
    assert game.decision == "shot"
    bonus = {u: split.count(u) for u in set(split)}
    shooter = game.battle.targets[0][0]
    assert f"hits on {3 + bonus.get(shooter, 0)} or less" in game.pending_roll


@pytest.mark.rule("AO-8.2.2")
def test_e7_four_points_or_a_point_to_a_non_firer_are_refused():
    """E-7: +4 or four +1 are invalid: Lee has three points."""
    from ahd.core import leaders
    game = lee_attack(LEADERS_ON)
    assert_refused(game, ahd.LeaderPoint("lee", "U-MF-01"), "AO-8.2.2")    # not a firing unit
    assert_refused(game, ahd.LeaderPoint("grant", "C-FV-01"), "AO-8.2.2")  # not present
    for _ in range(3):
        game.apply(ahd.LeaderPoint("lee", "C-FV-01"))
    battle = game.battle
    assert battle.leader_points == [("lee", "C-FV-01")] * 3
    error = leaders.check_point(game.state, battle, "lee", "C-FV-02")     # a fourth point
    assert error is not None and error.rule == "AO-8.2.2"
    assert_refused(game, ahd.LeaderPoint("lee", "C-FV-02"), "3.a")          # the step is over
    plain = lee_attack(BASIC)
    assert plain.decision == "shot"                                         # no leader rules: no points


@pytest.mark.rule("AO-8.2.2")
@pytest.mark.rule("A-7")
def test_e4_with_grant_his_value_joins_every_day_s_command():
    """E-4 variant: Grant (1) present from round 1: day 1 = 3 + 1 = 4; day 2 = 2 + 2 + 1 = 5; day 3 = 4 + 3 + 1 = 8."""
    game = make_game([("union", "MF", "cincinnati", 9), ("confederate", "MF", "lexington", 2)], turn=12,
                     options=with_rules("A-7", "AO-8.2"))
    assert game.decision == "leader_arrival"       # C-2: Grant's date (turn 6) has passed
    game.apply(ahd.PlaceLeader("grant", "cincinnati"))
    assert game.state.leaders["grant"].value == 1
    game.apply(ahd.PlaceLeader("sherman", "cincinnati"))   # his date (turn 9) has passed too: send him away
    game.apply(ahd.LeaderMove("sherman", ("cincinnati", "dayton"), ("rail",)))
    game.apply(ahd.BeginMarch("cincinnati"))
    for i in range(1, 10):
        game.apply(ahd.Move(f"U-MF-{i:02d}", ("cincinnati", "lexington"), ("rail",)))
    if game.decision == "march":
        game.apply(ahd.EndMarch())
    game.apply(ahd.LeaderFollow("grant", "U-MF-01"))
    game.apply(ahd.EndMovement())
    commands = {}
    while game.battle is not None and game.battle.round <= 9:
        if game.decision == "command_roll":
            side = game.battle.command_pending[0]
            game.apply(ahd.Roll({1: 4, 2: 1, 3: 5}[game.battle.day] if side is U else 1))
            if not game.battle.command_pending:
                commands[game.battle.day] = game.battle.command[U]
        elif game.decision == "firers":
            game.apply(next(a for a in game.legal_actions() if isinstance(a, ahd.ChooseFirer)))
        elif game.decision == "leader_points":
            game.apply(game.legal_actions()[0])
        elif game.decision == "targets":
            game.apply(ahd.FireAuto())
        elif game.decision == "shot":
            game.apply(ahd.Roll(6))
        else:
            game.apply(ahd.OpenFire())
    assert commands == {1: 4, 2: 5, 3: 8}


@pytest.mark.rule("AO-8.2.2")
def test_a_leader_caught_alone_is_removed_and_returns_at_recruitment():
    game = make_game([("union", "MF", "chicago"), ("confederate", "MF", "cincinnati")], options=LEADERS_ON)
    pass_until(game, lambda g: g.phasing is C and g.decision == "movement")
    leader = leader_at(game, "grant", "dayton", 1)
    march(game, "cincinnati", ahd.Move("C-MF-01", ("cincinnati", "dayton"), ("rail",)))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    assert leader.location == "@removed"
    assert game.battle is None                       # a lone leader is no defender (4.g)
    assert any("removed" in e.text and "AO-8.2.2" in e.text for e in game.log)
    # he returns in the Union's next Recruitment segment, in a box with Union units
    pass_until(game, lambda g: g.decision == "leader_return")
    assert game.phasing is U and game.phase == "recruitment"
    assert {a.box for a in game.legal_actions()} == {"chicago"}
    assert_refused(game, ahd.PlaceLeader("grant", "dayton"), "AO-8.2.2")
    game.apply(ahd.PlaceLeader("grant", "chicago"))
    assert leader.location == "chicago"


@pytest.mark.rule("AO-8.2.2")
def test_a_leader_retreats_with_his_army():
    game = lee_attack(LEADERS_ON)
    for _ in range(3):
        game.apply(ahd.LeaderPoint("lee", "C-FV-01"))
    pass_until(game, lambda g: g.decision == "battle_options" and g.battle.firing is C, roll=6)
    game.apply(ahd.Retreat("lexington"))
    assert game.state.leaders["lee"].location == "lexington"


def lee_near_an_attack_on_cincinnati(options):
    """Three Confederate FV attack three Union MF in Cincinnati by rail; Lee (3) waits in Louisville."""
    game = make_game([("union", "MF", "cincinnati", 3), ("confederate", "FV", "lexington", 3),
                      ("confederate", "MF", "louisville")], options=options)
    pass_until(game, lambda g: g.phasing is C and g.decision == "movement")
    leader_at(game, "lee", "louisville", 3)
    game.apply(ahd.BeginMarch("lexington"))
    for i in (1, 2, 3):
        game.apply(ahd.Move(f"C-FV-0{i}", ("lexington", "cincinnati"), ("rail",)))
    if game.decision == "march":
        game.apply(ahd.EndMarch())
    game.apply(ahd.EndMovement())
    return game


@pytest.mark.rule("AO-8.2.1")
def test_a_leader_reinforces_without_using_the_quota():
    game = lee_near_an_attack_on_cincinnati(LEADERS_ON)
    assert_refused(game, ahd.LeaderReinforce("lee"), "3.a")      # round 1: the defender's targets first
    pass_until(game, lambda g: g.decision == "battle_options" and g.battle.firing is C, roll=6)
    assert ahd.LeaderReinforce("lee") in game.legal_actions()
    game.apply(ahd.LeaderReinforce("lee"))
    assert game.state.leaders["lee"].location == "cincinnati"
    assert ahd.Reinforce("C-MF-01") in game.legal_actions()      # the unit quota is still there
    assert ahd.action_from_dict(ahd.LeaderReinforce("lee").to_dict()) == ahd.LeaderReinforce("lee")


# =========================================================================== AO-8.3
def to_confederate_half(game):
    pass_until(game, lambda g: g.phasing is C)


@pytest.mark.rule("AO-8.3")
def test_kentucky_support_gives_one_more_militia_for_good():
    game = make_game([("union", "MF", "chicago"), ("confederate", "MF", "atlanta")], options=with_rules("AO-8.3"),
                     control={"confederate": ["bowling_green", "louisville"]})
    pool = len(game.units(C, "pool"))
    to_confederate_half(game)
    assert game.decision == "border_roll" and game.current_player == CHANCE
    assert "Kentucky" in game.pending_roll and "+2" in game.pending_roll   # 1861 +1, within five +1
    game.apply(ahd.Roll(1))                                                # 1 + 2 = 3 > 1
    assert len(game.units(C, "pool")) == pool + 1
    assert game.state.militia_mix()[C]["MF"] == 9 and not game.state.counter_mix_ok()
    assert game.decision == "movement" and "Kentucky" in game.state.border_used
    pass_until(game, lambda g: g.phasing is C and g.turn.number == 3)
    assert game.decision != "border_roll"                                  # the event is used


@pytest.mark.rule("AO-8.3")
def test_maryland_failure_may_retry_and_no_roll_without_the_switch_or_in_union_halves():
    options = with_rules("AO-8.3", "A-6")
    game = make_game([("union", "MF", "chicago"), ("confederate", "MF", "atlanta")], options=options,
                     control={"confederate": ["baltimore"]})
    assert game.decision != "border_roll"                                  # Union half: nothing
    to_confederate_half(game)
    assert game.decision == "border_roll"
    game.apply(ahd.Roll(4))                                                # 4 + 2 = 6, not more than 6
    assert not game.state.border_used and game.state.militia_mix()[C]["MF"] == 8
    assert any("no support" in e.text and "AO-8.3" in e.text for e in game.log[-3:])
    pass_until(game, lambda g: g.phasing is C and g.turn.number == 3)
    assert game.decision == "border_roll"
    game.apply(ahd.Roll(5))
    assert game.state.border_used == {"Maryland"}
    plain = make_game([("union", "MF", "chicago"), ("confederate", "MF", "atlanta")],
                      control={"confederate": ["baltimore"]})
    to_confederate_half(plain)
    assert plain.decision == "movement"
    # Missouri is not all Confederate: no roll for it
    from ahd.core import advanced
    assert "Missouri" not in advanced.border_states_eligible(game.state)


@pytest.mark.rule("AO-8.3")
def test_border_state_modifiers():
    from ahd.core import advanced
    game = make_game([("union", "MF", "chicago"), ("confederate", "MF", "atlanta")], turn=32,
                     options=with_rules("AO-8.3"), control={"union": ["richmond"]})
    mods = dict((why, m) for m, why in advanced.border_modifiers(game.state))
    assert mods["1864"] == -2 and mods["the Union controls Richmond"] == -1
    assert "1861" not in mods
    d = game.army_max(U) - game.army_max(C)
    assert ("Union max − Confederate max ≥ 10" in mods) == (d >= 10)
    assert ("Union max − Confederate max ≤ 5" in mods) == (d <= 5)


# =========================================================================== A-4
def containment(options, extra=()):
    """Two Confederate MF march from Yorktown into Union-held Fort Monroe (two Union MF)."""
    game = make_game([("union", "MF", "fort_monroe", 2), ("union", "MF", "washington"),
                      ("confederate", "MF", "yorktown", 2)] + list(extra), options=options)
    pass_until(game, lambda g: g.phasing is C and g.decision == "movement")
    march(game, "yorktown", ahd.Move("C-MF-01", ("yorktown", "fort_monroe"), ("river",)),
          ahd.Move("C-MF-02", ("yorktown", "fort_monroe"), ("river",)))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    return game


@pytest.mark.rule("A-4")
def test_confederate_chooses_containment_instead_of_battle():
    game = containment(with_rules("A-4"))
    assert game.decision == "containment" and game.current_player is C
    assert set(game.legal_actions()) == {ahd.Contain("fort_monroe"), ahd.Assault("fort_monroe")}
    assert_refused(game, ahd.Contain("yorktown"), "A-4")
    game.apply(ahd.Contain("fort_monroe"))
    assert game.battle is None
    assert len(game.units_in("fort_monroe", U)) == 2 and len(game.units_in("fort_monroe", C)) == 2
    pass_until(game, lambda g: g.phasing is U)
    assert game.controller("fort_monroe") is U                    # the box stays Union
    assert ahd.action_from_dict(ahd.Contain("fort_monroe").to_dict()) == ahd.Contain("fort_monroe")
    # without A-4: a battle at once
    plain = containment(BASIC)
    assert plain.battle is not None and plain.battle.box == "fort_monroe"


@pytest.mark.rule("A-4")
def test_assault_fights_the_battle():
    game = containment(with_rules("A-4"))
    game.apply(ahd.Assault("fort_monroe"))
    assert game.battle is not None and game.battle.box == "fort_monroe" and not game.battle.contained_attack


def contained_union_movement(options):
    game = containment(options)
    game.apply(ahd.Contain("fort_monroe"))
    pass_until(game, lambda g: g.phasing is U and g.decision == "march_roll")
    game.apply(ahd.Roll(4))
    return game


@pytest.mark.rule("A-4")
def test_contained_units_leave_by_land_only_after_a_break_out():
    game = contained_union_movement(with_rules("A-4"))
    assert game.decision == "movement"
    from ahd.core import movement
    assert ahd.BeginMarch("fort_monroe") not in game.legal_actions()
    error = movement.check_path(game.state, game.unit("U-MF-01"), ("fort_monroe", "yorktown"), ("river",))
    assert error is not None and error.rule == "A-4"
    assert ahd.BreakOut("fort_monroe") in game.legal_actions()
    assert ahd.NavalMove("U-MF-03", "fort_monroe") in game.legal_actions()   # by sea, no battle
    marches = game.marches_left
    game.apply(ahd.BreakOut("fort_monroe"))
    battle = game.battle
    assert battle is not None and battle.attacker is U and battle.box == "fort_monroe"
    assert game.marches_left == marches - 1
    assert all(game.unit(u).marches == 1 for u in ("U-MF-01", "U-MF-02"))
    # attacking in a contained box costs the Union its fort entrenchment for this battle
    from ahd.core import combat
    assert not combat.is_entrenched_in_battle(game.state, battle, game.unit("U-MF-01"))
    # the Confederates always miss, the Union always hits: the break-out succeeds
    from conftest import pass_decision
    while game.battle is not None:
        pass_decision(game, roll=6 if game.battle.firing is C else 1)
    assert game.phase == "movement" and game.decision == "movement"
    assert not game.units_in("fort_monroe", C)
    assert "fort_monroe" in {a.origin for a in game.legal_actions() if isinstance(a, ahd.BeginMarch)}


@pytest.mark.rule("A-4")
def test_break_out_only_at_the_start_of_the_movement_segment():
    game = contained_union_movement(with_rules("A-4"))
    march(game, "washington", ahd.Move("U-MF-03", ("washington", "baltimore"), ("rail",)))
    assert ahd.BreakOut("fort_monroe") not in game.legal_actions()
    assert_refused(game, ahd.BreakOut("fort_monroe"), "A-4")
    assert_refused(game, ahd.BreakOut("yorktown"), "A-4")


@pytest.mark.rule("A-4")
def test_union_units_entering_by_land_fight_by_sea_do_not():
    game = contained_union_movement(with_rules("A-4"))
    game.apply(ahd.NavalMove("U-MF-03", "fort_monroe"))
    game.apply(ahd.EndMovement())
    assert game.battle is None and not any("Battle at Fort Monroe" in e.text for e in game.log)
    assert len(game.units_in("fort_monroe", C)) == 2 and len(game.units_in("fort_monroe", U)) == 3
    # by land: a normal battle, the Union attacking without its fort entrenchment
    land = contained_union_movement(with_rules("A-4"))
    land.state.place(land.state.units["U-MF-03"], "yorktown")   # set-up: a Union unit next door
    land._engine.invalidate(); land._legal_cache = None
    march(land, "yorktown", ahd.Move("U-MF-03", ("yorktown", "fort_monroe"), ("river",)))
    if land.decision == "movement":
        land.apply(ahd.EndMovement())
    assert land.battle is not None and land.battle.box == "fort_monroe" and land.battle.contained_attack


@pytest.mark.rule("A-4")
def test_confederates_may_entrench_beside_the_contained_garrison():
    game = containment(with_rules("A-4"))
    game.apply(ahd.Contain("fort_monroe"))
    pass_until(game, lambda g: g.phasing is C and g.turn.number == 3 and g.decision == "movement", roll=4)
    game.apply(ahd.BeginMarch("fort_monroe"))
    assert ahd.Entrench("C-MF-01") in game.legal_actions()
    # the exception is the Confederates': the Union garrison may not entrench beside them
    from ahd.core import movement
    game.state.units["U-MF-01"].marches = 0
    error = movement.entrench_barrier(game.state, game.unit("U-MF-01"))
    assert error is not None and error.rule == "4.2.5" and "enemy" in error.reason


# =========================================================================== AO-8.1, AO-8.11, AO-8.12, H-3
def union_hits_first(options, conf_code="MF", entrenched=False, turn=12):
    """Two Union FV attack two Confederate units at Lexington; the defenders miss, the Union hits both."""
    game = make_game([("union", "FV", "cincinnati", 2), ("confederate", conf_code, "lexington", 2, entrenched)],
                     turn=turn, options=options)
    march(game, "cincinnati", ahd.Move("U-FV-01", ("cincinnati", "lexington"), ("rail",)),
          ahd.Move("U-FV-02", ("cincinnati", "lexington"), ("rail",)))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    game.apply(ahd.FireAuto())
    rolls(game, 6, 6)
    game.apply(ahd.FireAuto())
    rolls(game, 1, 1)
    return game


@pytest.mark.rule("AO-8.1")
def test_a_unit_just_reduced_may_rout_and_leaves_the_fighting():
    game = union_hits_first(with_rules("AO-8.1"))
    assert game.decision == "morale_roll" and "AO-8.1" in game.pending_roll and "exceeds 3" in game.pending_roll
    first, second = game.battle.morale_pending
    rolls(game, 4)                       # 4 > 3 (militia from 1862): routed
    assert game.unit(first).routed
    rolls(game, 3)                       # 3: holds
    assert not game.unit(second).routed
    assert game.battle.round == 2 and game.battle.firing is C
    pass_until(game, lambda g: g.decision == "targets" and g.battle.firing is C)
    # the routed unit neither fires nor can be targeted
    game.apply(ahd.FireAuto())
    assert [s for s, _ in game.battle.targets] == [second]
    rolls(game, 6)
    assert game.battle.firing is U and [t for _, t in game.battle.targets] in ([], [second, second])
    assert game.unit(first).location == "lexington" and game.unit(first).routed
    assert any("routed" in e.text and "AO-8.1" in e.text for e in game.log)
    plain = union_hits_first(BASIC)
    assert plain.decision != "morale_roll" and not plain.unit("C-MF-01").routed


@pytest.mark.rule("AO-8.1")
def test_entrenched_units_test_at_minus_one_and_a_fully_routed_side_loses():
    game = union_hits_first(with_rules("AO-8.1"), entrenched=True, turn=2)
    # 1861 militia morale 2; entrenched: 3 − 1 = 2 holds, 4 − 1 = 3 routs
    assert "− 1 (entrenched)" in game.pending_roll and "exceeds 2" in game.pending_roll
    first, second = game.battle.morale_pending
    rolls(game, 3, 4)
    assert not game.unit(first).routed and game.unit(second).routed
    game2 = union_hits_first(with_rules("AO-8.1"))
    rolls(game2, 6, 6)                  # both routed: no units left fighting -> the Union wins (5.c)
    assert game2.battle.winner is U
    assert game2.decision == "rout_retreat" and game2.current_player is C
    boxes = {a.to for a in game2.legal_actions()}
    assert "cincinnati" not in boxes and boxes                    # 5.2.5 (c): not where the attackers came from
    assert_refused(game2, ahd.Retreat("cincinnati"), "AO-8.12")
    game2.apply(ahd.Retreat(sorted(boxes)[0]))
    assert {u.location for u in (game2.unit("C-MF-01"), game2.unit("C-MF-02"))} == {sorted(boxes)[0]}
    assert not game2.unit("C-MF-01").routed


def to_day_end(game, stop):
    """Everybody misses until ``stop(game)``."""
    while not stop(game):
        if game.current_player == CHANCE:
            game.apply(ahd.Roll(6))
        else:
            pass_until(game, lambda g: g.current_player == CHANCE or stop(g), roll=6)


@pytest.mark.rule("AO-8.11")
def test_rally_after_each_day():
    game = union_hits_first(with_rules("AO-8.1", "AO-8.11"))
    first, second = game.battle.morale_pending
    rolls(game, 6, 1)                   # the first routed, the second holds
    to_day_end(game, lambda g: g.decision == "rally")
    assert game.battle.round == 4 and game.current_player is C
    assert set(game.legal_actions()) == {ahd.Rally(first), ahd.NoRally()}
    assert_refused(game, ahd.Rally(second), "AO-8.11")
    game.apply(ahd.Rally(first))
    assert not game.unit(first).routed and game.unit(first).is_reduced
    assert game.battle.round == 5
    assert ahd.action_from_dict(ahd.Rally("C-MF-01").to_dict()) == ahd.Rally("C-MF-01")
    # without AO-8.11 the routed unit stays out of the fighting into day 2
    norally = union_hits_first(with_rules("AO-8.1"))
    first = norally.battle.morale_pending[0]
    rolls(norally, 6, 1)
    to_day_end(norally, lambda g: g.battle.round == 5)
    assert norally.unit(first).routed and not any(e.kind == "morale" and "rallies" in e.text for e in norally.log)


def beaten_veterans(options, lee=False):
    """Two Confederate FV, reduced in round 1, retreat to Louisville in round 2 and lose."""
    game = union_hits_first(options, conf_code="FV", turn=2)   # 1861: no leader arrives
    if lee:
        leader_at(game, "lee", "lexington", 3)
    pass_until(game, lambda g: g.decision == "battle_options" and g.battle.firing is C)
    game.apply(ahd.Retreat("louisville"))
    return game


@pytest.mark.rule("AO-8.12")
def test_desertion_tests_of_the_reduced_after_the_battle():
    game = beaten_veterans(with_rules("AO-8.12"))
    assert game.decision == "desertion_roll"
    assert "+0" in game.pending_roll and "exceeds 4" in game.pending_roll   # lost +1, not routed −1
    rolls(game, 5)                       # 5 > 4: deserts
    assert game.unit("C-FV-01").location == "@out"
    rolls(game, 4)                       # stays
    assert game.unit("C-FV-02").location == "louisville"
    plain = beaten_veterans(BASIC)
    assert plain.decision != "desertion_roll" and plain.unit("C-FV-01").location == "louisville"


@pytest.mark.rule("AO-8.2.3")
@pytest.mark.rule("H-3")
def test_leaders_help_desertion_tests_but_a_six_fails_a_beaten_army():
    options = with_rules("AO-8.12", "AO-8.2")
    game = beaten_veterans(options, lee=True)
    assert game.state.leaders["lee"].location == "louisville"          # he retreated with them
    assert "-3" in game.pending_roll and "H-3" in game.pending_roll
    rolls(game, 6)                       # 6 − 3 = 3 ≤ 4, but a natural 6 fails the losing side (H-3)
    assert game.unit("C-FV-01").location == "@out"
    assert any("(H-3)" in e.text for e in game.log)
    rolls(game, 5)                       # 5 − 3 = 2: stays
    assert game.unit("C-FV-02").location == "louisville"
    no_h3 = beaten_veterans([r for r in options if r != "H-3"], lee=True)
    rolls(no_h3, 6)
    assert no_h3.unit("C-FV-01").location == "louisville"


# =========================================================================== AO-8.4
def intervention_game(options, control=("washington", "st_louis")):
    units = [("union", "MF", "chicago"), ("confederate", "MF", "mobile"), ("confederate", "MF", "atlanta")]
    units += [("confederate", "MF", box) for box in control]
    return make_game(units, options=options)


@pytest.mark.rule("AO-8.4")
def test_foreign_intervention_brings_a_navy_and_four_foreign_units():
    game = intervention_game(with_rules("AO-8.4", "A-6"))
    assert not game.state.intervention and not game.units(C, "europe")
    pass_until(game, lambda g: g.phasing is C)
    assert game.state.intervention
    foreign = game.units(C, "europe")
    assert len(foreign) == 4 and all(u.type.code == "FV" and u.is_foreign for u in foreign)
    assert any("AO-8.4" in e.text for e in game.log)
    moves = {(a.unit, a.to) for a in game.legal_actions() if isinstance(a, ahd.NavalMove)}
    assert ("X-FV-01", "charleston_sc") in moves and ("C-MF-01", "charleston_sc") in moves
    assert {to for _, to in moves} == {p for p in game.board.ports if game.controller(p) is C}   # own ports only
    before = game.state.units_on_map(C)
    marches = game.marches_left
    game.apply(ahd.NavalMove("X-FV-01", "charleston_sc"))
    assert game.unit("X-FV-01").location == "charleston_sc" and game.marches_left == marches - 1
    assert game.state.units_on_map(C) == before                         # never counts for the maximum
    assert "foreign" in str(ahd.NavalMove("X-FV-02", "mobile"))
    assert_refused(game, ahd.NavalMove("X-FV-02", "new_york_city"), "AO-8.4")


@pytest.mark.rule("AO-8.4")
def test_no_intervention_without_the_switch_or_its_conditions():
    plain = intervention_game(with_rules("A-6"))
    pass_until(plain, lambda g: g.phasing is C)
    assert not plain.state.intervention and not any(isinstance(a, ahd.NavalMove) for a in plain.legal_actions())
    short = intervention_game(with_rules("AO-8.4", "A-6"), control=("washington",))   # no big Union city
    pass_until(short, lambda g: g.phasing is C)
    assert not short.state.intervention
    assert_refused(short, ahd.NavalMove("C-MF-01", "charleston_sc"), "4.2.3")


@pytest.mark.rule("AO-8.4")
def test_foreign_losses_return_to_europe_on_a_five_or_six_and_are_never_promoted():
    from ahd.core import combat
    game = intervention_game(with_rules("AO-8.4", "A-6"))
    pass_until(game, lambda g: g.phasing is C)
    game.apply(ahd.NavalMove("X-FV-01", "charleston_sc"))
    combat.eliminate(game.state, game.unit("X-FV-01"))
    assert game.unit("X-FV-01").location == "@aside"
    game._engine.invalidate(); game._legal_cache = None
    pass_until(game, lambda g: g.decision in ("promotion", "recruit_roll"))
    assert not combat.is_promotable(game.unit("X-FV-02"))           # AO-8.4 (c): veterans, never promoted
    assert combat.is_promotable(game.unit("C-MF-01"))
    if game.decision == "promotion":
        assert ahd.Promote("X-FV-02") not in game.legal_actions()
        pass_until(game, lambda g: g.decision == "recruit_roll")
    game.apply(ahd.Roll(4))
    assert game.unit("X-FV-01").location == "@aside"
    pass_until(game, lambda g: g.phasing is C and g.decision == "recruit_roll" and g.turn.number == 3)
    game.apply(ahd.Roll(5))
    assert game.unit("X-FV-01").location == "@europe"
    assert any("returns to Europe" in e.text for e in game.log)


# =========================================================================== robustness of the new decisions
NEW_ACTIONS = [
    ahd.Starve("U-MF-99"), ahd.Starve("nobody"), ahd.ChooseFirer("C-FV-99"), ahd.FireChosen(),
    ahd.PlaceLeader("napoleon", "richmond"), ahd.PlaceLeader("lee", "nowhere"),
    ahd.LeaderMove("grant", ("nowhere", "richmond"), ("rail",)), ahd.LeaderMove("lee", (), ()),
    ahd.LeaderFollow("sherman", "U-MF-99"), ahd.LeaderReinforce("napoleon"), ahd.LeaderPoint("lee", "nobody"),
    ahd.Contain("nowhere"), ahd.Assault("richmond"), ahd.BreakOut("nowhere"), ahd.Rally("nobody"),
    ahd.NoRally(), ahd.NavalMove("X-FV-01", "nowhere"), ahd.NavalMove("X-FV-09", "mobile"),
]


def test_new_actions_round_trip_and_read_aloud():
    for action in NEW_ACTIONS:
        assert ahd.action_from_dict(action.to_dict()) == action
        assert str(action)


@pytest.mark.parametrize("seed", range(3))
def test_refused_new_actions_never_change_the_game_and_undo_restores_it(seed):
    """In games with every switch, malformed or untimely new actions are refused with the game
    unchanged; undoing a decision and replaying it gives the same position."""
    from ahd.bots import RandomBot
    from conftest import snapshot
    game = ahd.new_game(("1862", "1863", "1864")[seed], options="everything", seed=seed)
    bot = RandomBot(seed)
    checked = 0
    for step in range(3000):
        if game.is_over:
            break
        if step % 7 == 0:
            before = snapshot(game)
            for action in NEW_ACTIONS:
                if action not in game.legal_actions():
                    assert game.why_not(action) is not None, action
                    with pytest.raises(ahd.IllegalActionError):
                        game.apply(action)
                    assert snapshot(game) == before
            checked += 1
        action = bot.choose(game)
        before = snapshot(game)
        game.apply(action)
        if step % 50 == 0 and game.can_undo():
            after = snapshot(game)
            undone = game.undo()
            assert snapshot(game) == before
            game.apply(undone)
            assert snapshot(game) == after
    assert checked > 10


@pytest.mark.rule("A-5")
def test_odds_of_an_invasion_battle_with_a_coastal_defence():
    from ahd.odds import odds_for
    game = invasion(with_rules("A-5"))
    odds = odds_for(game)
    assert odds is not None and 0.0 < odds.attacker_wins < 1.0


@pytest.mark.rule("A-2.1")
@pytest.mark.rule("A-2.2")
def test_a_stack_in_its_own_city_needs_a_line_to_another():
    # Chicago (a Union city) cut off: its only neighbours, Bloomington (Illinois) and Lafayette, Confederate
    cut = make_game([("union", "MF", "chicago", 2)], options=with_rules("A-2"),
                    control={"confederate": ["bloomington_il", "lafayette"]})
    assert cut.decision == "supply"
    one_open = make_game([("union", "MF", "chicago", 2)], options=with_rules("A-2"),
                         control={"confederate": ["bloomington_il"]})
    assert one_open.decision == "movement"       # by Lafayette to Indianapolis and beyond


@pytest.mark.rule("A-7")
@pytest.mark.rule("AO-8.2.2")
def test_a_leader_reinforcing_raises_the_day_s_command_at_once():
    game = lee_near_an_attack_on_cincinnati(with_rules("A-7", "AO-8.2"))
    pass_until(game, lambda g: g.decision == "battle_options" and g.battle.firing is C, roll=6)
    assert game.battle.command[C] == 5           # 1861 Confederate: a 6 reads 5
    game.apply(ahd.LeaderReinforce("lee"))
    assert game.battle.command[C] == 8           # + Lee's 3 at once


@pytest.mark.rule("AO-8.2.1")
def test_two_leader_marches_in_all_with_units_or_alone():
    game = make_game([("union", "MF", "indianapolis"), ("confederate", "MF", "atlanta")], options=LEADERS_ON,
                     marches=2)
    leader_at(game, "grant", "indianapolis", 1)
    march(game, "indianapolis", ahd.Move("U-MF-01", ("indianapolis", "lafayette"), ("rail",)))
    game.apply(ahd.LeaderFollow("grant", "U-MF-01"))          # march 1, with the unit
    game.apply(ahd.LeaderMove("grant", ("lafayette", "chicago"), ("rail",)))   # march 2, alone
    assert game.state.leaders["grant"].location == "chicago"
    assert_refused(game, ahd.LeaderMove("grant", ("chicago", "lafayette"), ("rail",)), "AO-8.2.1")
    assert not any(isinstance(a, (ahd.LeaderMove, ahd.LeaderFollow)) for a in game.legal_actions())


@pytest.mark.rule("AO-8.2.2")
def test_the_odds_count_the_leaders_present_and_the_heuristic_spreads_points_as_they_assume():
    from ahd.core.combat import effective_value, leader_points_plan
    from ahd.bots.heuristic import HeuristicBot
    from ahd.odds import battle_odds, odds_for
    from ahd.odds.game_odds import _fighter
    game = lee_near_an_attack_on_cincinnati(LEADERS_ON)
    assert game.decision == "targets" and game.battle.firing is U  # the defender fires first
    battle = game.state.battle
    att = [_fighter(game.state, u, battle=battle, entrenched=False, crossing=u.crossing)
           for u in game.state.units_in("cincinnati", C)]
    dfn = [_fighter(game.state, u, battle=battle) for u in game.state.units_in("cincinnati", U)]
    without = odds_for(game)
    assert without.attacker_wins == pytest.approx(battle_odds(att, dfn).attacker_wins, abs=1e-12)
    leader_at(game, "grant", "cincinnati", 2)  # Grant (2) with the defenders
    with_grant = odds_for(game)
    assert with_grant.attacker_wins == pytest.approx(battle_odds(att, dfn, defender_leaders=2).attacker_wins,
                                                     abs=1e-12)
    assert with_grant.attacker_wins < without.attacker_wins - 0.02
    # the heuristic gives Grant's two points where the odds assumed them
    bot = HeuristicBot(seed=0)
    game.apply(bot.choose(game))
    assert game.decision == "leader_points"
    while game.decision == "leader_points":
        game.apply(bot.choose(game))
    shots = [(game.state.units[s], game.state.units[t]) for s, t in battle.targets]
    given = [sum(1 for _, uid in battle.leader_points if uid == s.id) for s, _ in shots]
    values = [effective_value(game.state, battle, s, t) for s, t in shots]
    base = [v - g for v, g in zip(values, given)]
    assert sum(given) == 2 and values == leader_points_plan(base, 2, "H-2" in game.options)


@pytest.mark.rule("AO-8.2.2")
@pytest.mark.parametrize("leaders", [{}, {"grant": 2}, {"lee": 3, "grant": 1}])
def test_the_odds_with_leaders_match_the_engines_own_battles(leaders):
    """3,000 battles fought by the engine (Lee's FV against Union MF in Cincinnati, leaders present as
    given): the attacker's win frequency is within 3 standard errors of ``odds_for``."""
    from ahd.odds import odds_for
    from conftest import engine_battle_frequency
    game = lee_near_an_attack_on_cincinnati(LEADERS_ON)
    for name, value in leaders.items():
        leader_at(game, name, "cincinnati", value)
    predicted = odds_for(game).attacker_wins
    frequency, _ = engine_battle_frequency(game, 3000, seed=1000)
    assert abs(frequency - predicted) <= 3 * (predicted * (1 - predicted) / 3000) ** 0.5, (predicted, frequency)


@pytest.mark.rule("A-7")
@pytest.mark.rule("AO-8.1")
@pytest.mark.rule("AO-8.11")
@pytest.mark.parametrize("rules, leaders, rolls", [
    (("A-7",), {}, ()),
    (("A-7",), {}, (1, 6)),  # the day's commands rolled: Union 2 (T-4 1861, die 1), Confederacy 5 (die 6)
    (("AO-8.1", "AO-8.11"), {}, ()),
    (("A-7", "AO-8.1", "AO-8.11", "AO-8.2"), {"lee": 3, "grant": 1}, ()),
])
def test_the_simulated_odds_of_advanced_battles_match_the_engines_own_battles(rules, leaders, rolls):
    """A-7 command and AO-8.1 morale (with AO-8.11 rally) are only simulated; 3,000 battles fought by
    the engine (its bots choosing firers and rallies as the simulation assumes) land within 3 standard
    errors of ``odds_for``, which also knows a day's commands once they are rolled."""
    from ahd.odds import odds_for
    from conftest import engine_battle_frequency
    game = lee_near_an_attack_on_cincinnati(with_rules(*rules))
    for name, value in leaders.items():
        leader_at(game, name, "cincinnati", value)
    for natural in rolls:
        game.roll(natural)
    if rolls:
        assert game.battle.command == {U: 2, C: 5} and game.decision == "firers"
    predicted = odds_for(game, samples=100_000)
    assert predicted.method == "monte carlo"
    frequency, se = engine_battle_frequency(game, 3000, seed=500)
    assert abs(frequency - predicted.attacker_wins) <= 3 * se + 3 * predicted.stderr(predicted.attacker_wins), (
        predicted.attacker_wins, frequency)
