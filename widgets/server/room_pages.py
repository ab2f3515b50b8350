"""The pages of our servers (not voila's): "Starting your game…", "The class is full", "This game needs its
link", the teacher's page and its refusal. Every text goes through the catalogs; every value is escaped.
"""
from __future__ import annotations

import json
import time
from html import escape
from typing import TYPE_CHECKING, Any

from widgets.model.i18n import _, _n, get_language, kernel_state

if TYPE_CHECKING:
    from widgets.server.classroom import ClassState

STYLE = """<style>
body { font-family: system-ui, sans-serif; margin: 0; background: #f5f3ee; color: #222; }
main { max-width: 42em; margin: 10vh auto; padding: 2em; background: #fff; border-radius: 8px;
       box-shadow: 0 1px 6px rgba(0,0,0,.15); font-size: 18px; line-height: 1.5; }
h1 { font-size: 28px; margin-top: 0; } code, .url { font-size: 16px; word-break: break-all; }
.spinner { width: 48px; height: 48px; border: 6px solid #d7d2c4; border-top-color: #1f4e9c;
           border-radius: 50%; animation: spin 1s linear infinite; margin: 1em 0; }
@keyframes spin { to { transform: rotate(360deg); } }
table { border-collapse: collapse; } td, th { padding: 2px 10px; text-align: left; border-bottom: 1px solid #ddd; }
</style>"""


def page(title: str, body: str, *, refresh: int | None = None) -> str:
    """A page of the server, in the server's language (``house-divided classroom --lang``: ``AHD_LANG``)."""
    meta = f'<meta http-equiv="refresh" content="{refresh}">' if refresh else ""
    return (f'<!DOCTYPE html><html lang="{get_language()}"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">'
            f'{meta}{STYLE}</head>'
            f"<body><main>{body}</main></body></html>")


def starting_page(play_url: str) -> str:
    """Shown at once; the browser keeps showing it while the next page (voila's) starts the kernel."""
    starting = _("Starting your game…")
    return page(_("{page} — A House Divided").format(page=starting), f"""
<h1 id="ahd-starting">{escape(starting)}</h1><div class="spinner" role="status" aria-label="{escape(_("starting"))}"></div>
<p>{escape(_("This takes a few seconds, up to a minute when the whole class starts at once. Please wait: "
             "reloading starts it all over again."))}</p>
<noscript><p><a href="{escape(play_url)}">{escape(_("Open your game"))}</a></p></noscript>
<script>window.addEventListener("load", function () {{
  window.setTimeout(function () {{ window.location.replace({json.dumps(play_url)}); }}, 0); }});</script>""")


def full_page(state: "ClassState", running: int, retry_url: str) -> str:
    cap = state.options.students
    minutes = max(1, round((state.options.cull_idle + state.options.cull_interval) / 60))
    full = _("The class is full")
    playing = _n("{running} of {cap} game is being played on this server, the most it takes.",
                 "{running} of {cap} games are being played on this server, the most it takes.", cap or 0)
    frees = _n("A place frees up when someone closes their game (at the latest about {minutes} minute after a "
               "window is closed).",
               "A place frees up when someone closes their game (at the latest about {minutes} minutes after a "
               "window is closed).", minutes)
    # TRANSLATORS: {link} and {end} wrap "try again now" in a link
    retry = _("This page tries again by itself every {seconds} seconds, or {link}try again now{end}.")
    # TRANSLATORS: {option} is the command-line option --students (not translated)
    teacher = _("Teacher: start the server with a larger {option} if the machine has the memory for it.")
    return page(_("{page} — A House Divided").format(page=full), f"""
<h1 id="ahd-class-full">{escape(full)}</h1>
<p>{escape(playing.format(running=running, cap=cap))}</p>
<p>{escape(frees.format(minutes=minutes))} {escape(retry).format(seconds=20, link=f'<a href="{escape(retry_url)}">', end="</a>")}</p>
<p>{escape(teacher).format(option="<code>--students</code>")}</p>""",
                refresh=20)


def browser_full_page(games: int, retry_url: str) -> str:
    """Shown instead of a new game to a browser that has its most games open already (widgets/server/seats.py)."""
    title = _("Your games are already open")
    have = _n("This browser already has {n} game open on this server, the most one browser may have.",
              "This browser already has {n} games open on this server, the most one browser may have.", games)
    # TRANSLATORS: {link} and {end} wrap "try again now" in a link
    close = _("Close one of them (its tab or window) to start another. This page tries again by itself every "
              "{seconds} seconds, or {link}try again now{end}.")
    return page(_("{page} — A House Divided").format(page=title), f"""
<h1 id="ahd-browser-full">{escape(title)}</h1>
<p>{escape(have.format(n=games))}</p>
<p>{escape(close).format(seconds=10, link=f'<a href="{escape(retry_url)}">', end="</a>")}</p>""", refresh=10)


