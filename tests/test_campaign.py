"""The search bot's campaign plan (issue 5): storm the strongest objective together, gather when idle."""
from __future__ import annotations

import pytest

import ahd
from ahd.bots.campaign import CampaignPlan, Orders, follow, idle_score, objectives
from ahd.bots.heuristic import HeuristicBot, _distances
from ahd.odds import odds
from ahd.core.positions import pass_until, position_game
from ahd.bots.search import SearchBot, SearchError
from conftest import units_at

RICHMOND = [("confederate", "FS", "richmond", 4), ("confederate", "FV", "richmond", 4)]


def plan() -> CampaignPlan:
    return CampaignPlan(HeuristicBot(1))


def test_objectives_are_the_victory_conditions():
    assert set(objectives(ahd.Side.UNION)) == {"new_orleans", "mobile", "atlanta", "memphis", "charleston_sc",
                                               "wilmington", "richmond"}
    assert objectives(ahd.Side.CONFEDERATE) == ("washington",)
    game = position_game(RICHMOND + [("confederate", "MF", "mobile", 1), ("union", "FV", "petersburg", 9)])
    assert plan().objective(game.state, ahd.Side.UNION) == "richmond"  # the most defenders
    assert plan().objective(game.state, ahd.Side.CONFEDERATE) is None  # Washington holds no Union unit


def test_the_whole_army_storms_when_together_it_has_the_odds():
    """9 veterans against Richmond's 8 entrenched veterans and crack units win about 1%: no storm.
    15 win about 80%: every unit that can reach Richmond marches in. (From Fredericksburg, by rail: from
    Petersburg they would cross the James, 5.2.3.)"""
    few = position_game(RICHMOND + [("union", "FV", "fredericksburg", 9)], marches=3)
    many = position_game(RICHMOND + [("union", "FV", "fredericksburg", 15)], marches=3)
    defenders = ["FS:entrenched"] * 4 + ["FV:entrenched"] * 4
    assert odds(["FV"] * 9, defenders).attacker_wins < 0.1 < 0.6 < odds(["FV"] * 15, defenders).attacker_wins
    busy = 5.0  # the heuristic has something better to do: no gathering either
    assert plan().march(few, few.legal_actions(), busy) is None
    found = plan().march(many, many.legal_actions(), busy)
    assert found is not None
    action, orders = found
    assert action == ahd.BeginMarch("fredericksburg")
    assert orders.origin == "fredericksburg" and orders.side is ahd.Side.UNION
    assert sorted(orders.moves) == sorted(u.id for u in units_at(many, "fredericksburg"))
    assert set(orders.moves.values()) == {"richmond"}
    # carried out order by order, then the march ends
    many.apply(action)
    while many.decision == "march":
        many.apply(follow(orders, many))
    assert len(units_at(many, "richmond", ahd.Side.UNION)) == 15 and not units_at(many, "fredericksburg")
    # a higher threshold holds the army back
    assert CampaignPlan(HeuristicBot(1), odds=0.99).march(many, many.legal_actions(), busy) is None


def test_idle_units_gather_next_to_the_objective():
    """When the heuristic would end movement, a box's spare units march toward the staging box (ours,
    next to the objective, with the most of our units); a box keeps the garrison the heuristic wants."""
    game = position_game(RICHMOND + [("union", "FV", "petersburg", 9), ("union", "FV", "raleigh", 1),
                                     ("union", "MF", "goldsboro", 3), ("union", "FV", "wilmington", 2)],
                         control={"union": ["petersburg"]}, marches=3)
    state = game.state
    heuristic = HeuristicBot(1)
    staging = _distances(state.board)["petersburg"]
    assert plan().march(game, game.legal_actions(), 5.0) is None  # busy: no gathering
    action, orders = plan().march(game, game.legal_actions(), 0.0)
    origin = action.origin
    assert origin not in ("petersburg", "richmond") and orders.origin == origin
    spare = state.count_in(origin, ahd.Side.UNION) - heuristic._garrison_need(state, origin, ahd.Side.UNION)
    assert 0 < len(orders.moves) <= spare
    for unit, box in orders.moves.items():
        assert staging[box] < staging[origin]  # every order brings a unit nearer
        assert state.units[unit].location == origin
    game.apply(action)
    while game.decision == "march":
        game.apply(follow(orders, game))
    assert all(game.state.units[u].location == box for u, box in orders.moves.items())


