"""The ``house-divided`` command: serving the app, and every engine command of ``python -m ahd``.

    house-divided app [--port N] [--tree] [--games DIR] [--lang es]
                                                               the app for one person, on 127.0.0.1
    house-divided classroom [--host ADDR] [--port N] [--students N] [--data DIR] [--lang es]
                                                               one server for a class (token, QR code, cap)
    house-divided publish SCENARIO.json --out DIR              a folder that is a playable app of one scenario
    house-divided play | simulate | bench | odds | options ... the engine's commands (see python -m ahd -h)

Only ``app``, ``classroom`` and ``publish`` need the ``app`` extra (voila, ipywidgets, ...); anything else
is handed unchanged to :func:`ahd.cli.main`, imported only then, so ``house-divided play`` works with the
engine alone.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from ahd.core.i18n import language
from ahd.cli.translate import argparse_language, argv_language

from widgets.model.i18n import _

SERVING = ("app", "classroom", "publish")
#: What tells the server's kernels their language (read by ``ahd.core.i18n.default_language``).
LANG_ENV = "AHD_LANG"


def _lang_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", default=None, metavar="LANG",
                        help=_("the app's language: en (English), es (Español) or it (Italiano); default: the "
                             "environment's AHD_LANG or locale, else English. Each page can change it in its menu"))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="house-divided",
        description=_("A House Divided: serve the app (app, classroom, publish) or use the engine "
                    "(play, simulate, bench, odds, options, ...: house-divided play -h)."))
    sub = parser.add_subparsers(dest="command", required=True, metavar=_("COMMAND"), title=_("commands"))

    app = sub.add_parser("app", help=_("serve the app for one person on 127.0.0.1"),
                         description=_("Serve the app with voila on 127.0.0.1 only. The printed URL carries a "
                                     "random token: other local users and processes cannot start games."))
    app.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8866)), help=_("port (default 8866)"))
    app.add_argument("--tree", action="store_true", help=_("serve every notebook of notebooks/ (a tree page)"))
    app.add_argument("--games", type=Path, default=None,
                     help=_("the folder the panel saves games to and loads them from "
                          "(default ~/house-divided-games); no path outside it is accepted"))
    app.add_argument("--cull-idle", type=int, default=120, metavar="SECONDS",
                     help=_("end a game whose page has been closed for this long (default 120)"))
    _lang_argument(app)

    room = sub.add_parser("classroom", help=_("serve the app to a class from one machine"),
                          description=_("One server for a class on a school network: prints a join URL with a "
                                      "token and its QR code, and a teacher page's URL (another token). Every "
                                      "page and API call needs the token; XSRF checks stay on; at most "
                                      "--students games run at once; games are saved by download only."))
    room.add_argument("--host", default="0.0.0.0",
                      help=_("address to listen on (default 0.0.0.0: every interface; 127.0.0.1: this machine only)"))
    room.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8866)), help=_("port (default 8866)"))
    room.add_argument("--students", type=int, default=30,
                      help=_("most games at once, one per student (default 30; about 130 MB of memory each)"))
    room.add_argument("--data", type=Path, default=None,
                      help=_("folder for the server's own files: kernel connection files and the game store "
                           "games.sqlite3 of 'Play a classmate' (games survive a restart with the same --data); "
                           "default: a new private temporary folder, removed on exit"))
    room.add_argument("--public-url", default="", metavar="URL",
                      help=_("the URL students open, printed and put in the QR code, when a proxy serves this "
                             "server (e.g. https://games.school.example/); docs/security.md has a Caddy recipe"))
    room.add_argument("--certfile", type=Path, default=None, metavar="PEM",
                      help=_("serve HTTPS with this certificate (PEM; with --keyfile): the link and QR code use "
                             "https"))
    room.add_argument("--keyfile", type=Path, default=None, metavar="PEM", help=_("the certificate's private key (PEM)"))
    room.add_argument("--connect-grace", type=int, default=60, metavar="SECONDS",
                      help=_("end a new game whose page has not connected to it this long after it was sent "
                             "(default 60; raise it for a very busy machine)"))
    room.add_argument("--warm", type=int, default=None, metavar="N",
                      help=_("keep N games ready (started, the app built) so that a student's page opens at once "
                             "(default: --students; never more than the free places; about 110 MB each; 0: none)"))
    room.add_argument("--new-token", action="store_true",
                      help=_("with --data: make new tokens (a new join link and QR code; every earlier link, "
                             "personal link and login stops working); without it the tokens of the last run are "
                             "kept in --data"))
    room.add_argument("--cull-idle", type=int, default=50, metavar="SECONDS",
                      help=_("end a game whose page has been closed for this long (default 50: within about "
                           "a minute)"))
    _lang_argument(room)

    pub = sub.add_parser("publish", help=_("write a folder that is a playable app of one scenario file"),
                         description=_("Write DIR: the app for SCENARIO.json with its notebook, voila "
                                     "configuration, requirements and a Binder configuration."))
    pub.add_argument("scenario", type=Path, metavar="SCENARIO.json")
    pub.add_argument("--out", type=Path, required=True, metavar="DIR")
    return parser


def _language(args: argparse.Namespace) -> int:
    """``--lang``: checked, then given to the kernels the server starts (they inherit its environment)."""
    if args.lang is None:
        return 0
    from ahd.core.i18n import check_language  # the engine only: no Jupyter package
    try:
        code = check_language(args.lang)
    except ValueError as exc:
        print(_("error: {error} (en: English, es: Español, it: Italiano)").format(error=exc), file=sys.stderr)
        return 2
    os.environ[LANG_ENV] = code
    return 0


def _serve(args: argparse.Namespace) -> int:
    if _language(args):
        return 2
    try:
        from widgets.server.classroom import ServeOptions, serve
    except ImportError as exc:  # the app extra is missing
        print(_("error: serving needs the app extra ({missing}): pip install \"house-divided[app]\"").format(
            missing=exc.name or exc), file=sys.stderr)
        return 1
    if args.command == "app":
        games = args.games if args.games is not None else Path.home() / "house-divided-games"
        options = ServeOptions(mode="app", host="127.0.0.1", port=args.port, tree=args.tree,
                               games=games.expanduser().resolve(), cull_idle=args.cull_idle,
                               cull_interval=max(1, min(15, args.cull_idle // 3)))
    else:
        if args.students < 1:
            print(_("error: --students must be at least 1"), file=sys.stderr)
            return 2
        warm = args.students if args.warm is None else args.warm
        if not 0 <= warm <= args.students:
            print(_("error: --warm must be between 0 and --students"), file=sys.stderr)
            return 2
        if args.connect_grace < 5:
            print(_("error: --connect-grace must be at least 5 seconds"), file=sys.stderr)
            return 2
        public = args.public_url.strip()
        if public and not re.fullmatch(r"https?://[^\s/?#'\"<>]+(/[^\s?#'\"<>]*)?", public):
            print(_("error: --public-url {url}: expected an http:// or https:// URL without ? or #, e.g. "
                    "https://games.school.example/").format(url=repr(public)), file=sys.stderr)
            return 2
        options = ServeOptions(mode="classroom", host=args.host, port=args.port, students=args.students,
                               public_url=public, certfile=args.certfile, keyfile=args.keyfile,
                               connect_grace=args.connect_grace, new_token=args.new_token, warm=warm,
                               data=args.data.expanduser().resolve() if args.data else None,
                               cull_idle=args.cull_idle, cull_interval=max(1, min(10, args.cull_idle // 3)))
    try:
        return serve(options)
    except (OSError, ValueError) as exc:
        print(_("error: {error}").format(error=exc), file=sys.stderr)
        return 1


def _publish(args: argparse.Namespace) -> int:
    try:
        from ahd import AhdError
        from widgets.authoring.publish import publish
    except ImportError as exc:
        print(_("error: publish is not available ({error})").format(error=exc), file=sys.stderr)
        return 1
    try:
        out = publish(args.scenario, args.out)
    except AhdError as exc:
        print(_("error: {error}").format(error=exc), file=sys.stderr)
        return 1
    except OSError as exc:
        print(_("error: cannot write {path}: {error}").format(path=args.out, error=exc.strerror or exc), file=sys.stderr)
        return 1
    print(_("Published {scenario} to {path}").format(scenario=args.scenario, path=out))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and not argv[0].startswith("-") and argv[0] not in SERVING:
        from ahd.cli import main as engine_main  # the engine alone: no Jupyter package is imported
        return engine_main(argv)
    with language(argv_language(argv)), argparse_language():  # --help and argparse's errors in --lang's language
        args = _parser().parse_args(argv)
    if args.command == "publish":
        return _publish(args)
    return _serve(args)


if __name__ == "__main__":
    sys.exit(main())
