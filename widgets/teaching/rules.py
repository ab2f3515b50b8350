"""The rulebook in the app (issue 15, item 1): a Rules tab with search, and rule IDs that open their rule.

    rules = RulesView()            # the tab: a search box, the matching rules, the open rule's text
    rules.open("5.2.6")            # show a rule (what a click on a rule button does)
    row = RuleButtons(rules.open)  # small buttons "5.2.6 Cavalry withdrawal", one per rule cited in a text
    row.show("Not allowed: … (5.2.5)")

Every rule ID the app shows (a refusal or an explanation in the status line, the prompt, the log) is
offered as one of these buttons, next to where it is shown: the rule IDs are read out of the text by
``ahd.rulebook.find_ids``, so a new rule cited by the engine needs nothing here. The rule's text is the
rulebook's markdown, rendered by the small renderer below, which escapes everything first (the text
cannot inject HTML).
"""
from __future__ import annotations

import re
from html import escape
from typing import Callable, Iterable

import ipywidgets as w
from traitlets import HasTraits, Unicode

from ahd import rulebook

from widgets.model.i18n import N_, _, _n, get_language

#: How many rule buttons a row holds (a line rarely cites more than three or four rules).
ROW_BUTTONS = 8
#: How many search results are listed.
MAX_RESULTS = 40


def book_language() -> str:
    """The rulebook's language: the current language when the rulebook ships in it, else English."""
    lang = get_language()
    return lang if lang in rulebook.LANGUAGES else "en"


# ====================================================================== markdown -> HTML
def _inline(text: str) -> str:
    """Escape, then **bold**, *italic*, `code` and [text](link) (the link's text only: no URL is followed)."""
    text = escape(text, quote=False)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", text)
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    return text


def _table(rows: list[str]) -> str:
    cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows]
    body = [r for r in cells if not all(re.fullmatch(r":?-{2,}:?", c) for c in r if c)]
    if not body:
        return ""
    head, *rest = body
    html = "<table class='ahd-rule-table'><tr>" + "".join(f"<th>{_inline(c)}</th>" for c in head) + "</tr>"
    html += "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>" for row in rest)
    return html + "</table>"


