"""What a session says a player is to do now (the prompt over the panel) and what the dice are."""
from __future__ import annotations

from ahd.core import decisions
from ahd.core.sides import CHANCE

from widgets.model.computer import PLAYER_WORDS
from widgets.model.i18n import N_, _, render

#: How a decision is played on this page, by the engine's play kind (``ahd.core.decisions.play``): what to
#: click after the engine's own words for the decision (the rule ID in them).
HINTS = {
    decisions.MARCH: N_("Click one of your boxes to march from it, then a lit box to move there."),
    "open march": N_("Click a lit box to move the selected units there; entrench or end the march in the panel."),
    decisions.BOX: N_("Click a lit box, or choose in the panel."),
    decisions.PANEL: N_("Choose in the panel."),
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
        play = decisions.play(game)
        task = str(decisions.task(game))  # the engine's words for the decision, with its rule
        hint = HINTS.get("open march" if play == decisions.MARCH and game.march_origin else play)
        prompt = task[:1].upper() + task[1:] + "." + (" " + _(hint) if hint else "")
        return _("{side} to move. {prompt}").format(side=who, prompt=prompt)

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
