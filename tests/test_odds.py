"""Exact battle odds (issue 5): hand-computed values, consistency, bad arguments."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from ahd.odds import Fighter, OddsError, battle_odds, simulate_battles


def close(x, y):
    return abs(float(x) - float(y)) < 1e-12


@pytest.mark.rule("5.1.b")
def test_one_against_one_by_hand():
    # Defender: reduced MF (one hit left); attacker: full FV. Defender fires first with 2/6, the
    # attacker with 3/6. From the attacker reduced: s = 1/3 + 2/3·1/2·s -> s = 1/2; from full:
    # r = 1/3·1/2·s + 2/3·1/2·r -> r = 1/8 (the defender wins).
    odds = battle_odds(["FV"], ["MF:reduced"])
    assert close(odds.defender_wins, F(1, 8))
    assert close(odds.attacker_wins, F(7, 8))
    assert close(odds.neither, 0)


@pytest.mark.rule("5.2.3")
def test_river_crossing_by_hand():
    # As above, but the attacker is crossing: the defender hits on 3 in rounds 1 and 2 (5.2.3).
    # Round 3+: s3 = 1/2, r3 = 1/8; round 2: s2 = 1/2 + 1/4·s3 = 5/8, r2 = 1/4·s3 + 1/4·r3 = 5/32;
    # round 1: r1 = 1/4·s2 + 1/4·r2 = 25/128.
    odds = battle_odds(["FV:crossing"], ["MF:reduced"])
    assert close(odds.defender_wins, F(25, 128))


@pytest.mark.rule("5.2.1")
def test_two_against_one_entrenched_by_hand():
    # Attackers: two full MF, each hitting the entrenched defender on 1 (2 − 1): a volley hits with
    # 1 − (5/6)² = 11/36, one attacker alone with 1/6. The reduced, entrenched MF defender hits on 2 and
    # finishes reduced attackers first (the default spread prefers them).
    h2, h1, d = F(11, 36), F(1, 6), F(1, 3)
    x_1r = d / (1 - (1 - d) * (1 - h1))
    x_1f = d * (1 - h1) * x_1r / (1 - (1 - d) * (1 - h1))
    x_1f1r = d * (1 - h1) * x_1f / (1 - (1 - d) * (1 - h2))
    x_2f = d * (1 - h2) * x_1f1r / (1 - (1 - d) * (1 - h2))
    odds = battle_odds(["MF", "MF"], ["MF:entrenched:reduced"])
    assert close(odds.defender_wins, x_2f)
    assert close(odds.attacker_wins, 1 - x_2f)


@pytest.mark.rule("AO-8.2.2")
def test_leader_points_by_hand():
    # Both sides one reduced MF (one hit left); the defender fires first. Lee's 3 points with the
    # attacker make its shot 2 + 3 = 5: P = (4/6 · 5/6) / (1 − 4/6 · 1/6) = 5/8. With the defender
    # instead: (1/6 · 2/6) / (1 − 1/6 · 4/6) = 1/16.
    assert close(battle_odds(["MF:reduced"], ["MF:reduced"], attacker_leaders=3).attacker_wins, F(5, 8))
    assert close(battle_odds(["MF:reduced"], ["MF:reduced"], defender_leaders=3).attacker_wins, F(1, 16))
    assert close(battle_odds(["MF:reduced"], ["MF:reduced"]).attacker_wins, F(4, 6) * F(2, 6) / (1 - F(4, 6) ** 2))


@pytest.mark.rule("AO-8.2.2")
def test_leader_points_go_where_they_raise_a_hit_chance_spread_first():
    from ahd.core.combat import leader_point_shot, leader_points_plan
    assert leader_points_plan([2, 2, 2], 3, False) == [3, 3, 3]  # Lee 3 split 1+1+1
    assert leader_points_plan([2, 2], 3, False) == [4, 3]
    assert leader_points_plan([6, 2], 2, False) == [6, 4]  # a sure hit gains nothing
    assert leader_points_plan([5, 2], 1, False) == [6, 2]
    assert leader_points_plan([5, 2], 1, True) == [5, 3]  # H-2: above 5 nothing is gained
    assert leader_points_plan([-1, 0], 2, False) == [-1, 2]  # one point cannot make -1 hit
    assert leader_point_shot([6, 6], [0, 0], False) is None


@pytest.mark.rule("AO-8.2.2")
@pytest.mark.parametrize("options", [None, {"H-2": False}, {"O-2.2": True}])
def test_exact_and_monte_carlo_agree_with_leaders(options):
    attacker, defender = ["FV", "MF", "CV"], ["MF:entrenched", "FS"]
    exact = battle_odds(attacker, defender, attacker_leaders=3, defender_leaders=2, options=options)
    sim = simulate_battles(attacker, defender, 100_000, seed=4, attacker_leaders=3, defender_leaders=2, options=options)
    assert abs(sim.attacker_wins - exact.attacker_wins) <= 3 * sim.stderr(exact.attacker_wins)
    assert abs(sim.defender_wins - exact.defender_wins) <= 3 * sim.stderr(exact.defender_wins)
    assert abs(exact.attacker_wins - battle_odds(attacker, defender, options=options).attacker_wins) > 0.05


@pytest.mark.rule("H-2")
def test_hit_probabilities_and_h2():
    from ahd.core.combat import hit_probability
    assert [hit_probability(v, True) for v in (-1, 0, 1, 3, 5, 6, 8)] == [0, 0, 1 / 6, 3 / 6, 5 / 6, 5 / 6, 5 / 6]
    assert [hit_probability(v, False) for v in (0, 5, 6, 8)] == [0, 5 / 6, 1, 1]
    # basic units never reach value 6, so H-2 changes no basic battle (it matters with leaders)
    assert close(battle_odds(["FV:crossing"], ["FV"]).defender_wins,
                 battle_odds(["FV:crossing"], ["FV"], options={"H-2": False}).defender_wins)


def test_probabilities_sum_to_one_and_survivors_are_consistent():
    odds = battle_odds(["FV", "MF", "CV"], ["MF:entrenched", "FS", "MC"])
    assert close(odds.attacker_wins + odds.defender_wins + odds.neither, 1)
    for side in ("attacker", "defender"):
        assert close(sum(odds.survivors[side].values()), 1)
    # when the attacker wins the defender has nobody left, and vice versa
    assert close(odds.survivors["defender"].get((), 0), odds.attacker_wins)
    assert close(odds.survivors["attacker"].get((), 0), odds.defender_wins)
    assert odds.expected_rounds >= 1


def test_mid_battle_start():
    start = battle_odds(["FV"], ["MF:reduced"], round=3, firing="attacker")
    # the attacker fires first from here: it wins at once with 1/2, else we are at r (= 1/8 for D)
    assert close(start.defender_wins, F(1, 2) * F(1, 8))


def test_retreat_policy_ends_the_battle():
    stay = battle_odds(["MF"], ["MF", "MF", "MF"])
    leave = battle_odds(["MF"], ["MF", "MF", "MF"], attacker_retreat="outnumbered")
    assert leave.defender_wins > stay.defender_wins - 1e-12
    assert leave.expected_rounds < stay.expected_rounds


def test_reserves_help():
    alone = battle_odds(["MF", "MF"], ["MF", "MF"])
    helped = battle_odds(["MF", "MF"], ["MF", "MF"], attacker_reserves=["FV", "FV"])
    assert helped.attacker_wins > alone.attacker_wins


@pytest.mark.parametrize("args, message", [
    ((["XX"], ["MF"]), "unknown unit type"),
    (([], ["MF"]), "at least one unit"),
    ((["MF:sleepy"], ["MF"]), "unknown unit flag"),
    ((["MF"], 3), "list of units"),
])
def test_bad_arguments(args, message):
    with pytest.raises(OddsError, match=message):
        battle_odds(*args)


@pytest.mark.parametrize("kwargs, message", [
    ({"options": ["A-7"], "year": 1850}, "year must be one of 1861-1865"),
    ({"options": ["AO-8.1"], "year": "1862"}, "year must be one of"),
    ({"options": ["A-7"], "attacker_side": "north"}, "attacker_side must be 'union' or 'confederate'"),
    ({"options": ["A-7"], "command": {"attacker": 9, "defender": 2}}, "current day's command of both sides"),
    ({"options": ["A-7"], "command": {"attacker": 3}}, "current day's command of both sides"),
])
def test_bad_arguments_of_the_simulated_rules(kwargs, message):
    with pytest.raises(OddsError, match=message):
        simulate_battles(["MF"], ["MF"], 10, **kwargs)


@pytest.mark.parametrize("points", [-1, 1.5, True, 13, "3"])
def test_bad_leader_points(points):
    for function in (battle_odds, lambda *a, **k: simulate_battles(*a, 10, **k)):
        with pytest.raises(OddsError, match="summed value of that side's leaders"):
            function(["MF"], ["MF"], defender_leaders=points)


def test_bad_round_and_side():
    with pytest.raises(OddsError, match="round"):
        battle_odds(["MF"], ["MF"], round=0)
    with pytest.raises(OddsError, match="firing"):
        battle_odds(["MF"], ["MF"], firing="union")
    with pytest.raises(OddsError, match="too large"):
        battle_odds(["FV", "MF", "CV", "FS", "MC"], ["MF:entrenched", "FV", "CV", "MF", "FS:entrenched"],
                    max_states=1000)


def test_fighter_parsing():
    assert Fighter.parse("FS:crossing:reduced") == Fighter("FS", reduced=True, crossing=True)
    assert Fighter.parse({"type": "CM", "entrenched": True}) == Fighter("MC", entrenched=True)
    assert str(Fighter("FV", entrenched=True)) == "FV:entrenched"


def random_battles(count, seed=7):
    import numpy as np
    rng = np.random.default_rng(seed)
    codes = ["MF", "FV", "FS", "MC", "CV", "CS"]
    battles = []
    for _ in range(count):
        def side(crossing):
            units = []
            for _ in range(int(rng.integers(1, 4))):
                flags = [f for f, p in (("reduced", 0.2), ("entrenched", 0.0 if crossing else 0.3),
                                        ("crossing", 0.4 if crossing else 0.0)) if rng.random() < p]
                units.append(":".join([codes[int(rng.integers(len(codes)))]] + flags))
            return units
        battles.append((side(True), side(False)))
    return battles


@pytest.mark.parametrize("attacker, defender", random_battles(16))
def test_exact_and_monte_carlo_agree(attacker, defender):
    exact = battle_odds(attacker, defender)
    sim = simulate_battles(attacker, defender, 100_000, seed=11)
    for p_exact, p_sim in ((exact.attacker_wins, sim.attacker_wins), (exact.defender_wins, sim.defender_wins)):
        se = max(sim.stderr(p_exact), 1e-3 / 3)
        assert abs(p_sim - p_exact) <= 3 * se, (attacker, defender, p_exact, p_sim)
    assert abs(sim.expected_rounds - exact.expected_rounds) < 0.05 * exact.expected_rounds + 0.05


@pytest.mark.rule("O-2.2")
def test_exact_and_monte_carlo_agree_under_battlefield_targets():
    """Under O-2.2 the simulator plans each distinct position by the engine's own search."""
    attacker, defender = ["FV", "MF", "CV"], ["MF:entrenched", "FS"]
    exact = battle_odds(attacker, defender, options={"O-2.2": True})
    sim = simulate_battles(attacker, defender, 100_000, seed=3, options={"O-2.2": True})
    assert abs(sim.attacker_wins - exact.attacker_wins) <= 3 * sim.stderr(exact.attacker_wins)
    assert abs(sim.defender_wins - exact.defender_wins) <= 3 * sim.stderr(exact.defender_wins)


