"""The teacher's view of the class's stored games (Play a classmate), behind the teacher's token (given once
as ``?key=…``, then kept in a cookie: :func:`is_teacher`; no link carries it):

- ``/teacher`` lists every game (added to the classroom's teacher page by :func:`games_section`):
  players, scenario, turn, army maxima, whose move, last activity;
- ``/teacher/game/ID`` shows one game read-only: the board as it stands now (``Game._repr_svg_``,
  drawn on the server: no kernel), the players and the end of the log; ``?format=json`` downloads its record;
- ``/teacher/records.zip`` downloads every record (JSON files in one zip);
- each game's debrief and the class summary (``widgets.classmates.teacher_debrief``).

A student's token is refused (403) on all of them.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from functools import lru_cache
from html import escape
from typing import Callable

from jupyter_server.base.handlers import JupyterHandler

from ahd.core import decisions
from ahd.core.i18n import render
from ahd.core.sides import Side

from widgets.model.i18n import _, _n, get_language, moment
from widgets.classmates.store import SIDES, Store, StoreError
from widgets.classmates import teacher_debrief


def _when(seconds: float) -> str:
    ago = time.time() - seconds
    if ago < 90:
        return _("{seconds:.0f} s ago").format(seconds=max(0, ago))
    if ago < 5400:
        return _("{minutes:.0f} min ago").format(minutes=ago / 60)
    return moment(seconds)


def _turn(text: str) -> str:
    """A stored turn ("Turn 3 (September 1861)", written in English) in the current language."""
    from ahd.core.calendar import LAST_TURN, Turn

    found = re.match(r"Turn (\d+) \(", text or "")
    if found and 1 <= int(found.group(1)) <= LAST_TURN:
        return str(Turn.of(int(found.group(1))))
    return text


def _side(side: str) -> str:
    """A side's name on its own, as the app's panel says it."""
    return _("Union") if Side.parse(side) is Side.UNION else _("Confederate")


def _outcome(store: Store, row) -> str:
    """A finished game's result in the current language (the store keeps it in English, for any page): said
    again from the game's record, which the store holds."""
    if not row.outcome:
        return ""
    return _said_outcome(store, row.id, row.seq, get_language()) or row.outcome


@lru_cache(maxsize=256)
def _said_outcome(store: Store, game_id: int, seq: int, lang: str) -> str:
    try:
        game = store.replay(game_id)
    except Exception:  # a record the engine refuses: the stored (English) result is shown
        return ""
    return render(game.outcome, lang) if game.outcome else ""


def _to_move(text: str) -> str:
    """A stored side to move ("union", "confederate (die)", "over") in the current language."""
    side, _space, die = (text or "").partition(" ")
    if side in SIDES:
        said = _side(side)
        return _("{side} (die)").format(side=said) if die else said
    return _("over") if text == "over" else text


#: The teacher's cookie (signed, HttpOnly, SameSite=Strict, only under /teacher): set when the key comes in a
#: URL, so that the pages teachers project never show the key (docs/security.md, finding 6).
TEACHER_COOKIE = "ahd-teacher"


def is_teacher(handler) -> bool:
    """True if the request carries the teacher's key (``?key=``: the cookie is set then) or the cookie."""
    expected = handler.settings["ahd_state"].options.teacher_token
    if not expected:
        return False
    mark = hashlib.sha256(b"ahd-teacher:" + expected.encode()).hexdigest()  # dies with the key
    given = handler.get_argument("key", "")
    if given:
        if not hmac.compare_digest(given.encode(), expected.encode()):
            return False
        secure = handler.request.protocol == "https" or bool(handler.settings.get("xsrf_cookie_kwargs", {}).get("secure"))
        handler.set_signed_cookie(TEACHER_COOKIE, mark, expires_days=1, httponly=True, samesite="Strict",
                                  secure=secure, path="/teacher")
        return True
    value = handler.get_signed_cookie(TEACHER_COOKIE, max_age_days=1)
    return value is not None and hmac.compare_digest(value, mark.encode())


#: A script that takes the key out of the address bar (and the history) once it is in the cookie.
FORGET_KEY = "<script>history.replaceState(null, '', location.pathname);</script>"


#: Stored games a page of the teacher's list shows (the most recently active first).
PAGE_SIZE = 50


