"""Answers that check themselves: a ``Verdict`` ("done", "not yet" or "wrong", with its message) and a
``Question`` the reader types an answer into, checked as it is typed. The tutorial's exercises and
questions (``widgets.tutorials.tutorial``) are made of these.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from html import escape
from typing import Any, Callable

import ipywidgets as w

from widgets.model.i18n import _

DONE, NOT_YET, WRONG = "done", "not yet", "wrong"


@dataclass(frozen=True)
class Verdict:
    """The result of a check: ``state`` is ``"done"``, ``"not yet"`` or ``"wrong"``."""

    state: str
    message: str

    @property
    def ok(self) -> bool:
        return self.state == DONE

    def __str__(self) -> str:
        mark = {DONE: "✓", NOT_YET: _("not done yet:"), WRONG: "✗"}[self.state]
        return f"{mark} {self.message}"

    def _repr_html_(self) -> str:
        colour = {DONE: "#2e7d32", NOT_YET: "#555", WRONG: "#c62828"}[self.state]
        return f"<div style='font-size:15px;color:{colour}'>{self}</div>"

    def __repr__(self) -> str:
        return str(self)


def _whole_number(judge: Callable[[int], Verdict]) -> Callable[[Any], Verdict]:
    """A question's judge that takes a whole number: anything else is answered "answer with a whole number"."""
    def judge_answer(answer: Any) -> Verdict:
        try:
            value = int(answer)
        except (TypeError, ValueError):
            return Verdict(WRONG, _("answer with a whole number."))
        return judge(value)
    return judge_answer


def parse_answer(text: str) -> Any:
    """A typed answer as Python: a literal (``27``, ``(2, 0)``, ``{"Richmond"}``), else the comma-separated
    words (``Washington, Richmond`` → a list), else the text; empty text is ``None`` (not answered yet)."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    if "," in text:
        return [part.strip() for part in text.split(",") if part.strip()]
    return text


class Question:
    """A question: typed into its box when displayed (checked as it is typed), or answered in code with
    ``q.check(answer)``; ``None`` or an empty answer is 'not done yet'."""

    def __init__(self, prompt: str, judge: Callable[[Any], Verdict], *, placeholder: str = "") -> None:
        self.prompt = prompt
        self.placeholder = placeholder
        self._judge = judge
        self._box: w.VBox | None = None

    def check(self, answer: Any) -> Verdict:
        if answer is None or (hasattr(answer, "__len__") and not isinstance(answer, str) and len(answer) == 0):
            return Verdict(NOT_YET, _("type your answer in the box."))
        return self._judge(answer)

    @property
    def widget(self) -> w.VBox:
        """The question, a box for the answer and the verdict, updated as the answer is typed."""
        if self._box is None:
            self.answer = w.Text(placeholder=self.placeholder, continuous_update=True,
                                 layout=w.Layout(width="420px"), style={"font_size": "15px"})
            self.verdict = w.HTML()
            self.answer.observe(self._judge_typed, names="value")
            self._judge_typed()
            self._box = w.VBox([w.HTML(f"<div style='font-size:15px'><b>{escape(self.prompt)}</b></div>"),
                                self.answer, self.verdict])
        return self._box

    def _judge_typed(self, change=None) -> None:
        self.verdict.value = self.check(parse_answer(self.answer.value))._repr_html_()

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)
