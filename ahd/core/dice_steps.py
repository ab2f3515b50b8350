"""The dice (0.3): what each pending die is for (``roll_purpose``, said when dice are typed in) and what
its roll does, from the march roll (4.a) to the capture of Washington (A-6). A part of ``Engine`` (see
``engine.py``); who rolls each die is in ``decisions.py``.
"""
from __future__ import annotations

from . import advanced, combat, movement, recruitment
from .actions import Action, Roll
from .errors import IllegalActionError
from .i18n import Joined, Msg, Msgn, Term
from .sides import Side
from .units import ASIDE, EUROPE, POOL, UNIT_TYPES, unit_name

#: AO-8.3: the border states of T-7, named in each language.
BORDER_STATES = {"Missouri": Term("state", "Missouri"), "Kentucky": Term("state", "Kentucky"),
                 "Maryland": Term("state", "Maryland")}


class DiceSteps:
    """What each die is for and what its roll does, mixed into Engine."""

    # ================================================================== what a die is for
    def roll_purpose(self) -> Msg | None:
        """What the pending die is for (shown when dice are typed in), as a message."""
        s = self.state
        if s.step == "march_roll":
            return Msg("{side} march roll ({rules})", side=s.phasing, rules="A-3, T-4" if "A-3" in s.options else "4.a")
        if s.step == "recruit_roll":
            return Msg("{side} recruitment roll (7.a)", side=s.phasing)
        if s.step == "training_roll":
            return Msg("Confederate replacement training roll, minus {losses} for veteran/crack infantry lost this "
                       "turn: 1 or less gives two promotions (O-4.3)", losses=s.veteran_losses)
        if s.step == "border_roll":
            name = s.border_pending[0]
            total = sum(m for m, _ in advanced.border_modifiers(s))
            return Msg("{state} border-state support (AO-8.3): the roll {total:+d} must exceed {number}",
                       state=BORDER_STATES.get(name, name), total=total, number=advanced.T7[name][1])
        if s.step == "morale_roll":
            unit = s.units[s.battle.morale_pending[0]]
            if combat.is_entrenched_in_battle(s, s.battle, unit):
                return Msg("battlefield morale of {unit}: routed if the roll − 1 (entrenched) exceeds {morale} (AO-8.1)",
                           unit=unit_name(unit), morale=combat.morale(s, unit))
            return Msg("battlefield morale of {unit}: routed if the roll exceeds {morale} (AO-8.1)",
                       unit=unit_name(unit), morale=combat.morale(s, unit))
        if s.step == "desertion_roll":
            uid, modifier, lost = s.battle.desertion_pending[0]
            unit = s.units[uid]
            if lost and "H-3" in s.options:
                return Msg("desertion test of {unit}: eliminated if the roll {modifier:+d} exceeds {morale} (AO-8.12); "
                           "a 6 fails for the losing side (H-3)", unit=unit_name(unit), modifier=modifier,
                           morale=combat.morale(s, unit))
            return Msg("desertion test of {unit}: eliminated if the roll {modifier:+d} exceeds {morale} (AO-8.12)",
                       unit=unit_name(unit), modifier=modifier, morale=combat.morale(s, unit))
        if s.step == "command_roll":
            side = s.battle.command_pending[0]
            return Msg("{side} command roll for day {day} at {box} (A-7, T-4)", side=side, day=s.battle.day,
                       box=s.board.term(s.battle.box))
        if s.step == "washington_roll":
            return Msg("capture of Washington: the Union maximum falls by the roll, 1 counting as 2 (A-6)")
        if s.step == "shot":
            shooter, target = s.battle.targets[s.battle.shot_index]
            value = combat.effective_value(s, s.battle, s.units[shooter], s.units[target])
            why = combat.explain_shot(s, s.battle, s.units[shooter], s.units[target])
            return Msg("shot of {shooter} at {target}: hits on {value} or less (5.1.b): {why}",
                       shooter=unit_name(s.units[shooter]), target=unit_name(s.units[target]), value=value, why=why)
        return None

    # ================================================================== what a roll does
    def _check_roll(self, action: Roll) -> IllegalActionError | None:
        if not isinstance(action.value, int) or not 1 <= action.value <= 6:
            return IllegalActionError("0.3", Msg("a die shows 1 to 6, not {value}", value=repr(action.value)))
        return None

    def _legal_march_roll(self) -> list[Action]:
        return [Roll(v) for v in range(1, 7)]

    _legal_shot = _legal_recruit_roll = _legal_training_roll = _legal_washington_roll = _legal_command_roll = _legal_border_roll = _legal_morale_roll = \
        _legal_desertion_roll = _legal_march_roll

    def _do_roll(self, action: Roll) -> None:
        s = self.state
        if s.step == "march_roll":
            s.march_roll = action.value
            if "A-3" in s.options:
                s.marches_left = advanced.command_value(s.turn, s.phasing, action.value)
                rule = "A-3, T-4"
            else:
                s.marches_left = movement.march_allowance(action.value)
                rule = "4.a"
            if action.value == 6 and s.phasing is Side.UNION:
                self.log("roll", Msg("{side} march roll {roll}: {n} marches ({rule}); a natural 6 allows a naval "
                                     "invasion (4.2.4)", side=s.phasing, roll=action.value, n=s.marches_left, rule=rule))
            else:
                self.log("roll", Msg("{side} march roll {roll}: {n} marches ({rule})", side=s.phasing, roll=action.value,
                                     n=s.marches_left, rule=rule))
            self._marches_determined()
        elif s.step == "shot":
            self._resolve_shot(action.value)
        elif s.step == "training_roll":
            modified = action.value - s.veteran_losses
            s.promotions_left = 2 if modified <= 1 else 1
            self.log("roll", Msgn("Confederate replacement training roll {roll} − {losses} = {modified}: {n} "
                                  "promotion this segment (O-4.3)",
                                  "Confederate replacement training roll {roll} − {losses} = {modified}: {n} "
                                  "promotions this segment (O-4.3)", roll=action.value, losses=s.veteran_losses,
                                 modified=modified, n=s.promotions_left))
            s.step = "promotion"
        elif s.step == "border_roll":
            name = s.border_pending.pop(0)
            cities, number = advanced.T7[name]
            mods = advanced.border_modifiers(s)
            total = action.value + sum(m for m, _ in mods)
            how = Joined((Msg(" {m:+d} ({why})", m=m, why=Msg(why)) for m, why in mods), "")
            if total > number:
                s.border_used.add(name)
                unit = s.new_unit(Side.CONFEDERATE, UNIT_TYPES["MF"], POOL)
                result = Msg("success: {id} joins the Confederate pool for good", id=unit.id)
            else:
                result = Msg("no support this time")
            self.log("roll", Msg("{state} border-state support: roll {roll}{how} = {total} against more than {number}: "
                                 "{result} (AO-8.3)", state=BORDER_STATES.get(name, name), roll=action.value, how=how,
                                 total=total, number=number, result=result))
            if not s.border_pending:
                self._foreign_intervention()
        elif s.step == "command_roll":
            self._command_rolled(action.value)
        elif s.step == "morale_roll":
            self._morale_rolled(action.value)
        elif s.step == "desertion_roll":
            self._desertion_rolled(action.value)
        elif s.step == "washington_roll":
            penalty = max(2, action.value)
            s.washington_penalty += penalty - 1
            s.invalidate_maxima()
            self.log("roll", Msg("Capture of Washington: roll {roll} (1 counts as 2): the Union maximum falls by "
                                 "{penalty} (Washington's 1 and a permanent {permanent}; A-6)", roll=action.value,
                                 penalty=penalty, permanent=penalty - 1))
            self._after_update()
        elif s.step == "recruit_roll":
            s.recruit_limit = recruitment.recruit_limit(s, s.phasing, action.value)
            aside = sorted(s.units_of(Side.CONFEDERATE, ASIDE), key=lambda u: u.id)
            if s.phasing is Side.CONFEDERATE and "AO-8.4" in s.options and action.value >= 5 and aside:
                s.place(aside[0], EUROPE)
                self.log("intervention", Msg("Recruitment die {roll}: {unit} returns to Europe (AO-8.4)",
                                             roll=action.value, unit=unit_name(aside[0])))
            self.log("roll", Msg("{side} recruitment roll {roll}: up to {limit} recruits (7.a)", side=s.phasing,
                                 roll=action.value, limit=s.recruit_limit))
            s.step = "recruitment"
            self._recruitment_or_end()
