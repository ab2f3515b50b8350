"""The side panel: the position in words, the current decision's actions as buttons, dice, players,
undo, files and the game log. Every control calls a Session method; nothing here decides a rule."""
from __future__ import annotations

import base64
import re
from html import escape
from pathlib import PurePosixPath

import ipywidgets as w

from ahd.core.options import PRESETS
from ahd.core.scenario import BUILT_IN as BUILT_IN_SCENARIOS

from ahd.core import decisions
from ahd.core.actions import Roll

from widgets.model.gestures import action_box
from ahd.core.i18n import Term

from widgets.model.i18n import N_, _, render
from widgets.model.computer import PLAYER_WORDS, PLAYERS
from widgets.model.files import GameFiles
from widgets.model.session import Session
from widgets.board.log import LogBox, with_plans

QUICK_BUTTONS = 12
#: The badges of the header: (style, words); the words are translated when shown (:func:`side_badge`).
SIDE_BADGE = {
    "union": ("background:#1f4e9c;color:#fff;padding:1px 6px;border-radius:3px", N_("UNION")),
    "confederate": ("background:#6f6f6f;color:#fff;padding:1px 6px;border-radius:3px;border:2px dashed #000",
                    N_("CONFEDERATE")),
    "chance": ("background:#fff3c4;padding:1px 6px;border-radius:3px;border:1px solid #b8860b", N_("DIE ROLL")),
    "": ("padding:1px 6px", "—"),
}


def side_badge(side: str) -> str:
    """The header's badge of ``side`` ('union', 'confederate', 'chance' or ''), in the current language."""
    style, words = SIDE_BADGE[side]
    return f"<span style='{style}'>{escape(_(words) if words != '—' else words)}</span>"


DICE_MODES = [(N_("Computer rolls"), "auto"), (N_("Type in my dice"), "manual"), (N_("Type in all dice"), "all")]
#: The menus' ids in words (the ids are the values; English words are the ids themselves).
SCENARIO_WORDS = {"short": N_("short")}
PRESET_WORDS = {"basic": N_("basic"), "novice-union": N_("novice-union"), "neutral": N_("neutral"),
                "pro-union": N_("pro-union"), "pro-confederate": N_("pro-confederate"), "advanced": N_("advanced"),
                "everything": N_("everything")}
def _frozen(value):
    """A trait's value as a comparable snapshot (lists and dicts copied)."""
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


def unit_type_name(unit) -> str:
    """A unit's type name (``militia infantry``) in the current language."""
    return render(Term("unit", unit.type.name))