def markdown_html(text: str) -> str:
    """The small, safe subset of markdown the rulebook uses: paragraphs, '- ' and '1. ' lists, '> '
    quotes, '|' tables, bold, italic and code. Every character of the text is escaped first."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped or stripped.startswith("<!--"):
            i += 1
            continue
        if stripped.startswith("|"):
            block = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                block.append(lines[i])
                i += 1
            out.append(_table(block))
            continue
        for pattern, tag in ((r"[-*] ", "ul"), (r"\d+\. ", "ol")):
            if re.match(pattern, stripped):
                items = []
                while i < len(lines) and (re.match(pattern, lines[i].strip()) or
                                          (lines[i].startswith("  ") and lines[i].strip() and items)):
                    item = lines[i].strip()
                    if re.match(pattern, item):
                        items.append(re.sub("^" + pattern, "", item))
                    else:
                        items[-1] += " " + item
                    i += 1
                out.append(f"<{tag}>" + "".join(f"<li>{_inline(t)}</li>" for t in items) + f"</{tag}>")
                break
        else:
            if stripped.startswith(">"):
                quote = []
                while i < len(lines) and lines[i].strip().startswith(">"):
                    quote.append(lines[i].strip()[1:].strip())
                    i += 1
                out.append(f"<blockquote>{_inline(' '.join(quote))}</blockquote>")
                continue
            if stripped.startswith("#"):
                out.append(f"<p><b>{_inline(stripped.lstrip('#').strip())}</b></p>")
                i += 1
                continue
            para = []
            while i < len(lines) and lines[i].strip() and not re.match(r"\s*(?:[-*] |\d+\. |>|\|)", lines[i]):
                para.append(lines[i].strip())
                i += 1
            if not para:  # a line no rule above took: shown as it is
                para, i = [stripped], i + 1
            out.append(f"<p>{_inline(' '.join(para))}</p>")
    return "".join(out)


CSS = """<style>
.ahd-rules .ahd-rule-text { font-size: 15px; line-height: 1.45; }
.ahd-rules blockquote { margin: 6px 0; padding: 4px 10px; border-left: 3px solid #1f4e9c; background: #f3f6fb; }
.ahd-rule-table { border-collapse: collapse; font-size: 14px; margin: 4px 0; }
.ahd-rule-table td, .ahd-rule-table th { border: 1px solid #ccc; padding: 2px 6px; }
.ahd-rule-button button, button.ahd-rule-button { font-size: 13px; }
</style>"""


def entry_html(rule_id: str, lang: str | None = None) -> str:
    """A rule as HTML: its ID and title, the part of the book, its text (in ``lang``, default: the rulebook's
    language for the current language, :func:`book_language`)."""
    lang = lang or book_language()
    entry = rulebook.entry(rule_id, lang)
    return (f"<div class='ahd-rule-text' data-rule='{escape(entry.id)}' lang='{lang}'>"
            f"<div style='font-size:17px'><b>{escape(entry.id)} — {escape(entry.title)}</b></div>"
            f"<div style='color:#555;font-size:13px'>{escape(entry.part)}</div>"
            f"{markdown_html(entry.text)}</div>")


def label(rule_id: str) -> str:
    """A rule button's text: '5.2.6 Cavalry withdrawal' (short enough for a row of buttons)."""
    title = rulebook.title(rule_id, book_language())
    return f"{rule_id} {title if len(title) <= 28 else title[:27] + '…'}"


# ====================================================================== rule buttons
class RuleButtons:
    """A row of small buttons, one per rule cited in a text; a click calls ``opener(rule_id)``.

    A pool of buttons is reused (a button is re-sent only when its rule changes), so a gesture costs at most
    one message per button; the pool grows as texts cite more rules, up to ``size``."""

    def __init__(self, opener: Callable[[str], None], *, intro: str = N_("Rules:"), size: int = ROW_BUTTONS) -> None:
        """``intro``: the English words before the buttons (translated when shown: mark them with ``N_``)."""
        self.opener = opener
        self.rules: list[str] = []
        self.intro_text = intro
        self.size = size
        self.intro = w.HTML(self._intro_html(), layout=w.Layout(margin="0 4px 0 0"))
        self.style = w.ButtonStyle()  # one style for the row's buttons (a widget less a button)
        self.buttons: list[w.Button] = []  # made when a text first cites that many rules (none in a page's first render)
        self.widget = w.HBox([self.intro],
                             layout=w.Layout(flex_flow="row wrap", align_items="center", display="none"))
        self.widget.add_class("ahd-rule-row")

    def _grow(self, count: int) -> None:
        """At least ``count`` buttons in the row (the pool only grows: a hidden button is reused later)."""
        if len(self.buttons) >= count:
            return
        while len(self.buttons) < count:
            button = w.Button(description="", style=self.style, _dom_classes=("ahd-rule-button",),
                              layout=w.Layout(width="auto", height="26px", display="none"))
            button.rule_id = ""
            button.on_click(self._clicked)
            self.buttons.append(button)
        self.widget.children = (self.intro, *self.buttons)

    def _intro_html(self) -> str:
        return f"<span style='font-size:13px;color:#555'>{escape(_(self.intro_text))}</span>"

    def relabel(self) -> None:
        """Say the row again in the current language (the buttons' rule titles, the words before them)."""
        self.intro.value = self._intro_html()
        for button in self.buttons:
            if button.rule_id:
                self._label(button, button.rule_id)

    @staticmethod
    def _label(button: w.Button, rule: str) -> None:
        with button.hold_sync():
            button.description = label(rule)
            button.tooltip = _("Open rule {rule} ({title}) in the Rules tab").format(
                rule=rule, title=rulebook.title(rule, book_language()))

    def _clicked(self, button: w.Button) -> None:
        if button.rule_id:
            self.opener(button.rule_id)

    def show(self, *texts: str) -> list[str]:
        """Offer the rules cited in ``texts`` (in order, each once); returns their IDs."""
        return self.show_ids(rule for text in texts for rule in rulebook.find_ids(str(text or "")))

    def show_ids(self, rules: Iterable[str]) -> list[str]:
        rules = list(dict.fromkeys(rules))[:self.size]
        if rules == self.rules:
            return rules
        self.rules = rules
        self._grow(len(rules))
        for button, rule in zip(self.buttons, rules + [""] * len(self.buttons)):
            if button.rule_id == rule:
                continue
            button.rule_id = rule
            if rule:
                self._label(button, rule)
                button.layout.display = ""
            else:
                button.layout.display = "none"
        self.widget.layout.display = "flex" if rules else "none"
        return rules


# ====================================================================== the tab
class RulesView(HasTraits):
    """The Rules tab: search the rulebook (words or an ID), pick a rule, read it; related rules as buttons."""

    current = Unicode("", help="the rule shown ('' for none)")

    def __init__(self, on_open: Callable[[str], None] | None = None) -> None:
        super().__init__()
        self.on_open = on_open
        self.lang = book_language()
        self.query = w.Text(placeholder=_("Search the rules: a word (retreat) or an ID (5.2.6)"),
                            continuous_update=False, layout=w.Layout(width="70%"))
        self.query.add_class("ahd-rules-search")
        self.go = w.Button(description=_("Search"), layout=w.Layout(width="auto"))
        self.found = w.HTML()
        self.results = w.Select(options=[], rows=7, layout=w.Layout(width="98%"), description=_("Rules found"),
                                style={"description_width": "auto"})  # labelled (WCAG 1.3.1, 4.1.2)
        self.text = w.HTML(entry_html(rulebook.ids(self.lang)[0], self.lang), layout=w.Layout(width="98%"))
        self.related = RuleButtons(self.open, intro=N_("See also:"))
        self.back = w.Button(description=_("Back to the game"), layout=w.Layout(width="auto"))
        self.query.observe(lambda change: self.search(change["new"]), names="value")
        self.go.on_click(lambda _: self.search(self.query.value))
        self.results.observe(self._picked, names="value")
        self.widget = w.VBox([w.HTML(CSS), w.HBox([self.query, self.go]), self.found, self.results, self.text,
                              self.related.widget, w.HBox([self.back])], layout=w.Layout(width="100%"))
        self.widget.add_class("ahd-rules")
        self.search("")
        self.open(rulebook.ids(self.lang)[0], notify=False)

    def relabel(self) -> None:
        """Show the rulebook in the current language (after ``set_language``): the search box, the list of
        rules found, the open rule and its related rules."""
        self.lang = book_language()
        self.query.placeholder = _("Search the rules: a word (retreat) or an ID (5.2.6)")
        self.go.description = _("Search")
        self.results.description = _("Rules found")
        self.back.description = _("Back to the game")
        current = self.current
        self.search(self.query.value)
        if current:
            self.open(current, notify=False)
        self.related.relabel()

    def search(self, query: str) -> list[str]:
        """List the rules matching ``query`` (all of them, in the book's order, for an empty query)."""
        lang = self.lang = book_language()
        found = rulebook.search(query, lang) if query.strip() else rulebook.ids(lang)
        shown = found[:MAX_RESULTS] if query.strip() else found
        with self.results.hold_sync():
            self._listing = True
            try:
                self.results.options = [(f"{r} — {rulebook.title(r, lang)}", r) for r in shown]
                self.results.value = self.current if self.current in shown else None
            finally:
                self._listing = False
        if not query.strip():
            words = _("All {n} rules, in the book's order.").format(n=len(found))
        elif not found:
            words = _("No rule mentions “{query}”.").format(query=query)
        elif len(found) > MAX_RESULTS:
            words = _n("{n} rule matches “{query}” (the first {shown} shown): pick one.",
                       "{n} rules match “{query}” (the first {shown} shown): pick one.",
                       len(found)).format(n=len(found), query=query, shown=MAX_RESULTS)
        else:
            words = _n("{n} rule matches “{query}”: pick one.", "{n} rules match “{query}”: pick one.",
                       len(found)).format(n=len(found), query=query)
        self.found.value = f"<span style='font-size:13px'>{escape(words)}</span>"
        if query.strip() and found and found[0].casefold() == query.strip().casefold():
            self.open(found[0])  # an ID typed in opens at once
        return found

    def _picked(self, change) -> None:
        if not getattr(self, "_listing", False) and change["new"]:
            self.open(change["new"])

    def open(self, rule_id: str, notify: bool = True) -> None:
        """Show rule ``rule_id`` (LookupError if the rulebook has no such rule)."""
        entry = rulebook.entry(rule_id, self.lang)
        self.text.value = entry_html(entry.id, self.lang)
        self.related.show_ids(entry.see_also)
        self.current = entry.id
        if self.results.value != entry.id:
            options = [v for _, v in self.results.options]
            self._listing = True
            try:
                if entry.id not in options:
                    self.results.options = [(f"{entry.id} — {entry.title}", entry.id)] + list(self.results.options)
                self.results.value = entry.id
            finally:
                self._listing = False
        if notify and self.on_open is not None:
            self.on_open(entry.id)


# ====================================================================== in the app
#: The app's tabs beside the map.
GAME_TAB, RULES_TAB = 0, 1
#: How many of the newest log lines the log's rule buttons look at.
LOG_LOOKBACK = 30


def status_rules(session) -> list[str]:
    """The rules cited by what the session says now: the refusal's rule, then the IDs in the status
    line and the prompt."""
    rules = [session.status_rule] if session.status_rule else []
    found = rules + rulebook.find_ids(session.status or "") + rulebook.find_ids(session.prompt or "")
    return [r for r in dict.fromkeys(found) if _known(r)]


def log_rules(events, limit: int = 12) -> list[str]:
    """The rules cited in the newest log lines, newest first."""
    found: list[str] = []
    for event in reversed(list(events)[-LOG_LOOKBACK:]):
        for rule in rulebook.find_ids(str(event)):
            if rule not in found:
                found.append(rule)
        if len(found) >= limit:
            break
    return found[:limit]


def _known(rule: str) -> bool:
    try:
        rulebook.entry(rule)
        return True
    except LookupError:
        return False


class RulesInApp:
    """The Rules tab beside the game, and rule buttons under the panel's status line and its log."""

    def __init__(self, session, panel) -> None:
        self.session = session
        self.view = RulesView(on_open=self._opened)
        self.status_row = RuleButtons(self.open, intro=N_("Look up:"))
        self.log_row = RuleButtons(self.open, intro=N_("Rules in the latest log lines:"), size=12)
        children = list(panel.widget.children)
        children.insert(children.index(panel.status) + 1, self.status_row.widget)
        children.insert(children.index(panel.log) + 1, self.log_row.widget)
        panel.widget.children = children
        self.tabs = w.Tab(children=[panel.widget, self.view.widget], layout=w.Layout(width="100%"))
        self.tabs.titles = (_("Game"), _("Rules"))
        self.tabs.add_class("ahd-tabs")
        self.view.back.on_click(lambda _: self.show_game())
        session.observe(self._status_changed, names=["status", "status_rule", "prompt"])
        session.observe(self._log_changed, names=["log_lines"])
        self._status_changed()
        self._log_changed()

    def relabel(self) -> None:
        """Say the tabs, the Rules tab and the rule buttons again in the current language (after
        ``set_language``)."""
        self.tabs.titles = (_("Game"), _("Rules"))
        self.view.relabel()
        self.status_row.relabel()
        self.log_row.relabel()
        self._status_changed()
        self._log_changed()

    def open(self, rule_id: str) -> None:
        """Open rule ``rule_id`` in the Rules tab (what a rule button does)."""
        self.view.open(rule_id)

    def _opened(self, rule_id: str) -> None:
        self.tabs.selected_index = RULES_TAB

    def show_game(self) -> None:
        self.tabs.selected_index = GAME_TAB

    def _status_changed(self, change=None) -> None:
        self.status_row.show_ids(status_rules(self.session))

    def _log_changed(self, change=None) -> None:
        self.log_row.show_ids(log_rules(self.session.game.log))
