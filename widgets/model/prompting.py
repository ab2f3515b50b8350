"""What a session says a player is to do now (the prompt over the panel) and what the dice are."""
from __future__ import annotations

from ahd.core.sides import CHANCE

from widgets.model.computer import PLAYER_WORDS
from widgets.model.i18n import N_, _, render

PROMPTS = {
    "movement": N_("Click one of your boxes to march from it (or a naval move), or end movement."),
    "march": N_("Click a lit box to move the selected units there; entrench or end the march in the panel."),
    "choose_battle": N_("Click a box with a battle marker to fight that battle next."),
    "cavalry_retreat": N_("The defender's cavalry may retreat: click a lit box, or hold its ground."),
    "battle_options": N_("Open fire, retreat (click a lit box), reinforce (click a lit box) or evacuate."),
    "targets": N_("Choose a target for each unit in the panel, or fire automatically."),
    "battle_promotion": N_("The winner may promote one unit that fought: click its box or choose in the panel."),
    "promotion": N_("Promote units: click their boxes or choose in the panel; then stop promoting."),
    "recruitment": N_("Click a lit recruiting city to place a recruit there; end recruitment when done."),
    "supply": N_("Out of supply (A-2): click a box, or choose in the panel, which unit of each unsupplied stack is lost."),
    "leader_arrival": N_("Place the arriving leader (AO-8.2): click a lit box."),
    "containment": N_("Contain the invaders or fight them (A-4): choose in the panel."),
    "firers": N_("Choose which units fire today (A-7), up to your command, in the panel."),
    "leader_points": N_("Give each leader point to a unit in the battle (AO-8.2.2) in the panel."),
    "rally": N_("Rally routed units (AO-8.11) in the panel."),
    "rout_retreat": N_("The routed units retreat (AO-8.1): click a lit box."),
    "leader_return": N_("Place the returning leader (AO-8.2): click a lit box."),
    "over": N_("The game is over."),
}


class Prompting:
    """The prompt and the dice line of a :class:`widgets.model.session.Session` (a mixin)."""

    def _prompt(self) -> str:
        game = self.game
        if game.is_over:
            return _("Game over. {outcome}").format(outcome=game.outcome)
        player = game.current_player
        if self.busy:
            return _("Watch the map: the computer's moves appear one by one; your controls come back when it is done.")
        if player == CHANCE:
            return _("Roll the die: {purpose}.").format(purpose=game.pending_roll)
        who = render(player)
        if self._classmates_move():
            return _("{side} to move: your classmate decides; their moves appear here as they make them.").format(
                side=who)
        if self.player_of(player) != "human":
            bot = self.player_of(player)
            return _("{side} ({player} bot) to move: press 'Let the bot move'.").format(side=who, player=_(PLAYER_WORDS.get(bot, bot)))
        prompt = PROMPTS.get(game.decision)
        return _("{side} to move. {prompt}").format(side=who, prompt=_(prompt) if prompt else "")

    def _dice_text(self) -> str:
        rolls = [a for a in self.game.history if type(a).__name__ == "Roll"]
        parts = []
        if self.game.march_roll is not None:
            parts.append(_("march roll {value}").format(value=self.game.march_roll))
        if rolls:
            parts.append(_("last die {value}").format(value=rolls[-1].value))
        if self.game.dice != "manual":
            parts.append(_("dice rolled by the computer"))
        else:
            parts.append(_("every die typed in") if self.typed_dice == "all" else _("your dice typed in"))
        return "; ".join(parts)
