"""What the app's numbers mean, in words (issue 15, item 6): the note under the war-odds chart.

The note is read from the model's own file (``ahd/data/war_odds.json``: who played the games it was fitted
on, how many, its held-out Brier score against the base rate, via ``ahd.odds.war``), and from the odds of
the position now (the estimate and its 95% interval). Nothing here is a number of its own.
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

from ahd.odds import war

from widgets.model.i18n import N_, _, num, pct

KIND_WORDS = {
    "campaign": N_("games decided by the campaign (the Union must take the seven victory cities by turn 40)"),
    "scored": N_("games decided by a score (the short game and year scenarios scored on the victory table)"),
}


def war_odds_note(game, odds: tuple[float, float, float] | None = None) -> str:
    """The note under the war-odds chart, as HTML: what the number estimates, from which players' games,
    how good the model was on games it never saw, and how sure it is now (``odds``: p, low, high)."""
    kind = war.game_kind(game.scenario, game.play_on)
    table = war.calibration()[kind]
    players = war.players()
    who = (", ".join(f"{escape(about, quote=False)} ({pct(share, 0)})" for _player, share, about in players)
           if players else _("the project's computer players"))
    now = ""
    if odds is not None:
        p, low, high = odds
        now = " " + _("Now: <b>{p}</b>, with a 95% interval of {low} to {high} (the shaded band). The band says "
                      "how well the fitted games pin the model down; it does not cover how differently a person "
                      "plays.").format(p=pct(p, 0), low=pct(low, 0), high=pct(high, 0))
    return (
        "<div class='ahd-war-note' style='font-size:13px;line-height:1.4;color:#333'>"
        + _("<b>What this is:</b> the chance that the Union wins this game if both sides play on from here like "
            "the computer players the model learned from. It is not a prediction of how <i>you</i> will play: "
            "a person who plays better than those players can beat these odds.") + " "
        + _("<b>From which games:</b> a model of the army maxima, units, cities and time left, fitted on "
            "{games} simulated {kind}, whose sides were played by {who}.").format(
            games=num(table.games), kind=_(KIND_WORDS[kind]), who=who) + " "
        + _("<b>How good:</b> on {heldout} further games it never saw, its Brier score (the mean squared error of "
            "the chances it gave; lower is better) is {brier}, against {base_brier} for always answering the "
            "Union's overall win rate in those games ({base_rate}).").format(
            heldout=num(table.heldout_games), brier=num(table.brier, 3), base_brier=num(table.base_rate_brier, 3),
            base_rate=pct(table.base_rate, 0))
        + now + "</div>")


class WarOddsNote:
    """The note as a widget bound to a session: it follows the newest war odds (hidden when they are off)."""

    def __init__(self, session) -> None:
        self.session = session
        self.widget = w.HTML(layout=w.Layout(width="100%"))
        session.observe(self._redraw, names=["war_odds"])
        self._redraw()

    def relabel(self) -> None:
        """The note in the current language (after ``ahd.set_language``)."""
        self._redraw()

    def _redraw(self, change=None) -> None:
        s = self.session
        points = s.war_odds
        if not s.show_war_odds or s.game.is_over:
            value = ""
        else:
            value = war_odds_note(s.game, tuple(points[-1][1:4]) if points else None)
        if value != self.widget.value:
            self.widget.value = value
