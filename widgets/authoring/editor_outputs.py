"""What the scenario editor makes of a scenario: a file to download, a published app as a zip, a game against
the computer, a balance study."""
from __future__ import annotations

import atexit
import base64
import json
import re
import shutil
import tempfile
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as w

import ahd
from ahd.core.errors import AhdError
from ahd.core.sides import Side

from widgets.model.i18n import _, _n, pct
from widgets.model.computer import PLAYER_WORDS
from widgets.authoring.editor_words import SIDE_NAMES, _side_key


class EditorOutputs:
    """Saving, publishing, playing and studying the scenario of an :class:`widgets.authoring.editor.Editor` (a mixin)."""

    # ------------------------------------------------------------ save, publish
    def file_name(self, suffix: str = ".json") -> str:
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", str(self._data.get("id", "scenario"))).strip("-.") or "scenario"
        return name + suffix

    def offer_download(self) -> str:
        """A link that downloads the scenario file (nothing is written on the server); returns its HTML."""
        text = json.dumps(self.to_scenario(), indent=1, ensure_ascii=False) + "\n"
        data = base64.b64encode(text.encode("utf-8")).decode()
        name = self.file_name()
        warning = "" if self.valid else " " + escape(_("(it does not load yet: see the problems)"))
        link = escape(_("Download the scenario ({file})").format(file=name))
        self.download.value = (f"<a download='{escape(name)}' data-autodownload='1' href='data:application/json;base64,{data}' "
                               f"style='font-size:15px'>{link}</a>{warning}")
        return self.download.value

    def publish_zip(self, folder: str | Path | None = None) -> Path | None:
        """``widgets.authoring.publish.publish`` into a temporary folder, zipped (into ``folder`` or a temporary one) and
        offered as a download link; returns the zip's path (None, with the loader's message, if refused)."""
        from widgets.authoring.publish import publish
        work = Path(tempfile.mkdtemp(prefix="ahd-publish-"))
        name = self.file_name("")
        try:
            app = publish(self.to_scenario(), work / name)
        except AhdError as exc:
            self._say(_("Not published: {error}").format(error=exc), error=True)
            shutil.rmtree(work, ignore_errors=True)
            return None
        out = Path(folder) if folder is not None else work
        archive = Path(shutil.make_archive(str(out / name), "zip", root_dir=app.parent, base_dir=app.name))
        if folder is not None:
            shutil.rmtree(work, ignore_errors=True)  # the zip, in the caller's folder, is what is offered
        else:
            shutil.rmtree(app, ignore_errors=True)  # the zip is what is offered; it goes with the kernel
            atexit.register(shutil.rmtree, work, ignore_errors=True)
        data = base64.b64encode(archive.read_bytes()).decode()
        link = _("Download the published app ({file}, {size} KB)").format(file=archive.name,
                                                                         size=archive.stat().st_size // 1024 + 1)
        self.publish_link.value = (f"<a download='{escape(archive.name)}' href='data:application/zip;base64,{data}' "
                                   f"style='font-size:15px'>{escape(link)}</a>")
        self._say(_("Published: {file} (serve it with voila, Binder or JupyterHub: see its README).").format(
            file=archive.name))
        return archive

    # ------------------------------------------------------------ test it
    def play(self, union: str | None = None, confederate: str | None = None, seed: int | None = 1, **kwargs: Any):
        """Open the scenario in the game app (in place of the editor; "Back to the editor" returns)."""
        if not self.valid:
            self._say(_("Fix the problems first: the scenario does not load."), error=True)
            return None
        from widgets.app import play
        self.app = play(self.to_scenario(), union=union or self.union_player.value,
                        confederate=confederate or self.confederate_player.value, seed=seed, **kwargs)
        title = escape(str(self._data.get("title", "")))
        self.editing.layout.display = "none"
        self.play_area.layout.display = None  # shown before the app arrives: its charts measure their size
        self.play_area.children = [w.HBox([self.back_button, w.HTML("<b style='font-size:16px'>{}</b>".format(
                                       _("Playing: {title}").format(title=title)))]),
                                   self.app]
        return self.app

    def close_play(self) -> None:
        self.app = None
        self.play_area.children = []
        self.play_area.layout.display = "none"
        self.editing.layout.display = None

    def balance(self, games: int | None = None, union: str | None = None, confederate: str | None = None,
                seed: int = 0):
        """A quick study: ``games`` games between computer players (``ahd.simulate``), with the progress bar;
        shows who wins how often with 95% (Wilson) intervals and returns the results."""
        if not self.valid:
            self._say(_("Fix the problems first: the scenario does not load."), error=True)
            return None
        games = games or self.games.value
        union, confederate = union or self.union_bot.value, confederate or self.confederate_bot.value
        self.balance_button.disabled = True
        self.balance_html.value = "<div style='font-size:15px'>{}</div>".format(
            escape(_n("Playing {n} game…", "Playing {n} games…", games).format(n=games)))
        try:
            self.progress.start(games)
            results = ahd.simulate(games, scenario=self.to_scenario(), union=union, confederate=confederate,
                                   seed=seed, chunk=1, progress=self.progress)
        finally:
            self.balance_button.disabled = False
        rows = []
        for side in Side:
            rate, low, high = results.win_rate(side)
            bot = union if side is Side.UNION else confederate
            rows.append(f"<tr><td>{escape(_(SIDE_NAMES[side.value]))} ({escape(_(PLAYER_WORDS.get(bot, bot)))})</td>"
                        f"<td style='text-align:right'><b>{pct(rate, 0)}</b></td><td>"
                        + escape(_("95% interval {low}–{high}").format(low=pct(low, 0), high=pct(high, 0))) + "</td></tr>")
        draws = sum(1 for r in results.rows if r.winner is None)
        endings = "; ".join(_("{winner} by {rule}: {n}").format(
            winner=_("draw") if winner is None else _side_key(winner), rule=rule, n=n)
            for (winner, rule), n in results.endings().items())
        heading = _n("<b>{n} game</b> (seed {seed})", "<b>{n} games</b> (seed {seed})", len(results)).format(
            n=len(results), seed=seed)
        no_winner = _("No winner: {n}. ").format(n=draws) if draws else ""
        ended = _("How they ended: {endings}").format(endings=endings)  # not inside an f-string: extracted
        self.balance_html.value = (f"<div style='font-size:15px'>{heading}"
                                   f"<table cellpadding='3'>{''.join(rows)}</table>"
                                   f"{escape(no_winner)}{escape(ended)}"
                                   f"</div>")
        self.results = results
        return results
