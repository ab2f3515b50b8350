"""What the app's numbers mean, in words (issue 15, item 6): the note under the war-odds chart.

The note is read from the model's own file (``ahd/data/war_odds.json``: who played the games it was fitted
on, how many, its held-out Brier score against the base rate, via ``ahd.odds.war``), and from the odds of
the position now (the estimate and its 95% interval). Nothing here is a number of its own. It names the
players the odds are for and the measured computer players standing in for them (``ahd.odds.pairs``: a
person is counted as "normal"), and, where stored, the held-out figures of that pair in this scenario.
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

from ahd.odds import war
from ahd.odds.pairs import pair_of

from widgets.model.computer import PLAYER_WORDS
from widgets.model.i18n import N_, _, num, pct

KIND_WORDS = {
    "campaign": N_("games decided by the campaign (the Union must take the seven victory cities by turn 40)"),
    "scored": N_("games decided by a score (the short game and year scenarios scored on the victory table)"),
}


def _player(name: str) -> str:
    return _(PLAYER_WORDS[name]) if name in PLAYER_WORDS else name


def _stand_ins(union: str, confederate: str, pair: str) -> str:
    """Who stands in for each side whose player has no measured games of its own (``pair``: the measured
    pair used), in words."""
    words = []
    models = pair.split("-")
    for for_side, name, model in zip((_("for the Union"), _("for the Confederacy")), (union, confederate), models):
        if name == "human":
            words.append(_("A person is counted as the “{model}” computer player: the project has no games "
                           "played by people, so {for_side} the number says how the game goes if it is played "
                           "like “{model}”.").format(model=_player(model), for_side=for_side))
        elif name.split(":", 1)[0] != model:
            words.append(_("“{player}” has no measured games of its own: {for_side} the number uses “{model}”, "
                           "the nearest measured computer player.").format(
                player=_player(name), for_side=for_side, model=_player(model)))
    return " ".join(words)


def war_odds_note(game, odds: tuple[float, float, float] | None = None, union: str = "hard",
                  confederate: str = "hard") -> str:
    """The note under the war-odds chart, as HTML: what the number estimates, for which players (``union``,
    ``confederate``: the session's) and who stands in for them, from which games, how good the model was on
    games it never saw (this pair's held-out games in this scenario when stored), and how sure it is now
    (``odds``: p, low, high)."""
    kind = war.game_kind(game.scenario, game.play_on)
    table = war.calibration()[kind]
    scenario = game.scenario.id if game.scenario.is_built_in else ""
    wanted = pair_of(union, confederate)
    pair = war.fitted_pair(wanted, scenario) if scenario else wanted
    model_u, model_c = pair.split("-")
    players = war.players()
    who = (", ".join(f"{escape(about, quote=False)} ({pct(share, 0)})" for _player_, share, about in players)
           if players else _("the project's computer players"))
    adjust = war.scenario_adjustments(pair=pair).get(scenario, {}) if scenario else {}
    held = war.heldout(pair, scenario) if scenario else {}
    now = ""
    if odds is not None:
        p, low, high = odds
        now = " " + _("Now: <b>{p}</b>, with a 95% interval of {low} to {high} (the shaded band). The band says "
                      "how well the fitted games pin the model down; it does not cover how differently a person "
                      "plays.").format(p=pct(p, 0), low=pct(low, 0), high=pct(high, 0))
    adjusted = ""
    fitted_games = dict(n=num(int(adjust.get("games", 0))), union=_player(model_u), confederate=_player(model_c))
    if adjust.get("games") and adjust.get("hold", 0.0) >= 1:  # the prior alone (docs/bots/war_odds_cv_stop46.txt)
        adjusted = " " + _("For this scenario the number is the Union's result in {n} games between “{union}” "
                           "(Union) and “{confederate}” (Confederacy), and it stays there until the rules decide "
                           "the game (then it is {none} or {all}): in those games the position did not foretell "
                           "more than that result.").format(**fitted_games, none=pct(0.0, 0), all=pct(1.0, 0))
    elif adjust.get("games"):
        adjusted = " " + _("For this scenario it is adjusted with {n} games between “{union}” (Union) and "
                           "“{confederate}” (Confederacy): at the start the number is the Union's result in "
                           "those games.").format(**fitted_games)
    if held.get("games"):
        good = _("<b>How good:</b> on {heldout} further games of this scenario between these computer players, "
                 "never used to fit it, its Brier score (the mean squared error of the chances it gave; lower is "
                 "better) was {brier}, against {base_brier} for always answering the Union's result in the fitting "
                 "games ({base_rate}). So few games give only a rough check.").format(
            heldout=num(int(held["games"])), brier=num(held["brier"], 3), base_brier=num(held["base_brier"], 3),
            base_rate=pct(held["base_rate"], 0))
    else:
        good = _("<b>How good:</b> on {heldout} further games it never saw, its Brier score (the mean squared error "
                 "of the chances it gave; lower is better) is {brier}, against {base_brier} for always answering "
                 "the Union's overall win rate in those games ({base_rate}).").format(
            heldout=num(table.heldout_games), brier=num(table.brier, 3), base_brier=num(table.base_rate_brier, 3),
            base_rate=pct(table.base_rate, 0))
    stand = _stand_ins(union, confederate, pair)
    if pair != wanted:
        stand += (" " if stand else "") + _("In this scenario the project has not yet measured games between "
                                            "“{union}” and “{confederate}”: the number uses those of “{used_union}” "
                                            "against “{used_confederate}”.").format(
            union=_player(wanted.split("-")[0]), confederate=_player(wanted.split("-")[1]),
            used_union=_player(model_u), used_confederate=_player(model_c))
    return (
        "<div class='ahd-war-note' style='font-size:13px;line-height:1.4;color:#333'>"
        + _("<b>What this is:</b> the chance that the Union wins this game if both sides play on from here as "
            "the selected players do: “{union}” (Union) against “{confederate}” (Confederacy). It is not a "
            "prediction of how <i>you</i> will play: a person who plays better than those players can beat "
            "these odds.").format(union=_player(union), confederate=_player(confederate))
        + (" " + stand if stand else "") + " "
        + _("<b>From which games:</b> a model of the army maxima, units, cities and time left, fitted on "
            "{games} simulated {kind}, whose sides were played by {who}.").format(
            games=num(table.games), kind=_(KIND_WORDS[kind]), who=who)
        + adjusted + " " + good + now + "</div>")


class WarOddsNote:
    """The note as a widget bound to a session: it follows the newest war odds (hidden when they are off)."""

    def __init__(self, session) -> None:
        self.session = session
        self.widget = w.HTML(layout=w.Layout(width="100%"))
        session.observe(self._redraw, names=["war_odds", "union", "confederate"])
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
            value = war_odds_note(s.game, tuple(points[-1][1:4]) if points else None, s.union, s.confederate)
        if value != self.widget.value:
            self.widget.value = value
