"""Errors: one base class, a few subclasses by cause."""
from __future__ import annotations

from .i18n import Msg, get_language, render
from .languages import chosen_language
from .rules import cite


class AhdError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalActionError(AhdError, ValueError):
    """An action the rules forbid. ``rule`` is the spec's rule ID (e.g. ``"4.2.6"``).

    The game is unchanged after it is raised.
    """

    def __init__(self, rule: str, message: "str | Msg", action: object = None) -> None:
        self.rule = rule
        self.message = message  # a Msg (or plain text), to say again in another language
        self.action = action
        # the language it is raised in: a chosen one now (``set_language``, ``with language``); with none
        # chosen, the environment's locale is read when the refusal is first said (reading it for every
        # dropped candidate path cost a bot 6% of its time)
        self._lang = chosen_language()
        self._said: str | None = None
        # said when first read (``str``, ``args``, ``reason``): the legal-move search checks and drops
        # thousands of candidate paths per decision, and saying each refusal was a fifth of a bot's time
        super().__init__()

    @property
    def lang(self) -> str:
        """The language the refusal is said in by default: the one it was raised in."""
        if self._lang is None:
            self._lang = get_language()
        return self._lang

    @lang.setter
    def lang(self, value: str) -> None:
        self._lang = value

    @property
    def reason(self) -> str:
        """The refusal without its rule, in the language it was raised in."""
        return render(self.message, self.lang)

    @property
    def args(self) -> tuple:  # type: ignore[override]
        return (str(self),)

    @args.setter
    def args(self, value) -> None:  # BaseException sets it; the text is said from the message instead
        pass

    def __str__(self) -> str:
        if self._said is None:
            self._said = self.text(self.lang)
        return self._said

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __reduce__(self):
        return (_rebuild, (type(self), self.rule, self.message, self.action, self.lang))

    def text(self, lang: str | None = None) -> str:
        """The refusal in ``lang`` (default: the language it was raised in), with the rule cited."""
        lang = lang or self.lang
        text = Msg("{reason} ({rule})", reason=self.message, rule=_Cite(self.rule)).render(lang)
        if self.action is not None:
            text = Msg("illegal action {action}: {text}", action=self.action, text=text).render(lang)
        return text


def _rebuild(cls, rule, message, action, lang):
    error = cls(rule, message, action)
    error.lang = lang
    return error


class _Cite:
    """A rule ID with its title in the message's language."""

    __slots__ = ("rule",)

    def __init__(self, rule: str) -> None:
        self.rule = rule

    def __msg__(self, lang: str) -> str:
        return cite(self.rule, lang)


class DataFileError(AhdError, ValueError):
    """A malformed board or scenario file: names the file, the key and the problem.

    ``problem`` is a message (a Msg, said in the current language when the error is read; plain text as it
    is); the key path and any rule ID in it are the same in every language."""

    def __init__(self, path: object, key: str, problem: "str | Msg") -> None:
        self.path = path if hasattr(path, "__msg__") else str(path)
        self.key = key
        self.problem = problem
        super().__init__(path, key, problem)

    def text(self, lang: str | None = None) -> str:
        """The error in ``lang`` (default: the current language)."""
        from .jsonfile import where
        return f"{render(self.path, lang)}: {render(where(self.key), lang)}: {render(self.problem, lang)}"

    def reason(self, lang: str | None = None) -> str:
        """The problem alone, in ``lang``."""
        return render(self.problem, lang)

    def __str__(self) -> str:
        return self.text()


class RecordError(AhdError, ValueError):
    """A game record (save file) that cannot be loaded: corrupt, truncated or foreign.

    ``path`` is the file (None for a record given as text or a dict), ``key`` the record key or
    action (``"seed"``, ``"actions[12].path[1]"``) when known; the message names both.
    """

    def __init__(self, message: str, *, path: object = None, key: str | None = None) -> None:
        self.path = None if path is None else str(path)
        self.key = key
        self.problem = message
        super().__init__(message if path is None else f"{path}: {message}")


class ActionFieldError(AhdError, ValueError, TypeError):
    """An action built with a field of the wrong type, e.g. ``BeginMarch(origin=[...])``:
    names the action and the field. (Also a ValueError and a TypeError.)"""

    def __init__(self, action: str, field: str, problem: str) -> None:
        self.action = action
        self.field = field
        self.problem = problem
        super().__init__(f"{action}.{field}: {problem}")