def no_token_page(mode: str) -> str:
    # TRANSLATORS: {end} is "?token=…", the end of the link (not translated)
    who = (escape(_("Ask your teacher for the class link (it ends in {end}), or type the code below."))
           if mode == "classroom" else
           escape(_("Open the link that {command} printed (it ends in {end}), or type the token below.")).format(
               command="<code>house-divided app</code>", end="{end}")).format(end="<code>?token=…</code>")
    return page(_("A House Divided — link needed"), f"""
<h1 id="ahd-no-token">{escape(_("This game needs its link"))}</h1><p>{who}</p>
<form method="get" action="./"><label>{escape(_("Code:"))} <input name="token" autocomplete="off" size="24"></label>
<button type="submit">{escape(_("Join"))}</button></form>""")


def teacher_page(state: "ClassState", join_url: str, kernels: list[dict[str, Any]]) -> str:
    """The teacher's own page (not for the projector: :func:`projector_page` is)."""
    cap = state.options.students
    now = time.time()
    games = (_n("{n} game running", "{n} games running", len(kernels)) if cap is None else
             _n("{n} game running of at most {cap}", "{n} games running of at most {cap}", len(kernels)))
    games = escape(games).format(n=f"<b>{len(kernels)}</b>", cap=f"<b>{cap}</b>")
    minutes_ago = round((now - state.started_at) / 60)
    counts = (_n("{starting} starting; {joined} started since the server started {minutes} minute ago; ",
                 "{starting} starting; {joined} started since the server started {minutes} minutes ago; ", minutes_ago)
              + _n("{refused} time a student saw \"the class is full\".",
                   "{refused} times a student saw \"the class is full\".", state.refused_full)).format(
        starting=state.starting, joined=state.joined, minutes=minutes_ago, refused=state.refused_full)
    about = _("A game whose window was closed is ended after about {seconds} s without a connection. Games "
              "against a classmate (\"Play a classmate\") are kept in the server's game store (listed below); "
              "other games are saved by download to each student's own computer (\"Save to my computer\" in "
              "the panel) and opened again by upload, and stopping the server (Ctrl-C) ends them. This page "
              "refreshes every 10 seconds. Keep its link to yourself: it shows the class link.").format(
        seconds=state.options.cull_idle)
    # TRANSLATORS: {link} and {end} wrap "the join page" in a link
    projector = _("To show the class how to join, project {link}the join page{end}: its QR code and link, nothing "
                  "else.")
    heads = "".join(f"<th>{escape(h)}</th>" for h in ("#", _("state"), _("open pages"), _("last activity")))
    rows = "".join(
        f"<tr><td>{i}</td><td>{escape(kernel_state(k.get('execution_state', '')))}</td><td>{k.get('connections', 0)}</td>"
        f"<td>{escape(str(k.get('last_activity', ''))[:19].replace('T', ' '))} UTC</td></tr>"
        for i, k in enumerate(kernels, start=1))
    return page(_("Teacher — A House Divided classroom"), f"""
<h1>{escape(_("A House Divided — classroom"))}</h1>
<p>{escape(_("Students join at:"))}<br><a class="url" id="ahd-join-url" href="{escape(join_url)}">{escape(join_url)}</a></p>
<p id="ahd-projector-link">{escape(projector).format(link='<a href="/teacher/join">', end="</a>")}</p>
<p id="ahd-games">{games};
{escape(counts, quote=False)}</p>
<table><tr>{heads}</tr>{rows}</table>
<p>{escape(about, quote=False)}</p>""",
                refresh=10)


def projector_page(join_url: str) -> str:
    """What the teacher projects: the join link and its QR code; no teacher key, no list of games."""
    import segno  # the app extra

    qr = segno.make(join_url, error="m").svg_inline(scale=6, title=_("QR code of the join link"))
    title = _("Join the game")
    return page(_("{page} — A House Divided").format(page=title), f"""
<h1>{escape(title)}</h1>
<p>{escape(_("Scan the QR code, or open:"))}<br><a class="url" id="ahd-join-url" href="{escape(join_url)}">{escape(join_url)}</a></p>
{qr}""")


def teacher_refused_page() -> str:
    """The 403 page of the teacher's pages, without (or with a wrong) teacher key."""
    title = _("Teacher page")
    text = escape(_("This page needs the teacher link printed by {command} in its terminal.")).format(
        command="<code>house-divided classroom</code>")
    return page(_("{page} — A House Divided").format(page=title), f"<h1>{escape(title)}</h1><p>{text}</p>")