def games_section(store: Store, key: str = "", page: int = 1) -> str:
    """One page of the list of stored games, for the teacher page (its links carry no key: the cookie does).
    Reads the store: the teacher page calls it off the server's loop."""
    try:
        total = store.game_count()
        pages = max(1, -(-total // PAGE_SIZE))
        page = min(max(1, page), pages)
        games = store.games(PAGE_SIZE, (page - 1) * PAGE_SIZE)
    except StoreError as exc:
        return f"<h2>{escape(_('Games against a classmate'))}</h2><p style='color:#b71c1c'>{escape(str(exc))}</p>"
    rows = "".join(
        f"<tr class='ahd-stored-game'><td><a href='/teacher/game/{g.id}'>{escape(g.code)}</a></td>"
        + "".join(f"<td>{escape(g.players.get(side, '—'))}</td>" for side in SIDES)
        + f"<td>{escape(g.scenario)}</td><td>{escape(_turn(g.turn))}</td><td>{g.union_max} / {g.confederate_max}</td>"
        f"<td>{escape(_outcome(store, g) or _to_move(g.to_move))}</td><td>{g.seq}</td><td>{_when(g.last_activity)}</td>"
        f"<td><a class='ahd-debrief-link' href='/teacher/game/{g.id}/debrief'>{escape(_('Debrief'))}</a></td></tr>"
        for g in games)
    stored = escape(_n("{n} stored game in {path}.", "{n} stored games in {path}.", total), quote=False).format(
        n=f"<b>{total}</b>", path=f"<code>{escape(str(store.path))}</code>")
    pager = ""
    if pages > 1:
        # TRANSLATORS: the teacher's list of stored games, 50 to a page
        pager = escape(_("Page {page} of {pages}.").format(page=page, pages=pages))
        if page > 1:
            pager += f" <a href='/teacher?page={page - 1}'>{escape(_('More recent games'))}</a>"
        if page < pages:
            pager += f" <a href='/teacher?page={page + 1}'>{escape(_('Older games'))}</a>"
        pager = f"<p id='ahd-games-pages'>{pager}</p>"
    # TRANSLATORS: {link} and {end} wrap "Download all records" in a link
    download = escape(_("{link}Download all records{end} (a zip of JSON game records)."), quote=False).format(
        link=f"<a id='ahd-records-zip' href='/teacher/records.zip'>", end="</a>")
    heads = (_("game"), _side("union"), _side("confederate"), _("scenario"), _("turn"), _("army max U / C"),
             _("to move"), _("actions"), _("last activity"), _("Debrief"))
    return (f"<h2>{escape(_('Games against a classmate'))}</h2><p id='ahd-stored-games'>{stored} {download} "
            f"{teacher_debrief.links()}</p>"
            f"{pager}<table><tr>{''.join(f'<th>{escape(h)}</th>' for h in heads)}</tr>{rows}</table>{pager}")


class _TeacherOnly(JupyterHandler):
    """``page(title, body, refresh=None)``: the classroom's page maker (given by widgets.server.classroom, which
    imports this module: no import back)."""

    def initialize(self, page: Callable[..., str]) -> None:
        self.page = page

    def check_xsrf_cookie(self):
        return None

    def teacher(self) -> str | None:
        """An empty string (no key to put in links) for the teacher; else None, the 403 page having been sent."""
        page = self.page
        if is_teacher(self) and self.store is not None:
            return ""
        self.set_status(403)
        title = _("Teacher page")
        text = escape(_("This page needs the teacher link printed by {command} in its terminal."),
                      quote=False).format(command="<code>house-divided classroom</code>")
        self.finish(page(_("{page} — A House Divided").format(page=title), f"<h1>{escape(title)}</h1><p>{text}</p>"))
        return None

    @property
    def store(self) -> Store | None:
        return self.settings.get("ahd_store")


def _allow(method):
    try:
        from jupyter_server.auth.decorator import allow_unauthenticated
    except ImportError:  # pragma: no cover
        return method
    return allow_unauthenticated(method)


class GameHandler(_TeacherOnly):
    """One stored game, read-only: its board now, players, the end of its log; or its record as JSON."""

    @_allow  # the teacher's own token is checked here
    async def get(self, game_id: str):
        key = self.teacher()
        if key is None:
            return
        from tornado.ioloop import IOLoop
        page = self.page
        store = self.store
        try:
            record = await IOLoop.current().run_in_executor(None, store.record, int(game_id))
        except StoreError as exc:
            self.set_status(404)
            self.finish(page(_("{page} — A House Divided").format(page=_("Game")),
                             f"<h1>{escape(_('No such game'))}</h1><p>{escape(str(exc))}</p>"))
            return
        self.set_header("Cache-Control", "no-store")
        if self.get_argument("format", "") == "json":
            code = store.code_of(int(game_id))
            self.set_header("Content-Type", "application/json")
            self.set_header("Content-Disposition", f'attachment; filename="{code}.json"')
            self.finish(json.dumps(record))
            return

        def draw():
            from ahd import Game
            game = Game.from_dict(record)
            return game, game._repr_svg_()

        try:
            game, svg = await IOLoop.current().run_in_executor(None, draw)
        except Exception as exc:  # a record the engine refuses: said, not raised
            self.finish(page(_("{page} — A House Divided").format(page=_("Game")),
                             f"<h1>{escape(_('Game {code}').format(code=game_id))}</h1><p>"
                             f"{escape(_('It cannot be shown: {error}').format(error=exc))}</p>"))
            return
        players = store.players(int(game_id))
        code = store.code_of(int(game_id))
        log = "".join(f"<li>{escape(str(event))}</li>" for event in game.log[-40:])
        who = f" {escape(_('vs'))} ".join(f"{escape(players.get(s, '—'))} ({escape(_side(s))})"
                                     for s in SIDES)
        state = str(game.outcome) if game.outcome else _("{turn}, {side} half-turn, {decision}").format(
            turn=game.turn, side=render(game.phasing),
            decision=render(decisions.label(game.decision)))
        facts = _("army maxima Union {union}, Confederate {confederate}; {n} recorded actions.").format(
            union=game.army_max("union"), confederate=game.army_max("confederate"), n=len(record["actions"]))
        # TRANSLATORS: {link} and {end} wrap "Download this record" in a link; {replay} is widgets.ReplayApp
        download = escape(_("{link}Download this record{end} (open it in the app or {replay} to step through it)"),
                          quote=False).format(link="<a href='?format=json'>", end="</a>",
                                              replay="<code>widgets.ReplayApp</code>")
        title = _("Game {code}").format(code=code)
        body = (f"<h1 id='ahd-teacher-game'>{escape(title)}</h1><p>{who}<br>{escape(game.scenario.id)}; "
                f"{escape(state)}; {escape(facts, quote=False)}</p>"
                f"<p>{download} · {teacher_debrief.links(int(game_id))} · "
                f"<a href='/teacher'>{escape(_('All games'))}</a></p>"
                f"<div style='max-width:100%;overflow:auto'>{svg}</div>"
                f"<h2>{escape(_('The end of the log'))}</h2><ol start='{max(1, len(game.log) - 39)}'>{log}</ol>"
                f"<p>{escape(_('Read-only: this page shows the game as it is stored; it refreshes every 10 seconds.'))}"
                f"</p>")
        html = page(_("{page} — A House Divided").format(page=title), body, refresh=10).replace(
            "max-width: 42em", "max-width: 90em")
        if self.get_argument("key", ""):
            html = html.replace("</main>", FORGET_KEY + "</main>")
        self.finish(html)


class RecordsHandler(_TeacherOnly):
    """Every stored record, as JSON files in one zip."""

    @_allow  # the teacher's own token is checked here
    async def get(self):
        if self.teacher() is None:
            return
        from tornado.ioloop import IOLoop
        data = await IOLoop.current().run_in_executor(None, self.store.records_zip)
        self.set_header("Content-Type", "application/zip")
        self.set_header("Content-Disposition",
                        f'attachment; filename="house-divided-games-{time.strftime("%Y-%m-%d")}.zip"')
        self.set_header("Cache-Control", "no-store")
        self.finish(data)


def handlers() -> list[tuple[str, type]]:
    return [(r"/teacher/game/(\d+)/?", GameHandler), (r"/teacher/records\.zip", RecordsHandler),
            *teacher_debrief.handlers(_TeacherOnly, _allow)]