def test_idle_score_is_zero_when_the_heuristic_would_end_movement():
    assert idle_score([(1.0, ahd.EndMovement()), (0.4, ahd.BeginMarch("x"))]) == 0.0
    assert idle_score([(3.5, ahd.BeginMarch("x")), (1.0, ahd.EndMovement())]) == 3.5


def test_follow_answers_only_its_own_march():
    game = position_game(RICHMOND + [("union", "FV", "petersburg", 2), ("union", "FV", "norfolk", 1)], marches=3)
    ids = [u.id for u in units_at(game, "petersburg")]
    orders = Orders(ahd.Side.UNION, game.state.turn, "petersburg", {ids[0]: "raleigh"})
    assert follow(orders, game) is None  # not in a march
    assert follow(None, game) is None
    game.apply(ahd.BeginMarch("norfolk"))
    assert follow(orders, game) is None  # another box's march
    game.apply(next(a for a in game.legal_actions() if isinstance(a, ahd.Move)))
    if game.decision == "march":
        game.apply(ahd.EndMarch())
    later = Orders(ahd.Side.UNION, game.state.turn + 1, "petersburg", {ids[0]: "raleigh"})
    game.apply(ahd.BeginMarch("petersburg"))
    assert follow(later, game) is None  # another turn's plan
    step = follow(orders, game)
    assert isinstance(step, ahd.Move) and step.unit == ids[0] and step.path[-1] == "raleigh"
    game.apply(step)
    assert follow(orders, game) == ahd.EndMarch()  # the other unit stays


def test_the_search_bot_carries_out_the_storm():
    game = position_game(RICHMOND + [("union", "FV", "fredericksburg", 15)], marches=3)
    bot = SearchBot(1, iterations=1, candidates=2, depth=0)
    while game.phasing is ahd.Side.UNION and game.decision in ("movement", "march"):
        game.apply(bot.choose(game))
    assert len(units_at(game, "richmond", ahd.Side.UNION)) == 15
    assert bot.stats["campaign"] == 1
    off = position_game(RICHMOND + [("union", "FV", "fredericksburg", 15)], marches=3)
    quiet = SearchBot(1, iterations=1, candidates=2, depth=0, campaign=False)
    while off.phasing is ahd.Side.UNION and off.decision in ("movement", "march"):
        off.apply(quiet.choose(off))
    assert len(units_at(off, "richmond", ahd.Side.UNION)) < 15 and quiet.stats["campaign"] == 0


def test_the_heuristic_weighs_a_big_battle_whole():
    """Past 5 v 4 the heuristic judged a battle by its first units only, so 15 veterans storming
    Richmond saw the odds of 5 against 4 and fell back in round 2; now both forces count."""
    game = position_game(RICHMOND + [("union", "FV", "fredericksburg", 15)], marches=3)
    game.apply(ahd.BeginMarch("fredericksburg"))
    for unit in units_at(game, "fredericksburg"):
        game.apply(ahd.Move(unit.id, ("fredericksburg", "richmond"), ("rail",)))
    bot = HeuristicBot(1)
    pass_until(game, lambda g: g.decision == "battle_options" and g.state.battle.firing is ahd.Side.UNION, roll=4)
    chance = bot._odds_now(game, ahd.Side.UNION)
    assert chance > 0.5
    assert not isinstance(bot.choose(game), ahd.Retreat)


def test_campaign_settings_are_checked():
    with pytest.raises(SearchError, match="campaign_odds"):
        SearchBot(1, campaign_odds=2.0)
    with pytest.raises(SearchError, match="campaign must be"):
        SearchBot(1, campaign="yes")
    from ahd.bots import make_bot
    assert make_bot("search:campaign=off", 1).campaign is None
    assert make_bot("search:campaign=on,campaign_odds=0.7", 1).campaign.odds == 0.7
    with pytest.raises(ValueError, match="campaign"):
        make_bot("search:campaign=maybe", 1)


