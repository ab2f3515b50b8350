"""A session's files: save and load a game (a path, a file's text, or by name in one games folder), start a new
one; and :class:`GameFiles`, the one folder the panel may use on the server (none on a classroom server)."""
from __future__ import annotations

import os
from typing import Any
from pathlib import Path, PurePosixPath, PureWindowsPath

import ahd
from ahd import Game
from ahd.core.errors import AhdError

from widgets.model.guard import guarded
from widgets.model.i18n import _


class SessionFiles:
    """Saving, loading and new games of a :class:`widgets.model.session.Session` (a mixin)."""

    @guarded
    def save(self, path: str | Path) -> None:
        self.game.save(path)
        self._inform(lambda: _("Saved to {path}.").format(path=path))

    @guarded
    def save_to(self, files: GameFiles, name: str) -> None:
        """Save as ``name`` in the games folder of ``files`` (a name leading outside it is refused)."""
        path = files.path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.game.save(path)
        self._inform(lambda: _("Saved to {path}.").format(path=path))

    @guarded
    def load_from(self, files: GameFiles, name: str) -> None:
        """Load ``name`` from the games folder of ``files`` (a name leading outside it is refused)."""
        self._load_game(ahd.load(files.path(name)))

    def to_json(self) -> str:
        return self.game.to_json()

    @guarded
    def load(self, path_or_text: str | Path | bytes) -> None:
        """Load a saved game from a path or from the file's text (a bad file is explained, not raised)."""
        if isinstance(path_or_text, bytes) or (isinstance(path_or_text, str) and path_or_text.lstrip().startswith("{")):
            game = Game.from_json(path_or_text)
        else:
            game = ahd.load(path_or_text)
        self._load_game(game)

    def _load_game(self, game: Game) -> None:
        self._stop_computer()
        self.game = game
        self._marks = []
        self._plan_lines, self._bot_plans = [], {}
        self._select("")
        self._rebuild_timeline()
        turn = game.turn
        self._inform(lambda: _("Loaded a {scenario} game at {turn}.").format(scenario=game.scenario.id, turn=turn))
        self._after_change(run_bots=False)

    @guarded
    def new_game(self, scenario: str = "1861", options: Any = None, seed: int | None = None) -> None:
        self._stop_computer()
        self.game = ahd.new_game(scenario, options=options, seed=seed, dice=self.dice)
        self._marks = []
        self._plan_lines, self._bot_plans = [], {}
        self._select("")
        self._rebuild_timeline()
        self._inform(lambda: _("New {scenario} game.").format(scenario=scenario))
        self._after_change()


# ====================================================================== files on the server
#: Set by ``house-divided classroom`` for its kernels: the panel reads and writes no file on the server.
CLASSROOM_ENV = "AHD_CLASSROOM"
#: Set by ``house-divided app --games DIR``: the one folder the panel saves to and loads from.
GAMES_ENV = "AHD_GAMES_DIR"
DEFAULT_GAMES = "house-divided-games"  # in the home folder


class GameFiles:
    """Where the panel may save and load games by name: inside one ``folder`` (local use), or nowhere
    (``folder=None``, a classroom server: games go to the student's own computer by download and come
    back by upload)."""

    def __init__(self, folder: str | Path | None) -> None:
        self.folder = None if folder is None else Path(folder).expanduser()

    @classmethod
    def from_environment(cls) -> GameFiles:
        if os.environ.get(CLASSROOM_ENV, "") not in ("", "0"):
            return cls(None)
        return cls(os.environ.get(GAMES_ENV) or Path.home() / DEFAULT_GAMES)

    @property
    def on_server(self) -> bool:
        return self.folder is not None

    def path(self, name: str) -> Path:
        """The file ``name`` of the games folder. An absolute path, ``..``, ``~`` or a link leading out of
        the folder is refused with an :class:`AhdError` that says so."""
        if self.folder is None:
            raise AhdError(_("this server keeps no files: use \"Save to my computer\" and \"Open a saved game\""))
        name = (name or "").strip()
        folder = self.folder.resolve()
        if not name:
            raise AhdError(_("give the file a name (it is kept in the games folder {folder})").format(folder=folder))
        posix = PurePosixPath(name.replace("\\", "/"))
        if posix.is_absolute() or PureWindowsPath(name).drive or name.startswith("~"):
            raise AhdError(_("{name} is a path: give only a file name; games are kept in the games folder "
                             "{folder}").format(name=repr(name), folder=folder))
        if ".." in posix.parts:
            raise AhdError(_("{name} leads out of the games folder {folder}: '..' is not allowed").format(
                name=repr(name), folder=folder))
        target = folder.joinpath(*posix.parts)
        resolved = target.resolve()  # follows links
        if resolved != folder and folder not in resolved.parents:
            raise AhdError(_("{name} is a link leading out of the games folder {folder}").format(
                name=repr(name), folder=folder))
        if resolved == folder:
            raise AhdError(_("{name} is the games folder itself: give a file name").format(name=repr(name)))
        return target
