"""The game log as the app shows it: grouped by turn, half-turn and battle, with the bots' plan lines in their
places; as one HTML text (a replay) or in blocks (the panel: a new line re-sends only the newest block)."""
from __future__ import annotations

from html import escape

import ipywidgets as w

from ahd.core.engine import Event

from widgets.model.i18n import _, render

LOG_LINES = 300
#: The panel's log box: blocks of LOG_CHUNK half-turns, the last LOG_CHUNKS of them (the whole game is in the
#: saved record and the replay)
LOG_CHUNK, LOG_CHUNKS = 4, 6


def _english(event) -> str:
    """The event's message as written in the source (its msgid): what the log's grouping reads, whatever the
    language the line is said in."""
    message = getattr(event, "message", None)
    return getattr(message, "msgid", None) or (message if isinstance(message, str) else str(event))


def log_groups(events) -> list[tuple[str, str, list[tuple[str, list[str]]]]]:
    """The log in reading order: [(turn heading, half-turn heading, [(battle heading or '', lines)])].
    A battle runs from its "Battle at" line to the line that says who won it. The lines are said in the
    current language when read (``str(event)``); the grouping reads the English messages."""
    groups: list[tuple[str, str, list[tuple[str, list[str]]]]] = []
    turn_heading, in_battle = "", False
    for event in events:
        text = str(event)
        source = _english(event)
        if event.kind == "turn":
            heading = source.startswith("—") or text.startswith("—")
            turn_heading = text.strip("— ") if heading else turn_heading or text
            if not heading:
                groups.append((text, "", [("", [])]))
            in_battle = False
            continue
        half = _("{side} half-turn").format(side=render(event.side))
        if not groups or groups[-1][0] != turn_heading or groups[-1][1] != half:
            groups.append((turn_heading, half, [("", [])]))
            in_battle = False
        blocks = groups[-1][2]
        if event.kind == "battle" and source.startswith("Battle at"):
            blocks.append((text, []))
            in_battle = True
            continue
        if not in_battle and blocks[-1][0]:
            blocks.append(("", []))
        blocks[-1][1].append(text)
        if event.kind == "battle":  # the result closes the battle
            in_battle = False
    return groups


def with_plans(events, plans: list[tuple[int, str]]) -> list:
    """The log's events with the bots' plan lines ((events before it, text): :meth:`Session.plans_said`) in
    their places, as events of kind "plan" in the half-turn where they were said."""
    events, out, k = list(events), [], 0
    for i, event in enumerate(events + [None]):
        while k < len(plans) and plans[k][0] <= i:
            where = event if event is not None else (events[-1] if events else None)
            if where is not None:
                out.append(Event(where.turn, where.side, "plan", plans[k][1]))
            k += 1
        if event is not None:
            out.append(event)
    return out


def log_blocks(events) -> list[str]:
    """The log as HTML blocks, one per half-turn (with its turn's heading when it opens the turn), oldest first."""
    out, last_turn = [], None
    for turn, half, blocks in log_groups(list(events)):
        parts = []
        if turn != last_turn:
            parts.append(f"<div style='font-weight:bold;margin-top:6px;border-bottom:1px solid #ccc'>{escape(turn)}</div>")
            last_turn = turn
        if half:
            parts.append(f"<div style='font-style:italic;margin-top:3px'>{escape(half)}</div>")
        for battle, lines in blocks:
            body = "".join(f"<div>{escape(line)}</div>" for line in lines)
            if battle:
                parts.append(f"<div class='ahd-log-battle' style='border-left:3px solid #c62828;padding-left:6px;"
                             f"margin:2px 0 2px 4px'><b>{escape(battle)}</b>{body}</div>")
            elif body:
                parts.append(f"<div style='margin-left:4px'>{body}</div>")
        out.append("".join(parts))
    return out


def log_html(events) -> str:
    """The log as HTML, oldest first; the box is scrolled to the newest lines (column-reverse)."""
    return ("<div style='height:220px;overflow:auto;display:flex;flex-direction:column-reverse'>"
            "<div style='font-size:14px;line-height:1.4'>" + "".join(log_blocks(list(events)[-LOG_LINES:]))
            + "</div></div>")


class LogBox(w.VBox):
    """The game log in the panel, newest at the bottom where the box opens (column-reverse), in blocks of
    ``LOG_CHUNK`` half-turns (the last ``LOG_CHUNKS`` blocks are shown): a new line re-sends only the newest
    block, a block once written is never sent again. ``value`` is the log as one HTML text (what the box shows)."""

    def __init__(self) -> None:
        super().__init__(layout=w.Layout(height="220px", overflow="auto", display="flex", flex_flow="column-reverse",
                                         border="1px solid #ccc"))
        self.add_class("ahd-log")
        self._blocks: list[str] = []

    def show(self, events) -> None:
        halves = log_blocks(events)
        blocks = ["".join(halves[i:i + LOG_CHUNK]) for i in range(0, len(halves), LOG_CHUNK)][-LOG_CHUNKS:]
        shown = list(reversed(self.children))  # oldest first
        while len(shown) > len(blocks):
            shown.pop(0)
        while len(shown) < len(blocks):
            html = w.HTML()
            html.add_class("ahd-log-block")
            shown.append(html)
        for html, block in zip(shown, blocks):
            block = f"<div style='font-size:14px;line-height:1.4'>{block}</div>"
            if html.value != block:
                html.value = block
        children = tuple(reversed(shown))
        if children != self.children:
            self.children = children
        self._blocks = blocks

    @property
    def value(self) -> str:
        """The log as shown, as one HTML text (oldest first; the box opens on the newest: column-reverse)."""
        return ("<div style='height:220px;overflow:auto;display:flex;flex-direction:column-reverse'>"
                "<div style='font-size:14px;line-height:1.4'>" + "".join(self._blocks) + "</div></div>")