def test_grab_takes_an_objective_left_without_defenders():
    """``grab``: a unit next to an empty enemy-held objective (New Orleans, printed Confederate) walks in,
    even while the heuristic is busy; an objective of ours keeps one unit."""
    game = position_game(RICHMOND + [("union", "FV", "baton_rouge", 2), ("union", "FV", "memphis", 1)],
                         control={"union": ["baton_rouge", "memphis"]}, marches=3)
    busy = 50.0
    assert plan().march(game, game.legal_actions(), busy) is None  # Richmond is out of reach
    grab = CampaignPlan(HeuristicBot(1), grab=True)
    action, orders = grab.march(game, game.legal_actions(), busy)
    assert action == ahd.BeginMarch("baton_rouge") and list(orders.moves.values()) == ["new_orleans"]
    assert len(orders.moves) == 1 and "New Orleans" in str(grab.plan)
    game.apply(action)
    while game.decision == "march":
        game.apply(follow(orders, game))
    assert units_at(game, "new_orleans", ahd.Side.UNION) and len(units_at(game, "memphis", ahd.Side.UNION)) == 1


def test_the_odds_a_storm_needs_fall_toward_the_last_turn():
    """``endgame``: from that turn the odds needed fall evenly from ``odds`` to 30% at turn 38."""
    late = CampaignPlan(HeuristicBot(1), odds=0.6, endgame=30)
    game = position_game(RICHMOND)
    state = game.state
    needed = {}
    for turn in (2, 29, 30, 34, 38, 40):
        state.turn = turn
        needed[turn] = late._needed(state)
    assert needed[2] == needed[29] == 0.6 and needed[38] == needed[40] == pytest.approx(0.3)
    assert 0.6 > needed[30] > needed[34] > needed[38]
    assert plan()._needed(state) == 0.6  # without endgame: always ``odds``


def test_sally_storms_a_stack_next_to_the_capital_without_a_garrison_against_it():
    """``sally``: with shared garrisons Washington keeps a garrison against every stack near it; the
    stack it storms is not one of them (a stack of 4 next to Washington kept 5 of its 6 units home)."""
    game = position_game([("confederate", "MF", "baltimore", 4), ("union", "FV", "washington", 8)],
                         control={"confederate": ["baltimore"]}, marches=3)
    state = game.state
    heuristic = HeuristicBot(1, garrison="shared")
    guard = CampaignPlan(heuristic, guard=True, choose="weakest")
    sally = CampaignPlan(heuristic, guard=True, choose="weakest", sally=True)
    side = ahd.Side.UNION
    assert guard.objective(state, side) == "baltimore"
    assert sally._keep(state, "washington", side, "baltimore") < guard._keep(state, "washington", side, "baltimore")
    found = sally.march(game, game.legal_actions(), 50.0)
    assert found is not None and found[0] == ahd.BeginMarch("washington")
    assert len(found[1].moves) >= 8 - sally._keep(state, "washington", side, "baltimore")


def test_push_tries_the_other_objectives():
    """``push``: when the objective (Richmond, the strongest, too strong) can be neither stormed nor
    gathered for, the others are tried, the weakest first (Atlanta's lone defender is stormed)."""
    game = position_game(RICHMOND + [("confederate", "MF", "atlanta", 1), ("union", "FV", "chattanooga", 3),
                                      ("union", "FV", "fredericksburg", 3)],
                         control={"union": ["chattanooga", "fredericksburg"]}, marches=3)
    busy = 50.0
    base = CampaignPlan(HeuristicBot(1))
    push = CampaignPlan(HeuristicBot(1), push=True)
    assert base.objective(game.state, ahd.Side.UNION) == "richmond"
    assert base.march(game, game.legal_actions(), busy) is None
    action, orders = push.march(game, game.legal_actions(), busy)
    assert set(orders.moves.values()) == {"atlanta"}


