"""A game's current position as a scenario (``Game.to_scenario``): puzzles and published positions.

A position can be exported at the start of a game turn: the Union half-turn before its first march.
That is the decisions ``supply`` (A-2, before any loss is chosen), ``march_roll`` (dice typed in),
``leader_arrival`` (AO-8.2) and ``movement`` before any march, sea move, break-out or leader move.
Then every per-turn mark of the counters (marches, retreats, battles fought, O-4.3 losses, leader
marches) is clear and the position is units, control and the war's lasting records only. Elsewhere
(mid-march, mid-battle, the Confederate half-turn, recruitment...) ``AhdError`` says why not.
The format, with the keys added for positions, is in docs/scenario-format.md.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from . import advanced
from .calendar import LAST_TURN, Turn
from .errors import AhdError
from .leaders import REMOVED, t6_value
from .scenario import FORMAT
from .sides import Side
from .units import ASIDE, EUROPE, FULL

if TYPE_CHECKING:
    from .game import Game

#: The decisions of the Union half-turn's start at which a position may be exported.
EXPORT_DECISIONS = ("supply", "march_roll", "leader_arrival", "movement")


def why_not_exportable(game: "Game") -> str | None:
    """None if ``game.to_scenario()`` works now, else the reason it is refused."""
    s = game.state
    if s.outcome is not None:
        return "the game is over"
    where = f"now it is {Turn.of(s.turn)}, {s.phasing.adjective} half-turn, decision {s.step!r}"
    start = ("a position can be exported only at the start of a game turn (the Union half-turn, before "
             f"its first march); {where}")
    if s.phasing is not Side.UNION or s.step not in EXPORT_DECISIONS or s.battle is not None:
        return start
    if s.step == "supply":
        if s.unsupplied != advanced.unsupplied_stacks(s, Side.UNION):
            return f"{start}: the A-2 supply losses are being taken; export before the first of them"
        return None
    if s.marches_made or s.march_origin is not None or s.breakouts or s.moved_from \
            or any(leader.marches for leader in s.leaders.values()):
        return f"{start}: the Union has moved already"
    if "A-2" in s.options and advanced.unsupplied_stacks(s, Side.UNION):
        return (f"{start}: the A-2 supply losses of this half-turn are taken and a loaded position would "
                f"take them again; export at the supply decision, before them")
    return None


def position_to_scenario(game: "Game") -> dict[str, Any]:
    """The scenario dict of ``game``'s current position (see the module docstring)."""
    reason = why_not_exportable(game)
    if reason is not None:
        raise AhdError(f"cannot export the position as a scenario: {reason}")
    s, sc, board = game.state, game.scenario, game.board
    turn = s.turn
    data: dict[str, Any] = {
        "format": FORMAT, "version": 1,
        "id": f"{sc.id.split('@')[0][:60]}@{turn}",  # within the 64 characters of an id
        "rule": sc.rule,
        "title": f"{sc.title.split(' — ')[0]} — position of {Turn.of(turn)}",
        "description": f"Position exported at the start of {Turn.of(turn)} from a game of scenario {sc.id!r} "
                       f"({'' if game.seed is None else f'seed {game.seed}, '}{len(game.history)} recorded actions).",
        "start_turn": turn,
    }
    if turn == sc.start_turn and sc.first_turn_marches:
        data["first_turn_marches"] = sc.first_turn_marches  # the free marches of the first turn still apply
    else:
        data["first_turn_marches"] = "roll"
        if s.march_roll is not None:
            data["march_roll"] = s.march_roll
    end, last = sc.end, sc.last_turn
    if end == "table" and turn > sc.score_turn:  # played on past its score (S-0 play_on): a campaign now
        end, last = "campaign", LAST_TURN
    data["last_turn"], data["end"] = last, end
    if end == "table":
        data["score_turn"] = sc.score_turn
    data["options"] = game.options.to_list()
    groups: Counter = Counter()
    for unit in s.units.values():
        if unit.on_map:
            groups[(unit.location, unit.side.value, unit.type.code, unit.entrenched, unit.strength,
                    unit.is_foreign)] += 1
    units = []
    for (box, side, code, entrenched, strength, foreign), count in sorted(groups.items()):
        entry: dict[str, Any] = {"side": side, "type": code, "box": box, "count": count}
        if entrenched:
            entry["entrenched"] = True
        if strength != FULL:
            entry["strength"] = strength
        if foreign:
            entry["foreign"] = True
        units.append(entry)
    data["units"] = units
    control: dict[str, list[str]] = {}
    for box in board:
        owner = s.control[box.id]
        if owner is not box.owner:  # a control marker (9.c)
            control.setdefault("neutral" if owner is None else owner.value, []).append(box.id)
    data["control"] = {side: sorted(boxes) for side, boxes in sorted(control.items())}
    if s.cavalry_held:
        data["cavalry_held"] = sorted(s.cavalry_held)
    leaders = []
    for name, leader in sorted(s.leaders.items()):
        if leader.on_map:
            entry = {"name": name, "box": leader.location}
        elif leader.location == REMOVED:
            entry = {"name": name, "removed": True}
        else:
            continue  # not yet arrived: arrives when his date comes (C-2)
        if leader.value != t6_value(name, turn):
            entry["value"] = leader.value
        leaders.append(entry)
    if leaders:
        data["leaders"] = leaders
    if s.border_used:
        data["border_states"] = sorted(s.border_used)
    if s.intervention:
        data["foreign"] = {"europe": len(s.units_of(Side.CONFEDERATE, EUROPE)),
                           "aside": len(s.units_of(Side.CONFEDERATE, ASIDE))}
    if s.invaded_ports:
        data["invaded_ports"] = sorted(s.invaded_ports)
    if s.contained:
        data["contained"] = sorted(s.contained)
    if s.washington_penalty:
        data["washington_penalty"] = s.washington_penalty
    data["stated_maxima"] = {"union": s.army_max(Side.UNION), "confederate": s.army_max(Side.CONFEDERATE)}
    return data
