""""Play a classmate": the app's section that creates, joins and resumes a game kept in the classroom's
game store (:mod:`widgets.classmates.store`), and keeps the page in step with the classmate's moves.

- **Create**: a name, a side, a scenario, the dice (rolled by the computer, or typed in if both agree)
  → a game in the store, its 6-character join code and a QR code of the join link.
- **Join**: the classmate types the code (or opens the join link: ``?join=CODE``) and takes the other side.
- **Come back**: each player gets a personal link (``?player=CODE``) and code; opening it (next lesson,
  after a server restart) resumes the game where it was.

The session then plays a :class:`widgets.classmates.shared_game.Seat`: both sides are "human" for the session, the
store refuses the other side's decisions and lost races with a message, and a poll (an asyncio task on the
kernel's event loop, every ``interval`` seconds) applies the classmate's new moves and redraws everything.
"""
from __future__ import annotations

import asyncio
import logging
import os
import warnings
from html import escape
from pathlib import Path
from urllib.parse import parse_qs, urlencode

import ipywidgets as w

from ahd.core.errors import AhdError
from ahd.core.i18n import render
from ahd.core.scenario import BUILT_IN as BUILT_IN_SCENARIOS

from widgets.model.i18n import _
from widgets.model.session import Session
from widgets.classmates.store import CLASS_URL_ENV, STORE_ENV, JoinError, MovedFirst, Seat, Store, StoreError, pretty_code

log = logging.getLogger("widgets")
POLL_SECONDS = 0.4


def _in_kernel() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def _link(extra: dict[str, str]) -> str:
    """The class's join URL (token included) with ``extra`` query arguments; a relative one without it."""
    base = os.environ.get(CLASS_URL_ENV, "")
    if not base:
        return "?" + urlencode(extra)
    return base + ("&" if "?" in base else "?") + urlencode(extra)


def _qr_svg(url: str) -> str:
    try:
        import segno
    except ImportError:  # the app extra brings it; without it, the code and the link are enough
        return ""
    return segno.make(url, error="m").svg_inline(scale=3, title=_("QR code of the join link"))


