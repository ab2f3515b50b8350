"""What every gesture of a session shares: refused while the computer plays, and never lost (a refused action or
any error goes to the status line and the log, and the session keeps working)."""
from __future__ import annotations

import functools
import logging
from typing import Any, Callable

from ahd.core.errors import AhdError, IllegalActionError

from widgets.model.gestures import plain_refusal
from widgets.model.i18n import _, get_language

log = logging.getLogger("widgets")


#: Gestures refused while the computer plays (``Session.busy``): the human's next click must not land in its move.
WAIT_FOR_COMPUTER = {"click_box", "toggle_unit", "act", "act_index", "roll", "set_dice", "undo", "bot_step",
                     "bot_half_turn"}


def guarded(method: Callable) -> Callable:
    """Run a gesture; a refused action or any error goes to ``status`` and the log, never lost. A gesture
    that succeeds without saying anything clears the status line, so an old refusal never stays on screen.
    The views hear of the gesture's changes once it is over (one burst of notifications, each trait at its
    final value): a view never draws half a gesture."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        with self.hold_trait_notifications():  # nothing raises out of the gesture, so nothing is rolled back
            return _gesture(self, *args, **kwargs)

    def _gesture(self: Any, *args: Any, **kwargs: Any) -> Any:
        said = self._said
        try:
            if self.busy and method.__name__ in WAIT_FOR_COMPUTER:
                raise IllegalActionError("3.a", _("the computer is playing for the {side} side: wait until it "
                                                  "has finished").format(side=self.playing))
            result = method(self, *args, **kwargs)
            if self._said == said and self.status:
                self._inform("")
            return result
        except IllegalActionError as exc:
            refused = exc  # said again in another language by the app's menu (Session.say_again)
            exc = plain_refusal(exc)
            self._said += 1
            self._say(lambda: _("Not allowed: {reason}").format(reason=plain_refusal(refused).text(get_language())),
                      "refused", exc.rule)
        except AhdError as exc:
            refused = exc
            self._said += 1
            self._say(lambda: _("Cannot do that: {reason}").format(reason=refused), "refused", "")
        except Exception as exc:  # a bug: show it, log it, keep the session alive
            log.exception("error in %s", method.__name__)
            self._said += 1
            self._status_again = None
            self.status = _("Error in {where}: {error}").format(where=method.__name__,
                                                               error=f"{type(exc).__name__}: {exc}")
            self.status_kind, self.status_rule = "error", ""
        return None

    return wrapper

