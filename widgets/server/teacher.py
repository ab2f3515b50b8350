"""The teacher's pages of the classroom, behind the teacher's key (given once as ``?key=…``, then a cookie:
:func:`widgets.classmates.teacher_games.is_teacher`):

- ``/teacher``: the join link, the games running (kernels) and the stored games (Play a classmate);
- ``/teacher/join``: the page to project: the join link and its QR code, and nothing else (no key in its URL,
  no list of games).
"""
from __future__ import annotations

from jupyter_server.base.handlers import JupyterHandler
from traitlets import TraitError

from widgets.server.room_pages import projector_page, teacher_page, teacher_refused_page
from widgets.classmates.teacher_games import FORGET_KEY, games_section, is_teacher

try:
    from jupyter_server.auth.decorator import allow_unauthenticated
except ImportError:  # pragma: no cover
    def allow_unauthenticated(method):
        return method


def running_games(kernel_manager, shown=None) -> list[dict]:
    """The kernels the teacher's page lists: every running kernel (only those in ``shown``, when given), as its
    model. A kernel still starting (a warm kernel the pool is filling has no activity time yet, and jupyter_server
    cannot build its model) or one that ended meanwhile is no game yet or any more: it is left out, never a 500."""
    models = []
    for kernel_id in kernel_manager.list_kernel_ids():  # a copy: kernels may come and go meanwhile
        if shown is not None and kernel_id not in shown:
            continue
        try:
            models.append(kernel_manager.kernel_model(kernel_id))  # a new dict each call
        except (KeyError, TraitError):
            continue
    return models


class _Teacher(JupyterHandler):
    def check_xsrf_cookie(self):  # GET only, behind the teacher's own key
        return None

    def refused(self) -> bool:
        if is_teacher(self):
            self.set_header("Cache-Control", "no-store")
            return False
        self.set_status(403)
        self.finish(teacher_refused_page())
        return True


class TeacherHandler(_Teacher):
    """``/teacher``: the join URL, the games running and the class's stored games."""

    @allow_unauthenticated  # the teacher's own key is checked here
    async def get(self):
        if self.refused():
            return
        games = getattr(self.kernel_manager, "live_games", None)  # warm kernels waiting for a page are no game
        shown = games() if games is not None else None
        kernels = running_games(self.kernel_manager, shown)
        html = teacher_page(self.settings["ahd_state"], self.settings["ahd_join_url"], kernels)
        store = self.settings.get("ahd_store")
        if store is not None:  # Play a classmate: a page of the class's stored games, read off the loop
            from tornado.ioloop import IOLoop
            try:
                page = int(self.get_argument("page", "1"))
            except ValueError:
                page = 1
            section = await IOLoop.current().run_in_executor(None, games_section, store, "", page)
            html = html.replace("</main>", section + "</main>")
        if self.get_argument("key", ""):  # now in the cookie: out of the address bar
            html = html.replace("</main>", FORGET_KEY + "</main>")
        self.finish(html)


class ProjectorHandler(_Teacher):
    """``/teacher/join``: the join link and its QR code, for the projector."""

    @allow_unauthenticated  # the teacher's own key is checked here
    async def get(self):
        if self.refused():
            return
        html = projector_page(self.settings["ahd_join_url"])
        if self.get_argument("key", ""):
            html = html.replace("</main>", FORGET_KEY + "</main>")
        self.finish(html)