class ClassmateSection:
    """The "Play a classmate" section of one page (``widget``), bound to its :class:`Session`."""

    def __init__(self, session: Session, store: Store | str | Path, *, query: str | None = None,
                 interval: float = POLL_SECONDS) -> None:
        self.session = session
        self.store = store if isinstance(store, Store) else Store(store)
        self.interval = interval
        self.seat: Seat | None = None
        self._task: asyncio.Task | None = None
        self._seen = -1
        self._waiting = False
        style = {"description_width": "70px"}
        self.name = w.Text(style=style, layout=w.Layout(width="260px"))
        self.side = w.ToggleButtons(value=None, style={"button_width": "110px"})
        self.scenario = w.Dropdown(options=list(BUILT_IN_SCENARIOS), value="1861", style=style,
                                   layout=w.Layout(width="200px"))
        self.dice = w.ToggleButtons(value=None, style={"button_width": "160px"})
        self.create_button = w.Button(button_style="primary")
        self.code = w.Text(style=style, layout=w.Layout(width="300px"))
        self.join_button = w.Button()
        self.resume_button = w.Button(layout=w.Layout(width="220px"))
        self.create_button.on_click(lambda _button: self.create())
        self.join_button.on_click(lambda _button: self.join(self.code.value))
        self.resume_button.on_click(lambda _button: self.resume(self.code.value))
        self.message = w.HTML()
        self.intro = w.HTML()
        self.lobby = w.VBox([
            self.intro,
            self.name,
            self.side, self.scenario, self.dice, self.create_button,
            w.HBox([self.code, self.join_button]), self.resume_button])
        self.info = w.HTML()
        self.leave_button = w.Button()
        self.leave_button.on_click(lambda _button: self.leave(_("You left the game; it stays stored: come back with "
                                                                "your personal link or code.")))
        self.in_game = w.VBox([self.info, self.leave_button], layout=w.Layout(display="none"))
        inner = w.VBox([self.message, self.lobby, self.in_game], layout=w.Layout(width="100%"))
        self.widget = w.Accordion(children=[inner], titles=("",), selected_index=None,
                                  layout=w.Layout(width="100%", flex="0 0 auto"))
        self.widget.add_class("ahd-classmate")
        self._label_widgets()
        self.side.value, self.dice.value = "union", "auto"
        self.follow_link(os.environ.get("QUERY_STRING", "") if query is None else query)

    def follow_link(self, query: str) -> None:
        """The page's link arguments: a personal link (``player=``) resumes its game, a join link (``join=``)
        fills in the code. (A warm kernel built its app before its page came: widgets.app.arrive.)"""
        args = parse_qs(query)
        if args.get("player"):
            self.resume(args["player"][0])
        elif args.get("join"):
            self.code.value = args["join"][0]
            self._say(_("Type your name and press <b>Join</b> to take the free side of this game."))

    def _label_widgets(self) -> None:
        """The section's words in the current language."""
        self.name.description, self.name.placeholder = _("Name"), _("e.g. Ann")
        side, dice = self.side.value, self.dice.value
        with self.side.hold_sync():
            self.side.options = [(_("Union"), "union"), (_("Confederate"), "confederate")]
            self.side.value = side
        self.scenario.description = _("Scenario")
        with self.dice.hold_sync():
            self.dice.options = [(_("Computer rolls"), "auto"), (_("Typed in (both agree)"), "manual")]
            self.dice.value = dice
        self.create_button.description = _("Create a game")
        self.code.description, self.code.placeholder = _("Code"), _("join code, or your personal code")
        self.join_button.description = _("Join")
        self.resume_button.description = _("Come back to my game")
        self.intro.value = ("<span style='font-size:14px'>" + escape(_(
            "Play against a classmate on another computer: one creates the game and reads out its code, the other "
            "types it here.")) + "</span>")
        self.leave_button.description = _("Leave this game (it stays stored)")
        self.widget.titles = (_("Play a classmate"),)

    def relabel(self) -> None:
        """Say the section again in the current language (after ``set_language``); the last message stays."""
        self._label_widgets()
        self._show_game()

    # ------------------------------------------------------------ gestures
    def create(self) -> None:
        try:
            seat = self.store.create(side=self.side.value, name=self.name.value, scenario=self.scenario.value,
                                     dice=self.dice.value)
        except AhdError as exc:
            return self._say(_("Cannot create the game: {reason}").format(reason=escape(str(exc))), error=True)
        self._take(seat, _("New {scenario} game: give your classmate the code {code}.").format(
            scenario=seat.game.scenario.id, code=seat.code))

    def join(self, code: str) -> None:
        try:
            seat = self.store.join(code, self.name.value)
        except (JoinError, StoreError) as exc:
            return self._say(_("Cannot join: {reason}.").format(reason=escape(str(exc))), error=True)
        self._take(seat, _("You joined {opponent}'s game: you play the {side} side.").format(
            opponent=self._opponent(seat), side=render(seat.side)))

    def resume(self, token: str) -> None:
        try:
            seat = self.store.resume(token)
        except (JoinError, StoreError) as exc:
            return self._say(_("Cannot come back to the game: {reason}.").format(reason=escape(str(exc))), error=True)
        self._take(seat, _("Welcome back, {name}: your game against {opponent} is where it was ({turn}).").format(
            name=seat.name, opponent=self._opponent(seat), turn=render(seat.game.turn)))

    def leave(self, text: str = "") -> None:
        self._stop_polling()
        self.seat = None
        self.lobby.layout.display = ""
        self.in_game.layout.display = "none"
        self._say(escape(text))

    # ------------------------------------------------------------ keeping in step
    def sync(self) -> int:
        """Apply the classmate's (or another tab's) new moves to this page; returns how many."""
        seat = self.seat
        if seat is None:
            return 0
        session = self.session
        if session.table is not seat:  # the player started or loaded another game in the panel
            self.leave(_("You are playing another game now; the game with your classmate stays stored: come back "
                         "with your personal link or code."))
            return 0
        try:
            moves = seat.changes()
        except StoreError as exc:
            self._say(escape(str(exc)), error=True)
            return 0
        conflict, seat.conflict = seat.conflict, None
        if self._waiting and seat.opponent:  # the classmate has joined
            self._waiting = False
            self._show_game()
            _redraw(session, _("{opponent} has joined: you play the {side} side.").format(
                opponent=seat.opponent, side=render(seat.side)))
        if not moves and conflict is None and seat.revision == self._seen:
            return 0
        self._seen = seat.revision
        theirs = [action for action, side in moves if side != seat.side.value]
        if conflict is not None:
            text = f"{str(conflict)[0].upper()}{str(conflict)[1:]}."
        elif theirs:
            text = (_("{opponent} played: {action}").format(opponent=self._opponent(seat), action=theirs[-1])
                    if len(theirs) == 1 else
                    _("{opponent} played {n} decisions, the last: {action}").format(
                        opponent=self._opponent(seat), n=len(theirs), action=theirs[-1]))
        elif moves:
            text = _("Your moves from another tab are on the board.")
        else:
            text = ""
        _redraw(session, text)
        self._show_game()
        return len(moves)

    def start_polling(self) -> bool:
        """Poll the store on the kernel's event loop (True if a loop runs: a kernel's always does)."""
        self._stop_polling()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a kernel's loop runs while its cells and comm handlers do; a script has none
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    loop = asyncio.get_event_loop()
            except RuntimeError:
                return False
            if not loop.is_running() and not _in_kernel():
                return False  # a script: no poll (call sync() yourself); a kernel runs its loop later
        seat = self.seat
        self._task = loop.create_task(self._poll(seat))
        return True

    async def _poll(self, seat: Seat) -> None:
        while self.seat is seat:
            await asyncio.sleep(self.interval)
            if self.seat is not seat:
                break
            try:
                self.sync()
            except Exception:  # a bug: logged, the poll goes on
                log.exception("error while polling the game store")

    def _stop_polling(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    # ------------------------------------------------------------ showing
    def _take(self, seat: Seat, text: str) -> None:
        self._stop_polling()
        self.seat = seat
        self._seen = seat.revision
        self._waiting = seat.opponent is None
        self.session.set_players("human", "human")  # both sides people: the store refuses the other side's
        self.session.sit_at(seat, text)              # decisions; the session plays at the seat from now on
        self.lobby.layout.display = "none"
        self.in_game.layout.display = ""
        self._say(escape(text))  # kept here too: the app's first bot_step clears the status line
        self._show_game()
        self.start_polling()

    def _opponent(self, seat: Seat) -> str:
        return seat.opponent or _("your classmate")

    def _show_game(self) -> None:
        seat = self.seat
        if seat is None:
            return
        opponent = seat.opponent
        join = _link({"join": seat.code})
        mine = _link({"player": seat.token})
        waiting = "" if opponent else (
            "<p style='margin:4px 0'>" + _(
                "Waiting for your classmate: they type the code {code} in their &quot;{section}&quot;, or open "
                "{link_start}the join link{link_end}.").format(
                code=f"<b id='ahd-join-code' style='font-size:22px;letter-spacing:3px'>{escape(seat.code)}</b>",
                section=escape(_("Play a classmate")),
                link_start=f"<a href='{escape(join)}' target='_blank'>", link_end="</a>")
            + f"</p>{_qr_svg(join)}")
        side = f"<b>{escape(render(seat.side))}</b>"
        name = escape(seat.name)
        who = (_("<b>You</b> ({name}) play the {side} side against {opponent}.").format(
                   name=name, side=side, opponent=f"<b>{escape(opponent)}</b>") if opponent else
               _("<b>You</b> ({name}) play the {side} side.").format(name=name, side=side))
        game = _("Game {code}, {seq} recorded actions; dice rolled by the computer.") if seat.game.dice == "auto" else \
            _("Game {code}, {seq} recorded actions; dice typed in, each side its own.")
        self.info.value = (
            "<div style='font-size:14px;line-height:1.4'>" + who + " "
            + game.format(code=f"<span id='ahd-game-code'>{escape(seat.code)}</span>",
                          seq=f"<span id='ahd-game-seq'>{seat.seq}</span>")
            + waiting + "<br>"
            + _("To come back later (next lesson, another computer): your personal code {code} or "
                "{link_start}your personal link{link_end} (bookmark it; keep it to yourself: it plays your side).").format(
                code=f"<b id='ahd-player-code'>{escape(pretty_code(seat.token))}</b>",
                link_start=f"<a id='ahd-player-link' href='{escape(mine)}'>", link_end="</a>")
            + "</div>")

    def _say(self, html: str, error: bool = False) -> None:
        if html or self.seat is not None:
            self.widget.selected_index = 0  # open the section: there is something to read
        colour = "#b71c1c" if error else "#1b5e20"
        self.message.value = f"<div style='font-size:14px;color:{colour}'>{html}</div>" if html else ""


# ---------------------------------------------------------------- the session (widgets.model.session)
def _redraw(session: Session, text: str) -> None:
    """The game changed outside the session's gestures (a classmate's moves): redraw map, panel, charts."""
    session.table_changed(text)


def follow_link(session: Session, query: str) -> None:
    """The page's link arguments for the session's "Play a classmate" section, if it has one."""
    section = session.classmate
    if isinstance(section, ClassmateSection):
        section.follow_link(query)


def classmate_section(session: Session) -> w.Widget | None:
    """The section for the app, or None when no game store is configured (``AHD_STORE``, set by
    ``house-divided classroom``). A store that cannot be opened is shown as a message."""
    path = os.environ.get(STORE_ENV, "")
    if not path:
        return None
    try:
        section = ClassmateSection(session, path)
    except StoreError as exc:
        return w.HTML("<div style='color:#b71c1c'>" + _("Play a classmate is not available: {reason}").format(
            reason=escape(str(exc))) + "</div>")
    session.classmate = section  # kept alive with the session
    return section.widget