def test_odds_for_a_proposed_attack_and_the_battle_in_progress():
    import ahd
    from ahd.odds import odds_for
    from conftest import make_game
    game = make_game([("union", "MF", "fort_smith", 2), ("union", "FS", "fort_smith"),
                      ("confederate", "MF", "little_rock", 2, True)])
    game.apply(ahd.BeginMarch("fort_smith"))
    first = ahd.Move("U-MF-01", ("fort_smith", "little_rock"), ("river",))
    proposed = odds_for(game, first)
    assert close(proposed.attacker_wins, battle_odds(["MF"], ["MF:entrenched", "MF:entrenched"]).attacker_wins)
    assert odds_for(game, ahd.Move("U-MF-01", ("fort_smith", "fayetteville_ar"), ("road",))) is None
    for uid in ("U-MF-01", "U-MF-02"):
        game.apply(ahd.Move(uid, ("fort_smith", "little_rock"), ("river",)))
    third = odds_for(game, ahd.Move("U-FS-01", ("fort_smith", "little_rock"), ("river",)))
    assert close(third.attacker_wins, battle_odds(["MF", "MF", "FS"], ["MF:entrenched"] * 2).attacker_wins)
    game.apply(ahd.Move("U-FS-01", ("fort_smith", "little_rock"), ("river",)))
    assert game.decision == "targets"
    now = odds_for(game)
    assert close(now.attacker_wins, third.attacker_wins)
    assert odds_for(game, ahd.Retreat("camden")) is None