def test_capital_keeps_washington_garrison_out_of_battles_next_door():
    """``capital`` (hard's Union uses it in the scenarios after 1861, ``capital=year``): the heuristic reinforces a losing battle with every unit that
    can; with it the Union never sends Washington's garrison (the heuristic's, for the stacks near it) to
    a battle next door. Without it, 1864 hard against hard: the four units left in Washington reinforced
    Fredericksburg's battle and two Confederate cavalry rode into the empty capital on turn 29 (seed 2)."""
    from ahd.bots import LEVELS, make_bot
    from ahd.core.actions import Reinforce
    from ahd.core.sides import CHANCE, Side

    def play_to(spec, turn):
        game = ahd.new_game("1864", seed=2)
        union = make_bot(spec, 1)
        bots = {Side.UNION: union, Side.CONFEDERATE: make_bot(LEVELS["hard"].confederate, 2)}
        sent = []
        while not game.is_over and game.state.turn <= turn:
            if game.current_player == CHANCE:
                game.roll()
                continue
            action = bots[game.current_player].choose(game)
            state = game.state
            if isinstance(action, Reinforce) and state.units[action.unit].location == "washington":
                sent.append((state.count_in("washington", Side.UNION) - 1,
                             union.heuristic._garrison_need(state, "washington", Side.UNION)))
            game.apply(action)
        return game, sent

    assert ",capital=year," in LEVELS["hard"].union + ","
    hard = LEVELS["hard"].union.replace(",capital=year", "")  # the hard Union's settings, without ``capital``
    lost, sent = play_to(hard, 29)
    assert lost.is_over and lost.outcome.winner is Side.CONFEDERATE and lost.state.turn == 29
    assert any(left < need for left, need in sent)  # Washington was emptied below its garrison
    for setting in (",capital=on", ",capital=year"):  # 1864 starts after turn 1: ``year`` is on here
        kept, sent = play_to(hard + setting, 29)
        assert not kept.is_over and kept.state.control["washington"] is Side.UNION
        assert all(left >= need for left, need in sent)


def test_finish_gathers_for_the_last_objectives_where_the_plan_stood_still():
    """``finish``, from the ``endgame`` turn: the stack next to Washington that cannot be stormed no longer
    holds the gathering (the war is won by the seven cities, not by Baltimore), and a city with no box of
    ours next to it is gathered for next to it all the same (New Orleans, seed 1038: it held one defender
    for the last seven turns while the Union, 32 units, gathered at Washington)."""
    units = [("confederate", "FV", "baltimore", 8), ("confederate", "FV", "new_orleans", 3),
             ("union", "FV", "washington", 8), ("union", "FV", "jackson", 2), ("union", "FV", "meridian", 2)]
    control = {"confederate": ["baltimore"], "union": ["jackson", "meridian"]}
    side = ahd.Side.UNION
    settings = dict(guard=True, choose="weakest", sally=True, endgame=30, push=True)
    late = position_game(units, control=control, turn=35, marches=3)
    base = CampaignPlan(HeuristicBot(1, garrison="shared"), **settings)
    finish = CampaignPlan(HeuristicBot(1, garrison="shared"), finish=True, **settings)
    assert base.objective(late.state, side) == "baltimore"
    dist = _distances(late.state.board)["new_orleans"]
    _, gathering = base.march(late, late.legal_actions(), 0.0)  # toward Washington, for Baltimore
    assert all(dist[box] > dist[gathering.origin] for box in gathering.moves.values())
    assert "Baltimore" in str(base.plan)
    action, orders = finish.march(late, late.legal_actions(), 0.0)
    assert all(dist[box] < dist[orders.origin] for box in orders.moves.values())  # nearer New Orleans
    assert "New Orleans" in str(finish.plan)
    early = position_game(units, control=control, turn=20, marches=3)  # before the endgame: as before
    assert finish.march(early, early.legal_actions(), 0.0) == base.march(early, early.legal_actions(), 0.0)