class Panel:
    """Controls for a :class:`Session`."""

    def __init__(self, session: Session, files: GameFiles | None = None) -> None:
        self.session = session
        self.big = w.ButtonStyle(font_size="15px")  # one style for every button of the panel
        self._drawing = False
        self.header = w.HTML()
        self.prompt = w.HTML()
        self.status = w.HTML()
        for said in (self.prompt, self.status):  # read by screen readers when they change (widgets/board/cardlayer.js)
            said.add_class("ahd-announce")
        # players and bots
        players = [(_(PLAYER_WORDS.get(p, p)), p) for p in PLAYERS]
        self.union_player = w.Dropdown(options=players, value=session.union, description=_("Union"),
                                       style={"description_width": "auto"}, layout=w.Layout(width="215px"))
        self.confederate_player = w.Dropdown(options=players, value=session.confederate,
                                             description=_("Confederate"),
                                             style={"description_width": "auto"}, layout=w.Layout(width="215px"))
        self.union_player.observe(self._players_changed, names="value")
        self.confederate_player.observe(self._players_changed, names="value")
        self.bot_move = self._button(_("Let the bot move"), _("the bot of the side to move makes its decisions"))
        self.bot_half = self._button(_("Bot plays this half-turn"), _("a bot plays the rest of this half-turn for "
                                                                      "the side to move (the heuristic bot for a "
                                                                      "human side)"))
        self.undo = self._button(_("Undo"), _("take back the last decision"))
        self.bot_move.on_click(lambda _: session.bot_step())
        self.bot_half.on_click(lambda _: session.bot_half_turn(paced=True))
        self.undo.on_click(lambda _: session.undo())
        # dice
        self.dice_mode = w.ToggleButtons(options=[(_(label), value) for label, value in DICE_MODES],
                                         value=self._dice_value(),
                                         tooltips=[_("the computer rolls every die"),
                                                   _("type in the dice of the sides people play; the computer rolls "
                                                     "its own"), _("type in every die, the computer's too")],
                                         style={"button_width": "150px"})
        self.dice_mode.observe(self._dice_changed, names="value")
        self.die_buttons: list[w.Button] = []  # 1-6, and "Roll for me": made when dice are first typed in
        self.roll_for_me: w.Button | None = None
        self.dice_row = w.HBox([], layout=w.Layout(display="none"))  # the only die buttons (no Roll in quick)
        self.busy_note = w.HTML()
        # units of the selected box
        self.units = w.SelectMultiple(options=[], rows=5, description=_("Units"),
                                      style={"description_width": "60px"}, layout=w.Layout(width="98%"))
        self.units.observe(self._units_changed, names="value")
        # the decision's actions
        # a fixed pool, relabelled: the guide's ring follows its buttons (a pool grown on demand lost the ring in
        # the browser: tests/test_rules_browser.py)
        self.quick = [self._button("", layout=w.Layout(width="auto", display="none")) for _ in range(QUICK_BUTTONS)]
        for button in self.quick:
            button.on_click(self._quick_clicked)
        self.quick_box = w.Box(self.quick, layout=w.Layout(display="flex", flex_flow="row wrap"))
        self.actions = w.Select(options=[], rows=8, layout=w.Layout(width="98%"), style={"description_width": "auto"})
        self.actions.observe(self._action_selected, names="value")
        self.play_selected = self._button(_("Play the selected action"), button_style="primary")
        self.play_selected.on_click(self._play_selected)
        # files: by download and upload always; by name in one games folder on the server (local use only)
        self.filename = w.Text(value="my-game.json", description=_("File"), style={"description_width": "auto"},
                               layout=w.Layout(width="230px"))
        self.save = self._button(_("Save"), _("save in the games folder under this name"))
        self.load = self._button(_("Load"), _("load this file of the games folder"))
        self.folder_note = w.HTML()
        self.server_files = w.VBox([w.HBox([self.filename, self.save, self.load]), self.folder_note])
        self.to_computer = self._button(_("Save to my computer"), _("download the game to this computer"))
        self.upload = w.FileUpload(accept=".json", multiple=False, description=_("Open a saved game"))
        self.download = w.HTML()
        self.file_status = w.HTML()  # the result of Save, Load and uploads, next to those controls
        self.save.on_click(self._save)
        self.load.on_click(self._load)
        self.to_computer.on_click(self._offer_download)
        self.upload.observe(self._uploaded, names="value")
        # new game
        self.scenario = w.Dropdown(options=[(_(SCENARIO_WORDS.get(sid, sid)), sid) for sid in BUILT_IN_SCENARIOS],
                                   value=session.game.scenario.id
                                   if session.game.scenario.id in BUILT_IN_SCENARIOS else "1861",
                                   description=_("Scenario"), layout=w.Layout(width="200px"))
        self.preset = w.Dropdown(options=[(_(PRESET_WORDS.get(p, p)), p) for p in PRESETS], value="basic",
                                 description=_("Rules"),
                                 layout=w.Layout(width="220px"))
        self.seed = w.IntText(value=1, description=_("Seed"), layout=w.Layout(width="150px"))
        self.new = self._button(_("New game"))
        self.new.on_click(self._new_game)
        # the log: oldest first, grouped by turn, half-turn and battle; its box opens on the newest lines
        self.log = LogBox()
        self.actions_heading, self.all_actions_heading, self.log_heading, self.files_heading = (
            w.HTML(), w.HTML(), w.HTML(), w.HTML())
        self._label_headings()

        self.widget = w.VBox([
            self.header, self.prompt, self.busy_note, self.status,
            w.HBox([self.union_player, self.confederate_player], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.undo, self.bot_move, self.bot_half]),
            self.dice_mode, self.dice_row,
            self.units,
            self.actions_heading,
            self.quick_box,
            self.all_actions_heading,
            self.actions, self.play_selected,
            self.log_heading, self.log,
            self.files_heading,
            self.server_files, w.HBox([self.to_computer, self.upload]), self.file_status, self.download,
            w.HBox([self.scenario, self.preset]), w.HBox([self.seed, self.new]),
        ], layout=w.Layout(width="100%"))
        # each part is drawn again when what it shows changed (a march: the header, the actions, the log)
        for part, names in ((self._draw_header, ["turn_text", "phasing", "side_to_move", "decision", "marches_left",
                                                 "dice_text", "army_max", "scenario"]),
                            (self._draw_prompt, ["prompt"]),
                            (self._draw_controls, ["side_to_move", "dice", "typed_dice", "union", "confederate"]),
                            (self._draw_units, ["selected", "selected_units", "decision", "position"]),
                            (self._draw_actions, ["legal", "selected", "selected_units", "position"]),
                            (self._draw_log, ["log_lines"])):
            session.observe(self._drawing_part(part, names), names=names)
        session.observe(self._show_status, names=["status", "status_kind"])
        session.observe(self._show_busy, names=["busy", "playing"])
        self.files = files if files is not None else GameFiles.from_environment()
        self._redraw()

    def _label_headings(self) -> None:
        self.actions.description = _("Legal actions")  # the list's label (WCAG 4.1.2), beside it
        self.actions_heading.value = f"<b style='font-size:15px'>{escape(_('Actions'))}</b>"
        self.all_actions_heading.value = (f"<span style='font-size:14px'>"
                                          f"{escape(_('All legal actions (selecting one shows its battle odds):'))}"
                                          "</span>")
        self.log_heading.value = (f"<b style='font-size:15px'>{escape(_('Game log'))}</b> "
                                  f"{escape(_('(oldest first; scroll up for earlier turns)'))}")
        self.files_heading.value = f"<b style='font-size:15px'>{escape(_('Files and new games'))}</b>"

    def relabel(self) -> None:
        """Say every label, tooltip and menu again in the current language (after ``ahd.set_language``); the
        values chosen stay. The game's own texts (prompt, actions, log) follow at the session's next refresh."""
        self._drawing = True  # new menu options are not the player's choice
        try:
            with self.widget.hold_sync():
                players = [(_(PLAYER_WORDS.get(p, p)), p) for p in PLAYERS]
                for menu, label in ((self.union_player, _("Union")), (self.confederate_player, _("Confederate"))):
                    value = menu.value
                    menu.options, menu.value, menu.description = players, value, label
                for button, label, tip in (
                        (self.bot_move, _("Let the bot move"), _("the bot of the side to move makes its decisions")),
                        (self.bot_half, _("Bot plays this half-turn"),
                         _("a bot plays the rest of this half-turn for the side to move (the heuristic bot for a "
                           "human side)")),
                        (self.undo, _("Undo"), _("take back the last decision")),
                        (self.play_selected, _("Play the selected action"), ""),
                        (self.save, _("Save"), _("save in the games folder under this name")),
                        (self.load, _("Load"), _("load this file of the games folder")),
                        (self.to_computer, _("Save to my computer"), _("download the game to this computer")),
                        (self.new, _("New game"), "")):
                    button.description, button.tooltip = label, tip or label
                dice = self.dice_mode.value
                self.dice_mode.options = [(_(label), value) for label, value in DICE_MODES]
                self.dice_mode.value = dice
                self.dice_mode.tooltips = [_("the computer rolls every die"),
                                           _("type in the dice of the sides people play; the computer rolls its own"),
                                           _("type in every die, the computer's too")]
                for value, button in enumerate(self.die_buttons, start=1):
                    button.tooltip = _("the die shows {value}").format(value=value)
                if self.roll_for_me is not None:
                    self.roll_for_me.description = self.roll_for_me.tooltip = _("Roll for me")
                self.units.description = _("Units")
                self.filename.description = _("File")
                self.upload.description = _("Open a saved game")
                for menu, options, label in (
                        (self.scenario, [(_(SCENARIO_WORDS.get(i, i)), i) for i in BUILT_IN_SCENARIOS], _("Scenario")),
                        (self.preset, [(_(PRESET_WORDS.get(i, i)), i) for i in PRESETS], _("Rules"))):
                    value = menu.value
                    menu.options, menu.value, menu.description = options, value, label
                self.seed.description = _("Seed")
                self._label_headings()
                self.files = self.files  # the games folder's note
                self.download.value = ""  # its words were in the old language; Save offers it again
                self._show_busy()
        finally:
            self._drawing = False
        self._redraw()

    @property
    def files(self) -> GameFiles:
        """Where Save and Load by name go: one games folder, or nowhere (a classroom server, where the
        file box and those buttons are hidden and only download and upload remain)."""
        return self._files

    @files.setter
    def files(self, files: GameFiles) -> None:
        self._files = files
        self.server_files.layout.display = "" if files.on_server else "none"
        self.folder_note.value = (f"<span style='font-size:13px'>"
                                  f"{escape(_('Games folder: {folder}').format(folder=files.folder))}</span>"
                                  if files.on_server else "")

    # ------------------------------------------------------------ callbacks
    def _dice_value(self) -> str:
        s = self.session
        return "auto" if s.game.dice != "manual" else "all" if s.typed_dice == "all" else "manual"

    def _dice_changed(self, change) -> None:
        if self._drawing:
            return
        if change["new"] != self._dice_value():
            self.session.set_dice(change["new"])

    def _file_feedback(self) -> None:
        """The result of a file gesture, shown next to the file controls (the top status line is far up)."""
        s = self.session
        colour = {"info": "#1b5e20", "refused": "#b71c1c", "error": "#b71c1c"}[s.status_kind]
        self.file_status.value = f"<div style='font-size:15px;color:{colour}'>{escape(s.status)}</div>"

    def _players_changed(self, change=None) -> None:
        if self._drawing:
            return
        self.session.set_players(self.union_player.value, self.confederate_player.value)
        self.session.play_computer()  # a side just given to the computer plays at once (paced in a kernel)

    def _units_changed(self, change) -> None:
        if self._drawing:  # the panel follows the session: not a gesture
            return
        wanted = set(change["new"])
        current = set(self.session.selected_units)
        for unit in sorted(wanted ^ current):
            self.session.toggle_unit(unit)

    def _quick_clicked(self, button: w.Button) -> None:
        index = getattr(button, "action_index", None)
        if index is not None:
            self.session.act_index(index)

    def _action_selected(self, change) -> None:
        if self._drawing:  # new options reset the selection: not the player's choice
            return
        index = change["new"]
        if index is not None and 0 <= index < len(self.session.legal_actions):
            self.session.consider(self.session.legal_actions[index])

    def _play_selected(self, _event=None) -> None:
        if self.actions.value is not None:
            self.session.act_index(self.actions.value)

    def _save(self, _event=None) -> None:
        if not self.files.on_server:  # never a server path in classroom mode, even if the button were shown
            return self._offer_download()
        self.session.save_to(self.files, self.filename.value)
        self._file_feedback()
        if self.session.status_kind == "info":
            self._offer_download(name=PurePosixPath(self.filename.value.replace("\\", "/")).name)

    def _load(self, _event=None) -> None:
        if self.files.on_server:
            self.session.load_from(self.files, self.filename.value)
            self._file_feedback()

    def _offer_download(self, _event=None, name: str | None = None) -> None:
        """A link that downloads the game to the player's computer (nothing is written on the server)."""
        game = self.session.game
        name = name or f"house-divided-{game.scenario.id}-turn-{game.turn.number}.json"
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "house-divided-game.json"
        data = base64.b64encode(self.session.to_json().encode()).decode()
        words = _("Download the saved game ({name})").format(name=name)
        # data-autodownload: the app's page starts the download at once (one click; the template's script),
        # and the link stays for a second try or where no such script runs (JupyterLab)
        self.download.value = (f"<a download='{escape(name)}' data-autodownload='1' href='data:application/json;base64,"
                               f"{data}' style='font-size:15px'>{escape(words)}</a>")

    def _uploaded(self, change) -> None:
        files = change["new"]
        if files:
            item = files[0] if isinstance(files, (list, tuple)) else next(iter(files.values()))
            self.session.load(bytes(item["content"]))  # a bad file: the loader's message, nothing changed
            self._file_feedback()
            self.upload.value = ()  # so that the same file can be chosen again

    def _new_game(self, _event=None) -> None:
        self.session.new_game(self.scenario.value, options=self.preset.value, seed=self.seed.value)

    # ------------------------------------------------------------ drawing
    def _show_status(self, change=None) -> None:
        s = self.session
        colour = {"info": "#1b5e20", "refused": "#b71c1c", "error": "#b71c1c"}[s.status_kind]
        self.status.value = f"<div style='font-size:15px;color:{colour};min-height:22px'>{escape(s.status)}</div>"

    def _show_busy(self, change=None) -> None:
        """While the computer plays: say so, and disable every control that would act on the game."""
        s = self.session
        self.busy_note.value = ("" if not s.busy else
                                "<div style='font-size:16px;background:#fff3c4;border:1px solid #b8860b;padding:4px'>"
                                + _("<b>The computer is playing</b> for the {side} side…").format(
                                    side=escape(s.playing)) + "</div>")
        for control in self.game_controls():
            control.disabled = s.busy

    def _button(self, description: str, tooltip: str = "", **kwargs) -> w.Button:
        kwargs.setdefault("layout", w.Layout(width="auto"))
        return w.Button(description=description, tooltip=tooltip or description, style=self.big, **kwargs)

    def _make_die_buttons(self) -> None:
        """The die row's buttons, made when dice are first typed in (most games never need them)."""
        session = self.session
        self.die_buttons = [self._button(str(v), _("the die shows {value}").format(value=v), disabled=session.busy)
                            for v in range(1, 7)]
        for value, button in enumerate(self.die_buttons, start=1):
            button.on_click(lambda _, v=value: session.roll(v))
        self.roll_for_me = self._button(_("Roll for me"), disabled=session.busy)
        self.roll_for_me.on_click(lambda _: session.roll())
        self.dice_row.children = (*self.die_buttons, self.roll_for_me)

    def game_controls(self) -> list[w.Widget]:
        """The controls that act on the game (disabled while the computer plays)."""
        return [*self.quick, self.actions, self.play_selected, self.units, self.undo, self.bot_move, self.bot_half,
                *self.die_buttons, *([self.roll_for_me] if self.roll_for_me else []), self.dice_mode]
        # the player menus stay: take a side back

    def _drawing_part(self, part, names: list[str] | None = None):
        """``part`` as an observer of the session's traits ``names``: drawn once for a burst of changes (an
        observer of several traits hears of each), and the menus it sets are not the player's choice."""
        last: list = [None]

        def draw(change=None) -> None:
            if names is not None:
                seen = tuple(_frozen(getattr(self.session, name)) for name in names)
                if seen == last[0]:
                    return
                last[0] = seen
            self._drawing = True
            try:
                with self.widget.hold_sync():
                    part()
            finally:
                self._drawing = False
        return draw

    def _redraw(self, change=None) -> None:
        """Draw every part again (a new panel, a new language)."""
        self._drawing_part(self._draw)()

    def _draw(self) -> None:
        for part in (self._draw_header, self._draw_prompt, self._show_status, self._draw_controls, self._draw_units,
                     self._draw_actions, self._draw_log):
            part()

    def _draw_header(self) -> None:
        s = self.session
        game = s.game
        army = s.army_max
        self.header.value = (
            f"<div style='font-size:16px;line-height:1.5'><b>{escape(s.turn_text)}</b> — "
            f"{escape(render(game.scenario.title_term))}<br>"
            + _("Half-turn: {side}").format(side=side_badge(s.phasing)) + " &nbsp; "
            + _("To decide: {side} ({decision})").format(side=side_badge(s.side_to_move),
                                                        decision=escape(render(decisions.label(s.decision)))) + "<br>"
            + _("Marches left: {n}").format(n=f"<b>{s.marches_left}</b>") + " &nbsp; "
            + _("Dice: {dice}").format(dice=escape(s.dice_text)) + "<br>"
            + _("Army maxima: Union {union}, Confederate {confederate}").format(
                union=f"<b>{army['union']}</b>", confederate=f"<b>{army['confederate']}</b>") + "</div>")

    def _draw_prompt(self) -> None:
        s = self.session
        self.prompt.value = f"<div style='font-size:16px;background:#eef3fb;padding:4px'>{escape(s.prompt)}</div>"

    def _draw_controls(self) -> None:
        s = self.session
        game = s.game
        chance = s.side_to_move == "chance"
        typed = chance and game.dice == "manual"
        if typed and not self.die_buttons:
            self._make_die_buttons()
        self.dice_row.layout.display = "flex" if typed else "none"
        bot_to_move = s.side_to_move in ("union", "confederate") and s.player_of(s.side_to_move) != "human"
        self.bot_move.layout.display = "" if bot_to_move else "none"
        if self.dice_mode.value != self._dice_value():
            self.dice_mode.value = self._dice_value()
        if (self.union_player.value, self.confederate_player.value) != (s.union, s.confederate):
            self.union_player.value, self.confederate_player.value = s.union, s.confederate

    def _draw_units(self) -> None:
        s = self.session
        game = s.game
        # units of the selected box (for marches)
        if s.selected and decisions.play(game) == decisions.MARCH:
            units = [u for u in game.units_in(s.selected, game.phasing)]
            self.units.options = [((_("{type} {id} (reduced)") if u.is_reduced else _("{type} {id}")).format(
                type=unit_type_name(u), id=u.id), u.id) for u in units]
            self.units.value = tuple(u for u in s.selected_units if u in {x.id for x in units})
            self.units.layout.display = ""
        else:
            self.units.options = []
            self.units.layout.display = "none"

    def _draw_actions(self) -> None:
        s = self.session
        game = s.game
        # quick buttons: the selected box's actions, else the actions the map cannot show (dice: the die row)
        legal = s.legal_actions
        if s.selected:
            wanted = [i for i, a in enumerate(legal) if a in s.actions_at(s.selected)]
            wanted += [i for i, a in enumerate(legal) if action_box(game, a) is None]
        else:
            wanted = [i for i, a in enumerate(legal) if action_box(game, a) is None]
        wanted = [i for i in wanted if not isinstance(legal[i], Roll)]
        for button, index in zip(self.quick, wanted + [None] * QUICK_BUTTONS):
            button.action_index = index
            if index is None:
                button.layout.display = "none"
            else:
                with button.hold_sync():  # one message for the label and the tooltip
                    button.description = s.legal[index][:60]
                    button.tooltip = s.legal[index]
                button.layout.display = ""
        self.actions.options = [(text, i) for i, text in enumerate(s.legal)]

    def _draw_log(self) -> None:
        s = self.session
        game = s.game
        self.log.show(with_plans(game.log, s.plans_said()))  # the bots' plans in their places