@pytest.mark.rule("5.2.1")
def test_the_odds_match_the_engines_own_battles():
    """3,000 battles fought by the engine itself (two militia and a crack infantry attack two entrenched
    militia): the attacker's win frequency is within 3 standard errors of ``odds_for``."""
    import ahd
    from ahd.odds import odds_for
    from conftest import engine_battle_frequency, make_game
    game = make_game([("union", "MF", "fort_smith", 2), ("union", "FS", "fort_smith"),
                      ("confederate", "MF", "little_rock", 2, True)])
    game.apply(ahd.BeginMarch("fort_smith"))
    for uid in ("U-MF-01", "U-MF-02", "U-FS-01"):
        game.apply(ahd.Move(uid, ("fort_smith", "little_rock"), ("river",)))
    assert game.decision == "targets"
    predicted = odds_for(game).attacker_wins
    frequency, _ = engine_battle_frequency(game, 3000, seed=7)
    assert abs(frequency - predicted) <= 3 * (predicted * (1 - predicted) / 3000) ** 0.5, (predicted, frequency)


def test_fast_firing_policy_is_the_engines():
    """``_assignment`` computes the engine's greedy spread on the codes: it must agree with
    ``combat.greedy_targets`` (run by ``_assignment_engine``) on any battle."""
    import numpy as np
    from ahd.analysis.bench import _random_force
    from ahd.odds.exact import _assignment, _assignment_engine, _encode
    from ahd.core.options import Options
    rng = np.random.default_rng(3)
    for options in (Options.parse(None), Options.parse({"H-2": False})):
        for k in range(400):
            att = tuple(sorted(_encode(Fighter.parse(x)) for x in _random_force(rng, int(rng.integers(1, 9)), False)))
            dfn = tuple(sorted(_encode(Fighter.parse(x)) for x in _random_force(rng, int(rng.integers(1, 9)), True)))
            firing, rnd = ("attacker", "defender")[k % 2], int(rng.integers(1, 4))
            shooters, enemies = (att, dfn) if firing == "attacker" else (dfn, att)
            assert (_assignment.__wrapped__(options, firing, rnd, shooters, enemies)
                    == _assignment_engine(options, firing, rnd, shooters, enemies))


