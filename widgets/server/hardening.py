"""What every route of our servers shares: error pages that render (no traceback in the log), a logout that
works, and the Content-Security-Policy (docs/security.md, finding 6).

jupyter_server's ``JupyterHandler.write_error`` renders its own error templates, which do not render under
voila (no ``static_path``, templates missing): every 403/404/405 of a page route then logged a ~40-line
"Uncaught exception in write_error" traceback, and ``/logout`` answered 500. A student could flood the log by
asking for pages that do not exist. Here page routes write a small page of ours instead.
"""
from __future__ import annotations

from html import escape

from jupyter_server.base.handlers import APIHandler, JupyterHandler

#: The pages' Content-Security-Policy: only this server's scripts, styles and sockets (voila's page needs
#: inline scripts and ``eval`` for the widgets, and anywidget imports the board's module from a blob: URL
#: that the page's own script makes: widgets/board/cardlayer.py), images also from data: and blob: URLs and HTTPS (the map's
#: optional tiles), no plugins, no framing by other sites, forms and <base> kept to this server.
CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data: blob: https:; font-src 'self' data:; connect-src 'self' ws: wss:; object-src 'none'; "
       "base-uri 'self'; form-action 'self'; frame-ancestors 'self'")


class PlainErrors:
    """An error page that always renders: the status and its reason, in our pages' style."""

    def write_error(self, status_code: int, **kwargs) -> None:
        from widgets.server.room_pages import page
        reason = getattr(self, "_reason", "") or ""
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(page(f"{status_code} {reason}", f"<h1>{status_code}</h1><p>{escape(reason)}</p>"))


def with_plain_errors(handler_class: type) -> type:
    """``handler_class`` with :class:`PlainErrors` (API handlers keep their JSON errors, which render)."""
    if not issubclass(handler_class, JupyterHandler) or issubclass(handler_class, APIHandler) \
            or issubclass(handler_class, PlainErrors):
        return handler_class
    return type(handler_class.__name__, (PlainErrors, handler_class), {"__module__": handler_class.__module__})


class LogoutHandler(PlainErrors, JupyterHandler):
    """``/logout``: forget this browser's login, then the start page (which asks for the link)."""

    def check_xsrf_cookie(self):
        return None

    async def get(self):
        self.identity_provider.clear_login_cookie(self)
        self.redirect(self.base_url)


try:  # jupyter_server >= 2.13: say that /logout needs no login (it only removes one)
    from jupyter_server.auth.decorator import allow_unauthenticated
    LogoutHandler.get = allow_unauthenticated(LogoutHandler.get)
except ImportError:  # pragma: no cover
    pass
