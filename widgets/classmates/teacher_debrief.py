"""The debriefs on the teacher page (issue 35), behind the teacher's token like the rest of it:

- ``/teacher/game/ID/debrief``: one stored game's debrief (``ahd.analysis.debrief``), the same standalone
  page as ``house-divided report`` writes (``&download=1``: as a file to print or hand out);
- ``/teacher/summary``: the class summary of every stored game (who won and how often, when Richmond
  and Atlanta fell on average, the earliest and the latest, a chart; ``ahd.analysis.class_summary``).

Both are drawn on the server, in a worker thread (no kernel). A game's debrief is kept while its record does
not change (same number of actions), so a class summary of 30 games is built once, then only for the games
that moved. A student's token is refused (403).
"""
from __future__ import annotations

import threading
from html import escape

from ahd import AhdError
from ahd.analysis.class_summary import render_summary, summarize
from ahd.analysis.debrief import Debrief, debrief
from ahd.analysis.debrief_html import render_debrief

from widgets.model.i18n import _, get_language
from widgets.classmates.store import SIDES, Store, StoreError

_CACHE: dict[tuple[str, int, int], Debrief] = {}   # (store path, game id, actions) -> debrief without pictures
_LOCK = threading.Lock()
CACHE_SIZE = 200


def stored_debrief(store: Store, game_id: int, record: dict, *, snapshots: bool) -> Debrief:
    """The debrief of a stored game; without pictures, kept while the game does not change."""
    if snapshots:
        return debrief(record)
    key = (str(store.path), game_id, len(record.get("actions", ())))
    with _LOCK:
        if key in _CACHE:
            return _CACHE[key]
    made = debrief(record, snapshots=False)
    with _LOCK:
        if len(_CACHE) >= CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = made
    return made


def class_summary_page(store: Store, lang: str) -> str:
    """The summary page of every game in ``store`` (a damaged record is listed, not counted)."""
    lines = []
    for game in store.games():
        try:
            record = store.record(game.id)
        except StoreError as exc:
            lines.append((game.code, exc))
            continue
        name = f"{game.code} ({' – '.join(game.players[side] for side in SIDES if side in game.players)})"
        try:
            lines.append((name, stored_debrief(store, game.id, record, snapshots=False)))
        except AhdError as exc:
            lines.append((name, exc))
    made = [(name, d) for name, d in lines if isinstance(d, Debrief)]
    summary = summarize(made)
    bad = tuple((name, str(exc)) for name, exc in lines if not isinstance(exc, Debrief))
    if bad:
        from dataclasses import replace
        summary = replace(summary, problems=summary.problems + bad)
    return render_summary(summary, lang)


class DebriefPage:
    """One stored game's debrief page: a mixin over the teacher pages' handler (``teacher()``, ``store``,
    ``page``), which ``widgets.classmates.teacher_games`` gives to :func:`handlers` (this module does not import it)."""

    async def get(self, game_id: str):
        if self.teacher() is None:
            return
        from tornado.ioloop import IOLoop
        store, lang = self.store, get_language()

        def make() -> str:
            record = store.record(int(game_id))
            return render_debrief(stored_debrief(store, int(game_id), record, snapshots=True), lang)

        try:
            page = await IOLoop.current().run_in_executor(None, make)
        except (StoreError, AhdError) as exc:
            self.set_status(404 if isinstance(exc, StoreError) else 200)
            self.finish(self.page(_("{page} — A House Divided").format(page=_("Debrief")),
                                  f"<h1>{escape(_('Debrief'))}</h1><p>{escape(str(exc))}</p>"))
            return
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        if self.get_argument("download", ""):
            code = store.code_of(int(game_id))
            self.set_header("Content-Disposition", f'attachment; filename="debrief-{code}.html"')
        self.finish(page)


class SummaryPage:
    """The class summary across every stored game (a mixin, as :class:`DebriefPage`)."""

    async def get(self):
        if self.teacher() is None:
            return
        from tornado.ioloop import IOLoop
        store, lang = self.store, get_language()
        try:
            page = await IOLoop.current().run_in_executor(None, class_summary_page, store, lang)
        except StoreError as exc:
            self.finish(self.page(_("{page} — A House Divided").format(page=_("Class summary")),
                                  f"<p>{escape(str(exc))}</p>"))
            return
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(page)


def links(game_id: int | None = None) -> str:
    """The teacher page's links to the class summary (and to one game's debrief). They carry no key: the
    teacher's cookie opens them (widgets.classmates.teacher_games.is_teacher)."""
    parts = [f"<a id='ahd-class-summary' href='/teacher/summary'>{escape(_('Class summary'))}</a>"]
    if game_id is not None:
        parts.insert(0, f"<a class='ahd-debrief-link' href='/teacher/game/{game_id}/debrief'>"
                        f"{escape(_('Debrief'))}</a>")
    return " · ".join(parts)


def handlers(base: type, allow) -> list[tuple[str, type]]:
    """The routes, their handlers made over ``base`` (the teacher-only handler) with ``get`` wrapped by
    ``allow`` (jupyter_server's allow_unauthenticated: the teacher's own token is checked in ``get``)."""
    def made(name: str, page: type) -> type:
        return type(name, (page, base), {"get": allow(page.get)})
    return [(r"/teacher/game/(\d+)/debrief/?", made("DebriefHandler", DebriefPage)),
            (r"/teacher/summary/?", made("SummaryHandler", SummaryPage))]