def test_vectorised_firing_policy_is_the_exact_methods():
    """The simulator's targets for thousands of battles at once (``_greedy_plans``) are the plan
    ``_assignment`` gives each position (up to swapping identical units)."""
    import numpy as np
    from ahd.analysis.bench import _random_force
    from ahd.odds.montecarlo import _greedy_plans, _plans_by_position
    from ahd.odds.exact import _REDUCED, _encode
    from ahd.core.options import Options
    rng = np.random.default_rng(5)
    for k in range(60):
        options = Options.parse({"H-2": bool(k % 2)})
        firing, rnd = ("attacker", "defender")[k % 2], int(rng.integers(1, 4))
        sides = []
        for defending in (False, True):
            codes = [_encode(Fighter.parse(x)) for x in _random_force(rng, int(rng.integers(1, 9)), defending)]
            base = np.array([c & ~_REDUCED for c in codes], dtype=np.int64)
            hp = rng.integers(0, 3, size=(200, len(codes))).astype(np.int8)
            hp[:, 0] = np.maximum(hp[:, 0], 1)  # every side has someone alive
            sides.append({"base": base, "hp": hp, "present": rng.random((200, len(codes))) < 0.9,
                          "routed": rng.random((200, len(codes))) < 0.1})  # AO-8.1: out of the fighting
            sides[-1]["routed"][:, 0] = False
            sides[-1]["present"][:, 0] = True
        own, enemy = sides if firing == "attacker" else sides[::-1]
        idx = np.arange(200)
        points = k % 4  # leader points (AO-8.2.2) too, and A-7 command limits
        limit = rng.integers(1, 9, size=200) if k % 3 else None
        fast = _greedy_plans(options, firing, rnd, own, enemy, idx, points, limit)
        slow = _plans_by_position(options, firing, rnd, own, enemy, idx, points, limit)

        def shots(plan, b):
            targets, p = plan
            own_codes = own["base"] | np.where(own["hp"][b] == 1, _REDUCED, 0)
            enemy_codes = enemy["base"] | np.where(enemy["hp"][b] == 1, _REDUCED, 0)
            return sorted((int(enemy_codes[t]), round(float(q), 12)) for t, q in zip(targets[b], p[b]) if t >= 0)
        for b in range(200):
            assert shots(fast, b) == shots(slow, b), (k, b)