def test_grab_brings_the_unit_that_can_come_nearer():
    """``grab``, idle: the unit nearest the empty enemy objective cannot come nearer (Grenada, three links
    from New Orleans, with Jackson held by three raiders: its moves end four links away); a spare unit
    farther off that can (Louisville's, eight links, to Paducah) is sent. The plan used to look at the
    nearest move alone and send nobody (seed 1047: New Orleans stood empty for the last seven turns)."""
    others = [("confederate", "FV", box, 1) for box in ("mobile", "atlanta", "memphis", "charleston_sc", "wilmington")]
    game = position_game(others + [("confederate", "FV", "jackson", 3), ("confederate", "FV", "richmond", 8),
                                   ("union", "FV", "grenada", 1), ("union", "FV", "louisville", 2)],
                         control={"union": ["grenada", "louisville"]}, turn=35, marches=3)
    grab = CampaignPlan(HeuristicBot(1, garrison="shared"), grab=True, endgame=30)
    found = grab.march(game, game.legal_actions(), 0.0)
    assert found is not None
    action, orders = found
    dist = _distances(game.state.board)["new_orleans"]
    assert action == ahd.BeginMarch("louisville") and len(orders.moves) == 1
    assert all(dist[box] < dist["louisville"] for box in orders.moves.values())
    assert "New Orleans" in str(grab.plan)


def test_retake_storms_a_recruiting_city_a_raid_took():
    """``retake``: a raider holds Philadelphia (3 to the Union maximum: the maxima decide early games,
    11.b(2)); the Union's spare units next to it storm it at the odds a storm needs. Without it the plan
    looks only at the seven cities (Richmond, out of reach) and the raider stays (hard against search,
    seed 1010: Philadelphia and Atlantic City held from turn 6 until the maxima turned on turn 9)."""
    game = position_game(RICHMOND + [("confederate", "MF", "philadelphia", 1), ("union", "FV", "harrisburg", 3)],
                         control={"confederate": ["philadelphia"], "union": ["harrisburg"]}, marches=3)
    busy = 50.0
    assert plan().march(game, game.legal_actions(), busy) is None
    retake = CampaignPlan(HeuristicBot(1), retake=True)
    assert retake._retake(game.state, ahd.Side.UNION, ["richmond"]) == ["philadelphia"]
    action, orders = retake.march(game, game.legal_actions(), busy)
    assert action == ahd.BeginMarch("harrisburg") and set(orders.moves.values()) == {"philadelphia"}
    assert "Philadelphia" in str(retake.plan)


def test_clear_storms_the_stack_that_bars_the_way_to_the_staging_box():
    """``clear``, in the endgame: only Richmond is left; nine units in Wilmington cannot come nearer
    Petersburg, where the Union gathers for it, because three Confederates in Goldsboro bar the only road.
    The plan storms Goldsboro from Wilmington, keeping the city's garrison. Without it the plan sent no one
    from Wilmington (hard against search, seed 1000: 13 units stood there from turn 36 to the loss on turn 40)."""
    units = [("confederate", "FV", "richmond", 6), ("confederate", "FV", "goldsboro", 3),
             ("confederate", "FV", "baltimore", 6), ("union", "FV", "wilmington", 9),
             ("union", "FV", "petersburg", 5), ("union", "FV", "washington", 6)]
    control = {"confederate": ["baltimore", "goldsboro"],
               "union": ["wilmington", "petersburg", "new_orleans", "mobile", "atlanta", "memphis", "charleston_sc"]}
    settings = dict(guard=True, choose="weakest", sally=True, endgame=30, push=True, finish=True)
    late = position_game(units, control=control, turn=36, marches=3)
    base = CampaignPlan(HeuristicBot(1, garrison="shared"), **settings)
    clear = CampaignPlan(HeuristicBot(1, garrison="shared"), clear=True, **settings)
    assert base.march(late, late.legal_actions(), 0.0)[0] != ahd.BeginMarch("wilmington")
    action, orders = clear.march(late, late.legal_actions(), 0.0)
    assert action == ahd.BeginMarch("wilmington") and set(orders.moves.values()) == {"goldsboro"}
    assert 0 < len(orders.moves) < 9  # Wilmington keeps a garrison
    assert "Goldsboro" in str(clear.plan)
    early = position_game(units, control=control, turn=20, marches=3)  # before the endgame: as before
    assert clear.march(early, early.legal_actions(), 0.0) == base.march(early, early.legal_actions(), 0.0)