def test_auto_method_is_exact_when_small_and_sampled_when_large():
    from ahd.odds import AUTO_MAX_STATES, estimate_states, odds
    small = odds(["FV", "MF"], ["MF:entrenched"])
    assert small.method == "exact" and close(small.attacker_wins, battle_odds(["FV", "MF"], ["MF:entrenched"]).attacker_wins)
    assert small.states <= estimate_states(["FV", "MF"], ["MF:entrenched"])
    big_a = ["MF", "FV", "CV", "FS", "MC", "MF:reduced", "FV:crossing", "CS"]
    big_d = ["MF:entrenched", "FV", "CV:entrenched", "FS", "MC", "MF", "FV:reduced", "CS:entrenched"]
    assert estimate_states(big_a, big_d) > 50 * AUTO_MAX_STATES
    big = odds(big_a, big_d, samples=2000, seed=1)
    assert big.method == "monte carlo" and big.n == 2000
    assert abs(big.attacker_wins + big.defender_wins + big.neither - 1) < 1e-9
    assert odds(big_a, big_d, samples=2000, seed=1) == big  # seeded
    assert odds(["FV"], ["MF"], method="monte carlo", samples=500).method == "monte carlo"
    assert odds(["FV"], ["MF"], method="exact").method == "exact"
    with pytest.raises(OddsError, match="unknown method"):
        odds(["FV"], ["MF"], method="guess")


def test_unit_counts_and_impossible_battles():
    from ahd.odds import odds
    assert close(battle_odds({"MF": 2, "FV": 1}, {"MF:entrenched": 1}).attacker_wins,
                 battle_odds(["MF", "MF", "FV"], ["MF:entrenched"]).attacker_wins)
    with pytest.raises(OddsError, match="negative"):
        battle_odds({"MF": -1}, ["MF"])
    with pytest.raises(OddsError, match="must be an integer"):
        battle_odds({"MF": 1.5}, ["MF"])
    with pytest.raises(OddsError, match="at least one unit"):
        battle_odds({"MF": 0}, ["MF"])
    with pytest.raises(OddsError, match="never entrenched"):
        odds(["MF:entrenched"], ["MF"])
    with pytest.raises(OddsError, match="only attackers cross"):
        odds(["MF"], ["MF:crossing"])
    with pytest.raises(OddsError, match="not the string"):
        battle_odds("MF", ["MF"])
    with pytest.raises(OddsError, match="unknown unit type"):
        simulate_battles(["XX"], ["MF"], 10)
    with pytest.raises(OddsError, match="round"):
        simulate_battles(["MF"], ["MF"], 10, round=0)
    with pytest.raises(OddsError, match="negative"):
        simulate_battles(["MF"], ["MF"], 10, attacker_reserves={"FV": -2})


@pytest.mark.rule("AO-8.2")
def test_the_odds_say_which_advanced_rules_they_leave_out():
    from ahd.odds import not_modelled
    assert not_modelled("basic") == []
    assert not_modelled("everything") == ["A-7 daily command limits", "AO-8.1 battlefield morale"]
    assert not_modelled(["AO-8.2"]) == []  # leaders' points are modelled
    assert not_modelled(["AO-8.1"]) == ["AO-8.1 battlefield morale"]
    assert not_modelled(["AO-8.1"], "monte carlo") == []  # the simulation models them
    with pytest.raises(OddsError, match="exact odds do not model A-7"):
        battle_odds(["MF"], ["MF"], options=["A-7"])
    from ahd.odds import odds
    assert odds(["MF"], ["MF"], options=["A-7", "AO-8.1"], samples=500).method == "monte carlo"
