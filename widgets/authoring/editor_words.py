"""The scenario editor's words and small pieces: its tools, names, styles, an empty scenario."""
from __future__ import annotations

from typing import Any


from ahd.core.scenario import FORMAT

from widgets.board import layers
from widgets.model.i18n import N_, _, _p


#: What a click does: the values code compares (English, marked for the catalogs; shown with ``_()``).
TOOLS = (N_("Add unit"), N_("Remove unit"), N_("Control"), N_("Leader"))
TYPE_NAMES = {"MF": "militia infantry", "FV": "veteran infantry", "FS": "crack infantry",
              "MC": "militia cavalry", "CV": "veteran cavalry", "CS": "crack cavalry"}
CONTROL_CHOICES = ((N_("Union marker"), "union"), (N_("Confederate marker"), "confederate"),
                   (N_("Neutral marker"), "neutral"), (N_("No marker (printed owner)"), ""))
#: The scenario's end (``ENDS``), as the End field shows it.
# TRANSLATORS: how a scenario ends: the campaign (turn 40), the short scenario's end, the victory table
END_WORDS = {"campaign": N_("campaign"), "short": N_("short"), "table": N_("table")}
SIDE_NAMES = {"union": N_("Union"), "confederate": N_("Confederate")}
BOTS = ("heuristic", "random", "search")

CSS = """<style>
.ahd-editor .ahd-card { cursor: crosshair; }
.ahd-editor .ahd-card.ahd-problem-box { outline: 3px solid #c62828; outline-offset: 1px; }
.ahd-editor .ahd-badge { position: absolute; top: -9px; right: -6px; background: #c62828; color: #fff;
  font-size: 9px; font-weight: 700; border-radius: 3px; padding: 0 2px; line-height: 11px; }
.ahd-editor .ahd-edit-chip { color: #fff; border-radius: 2px; padding: 0 2px; border: 1px solid #000;
  font-size: 9px; line-height: 10px; }
.ahd-editor .ahd-edit-chip.ahd-union { background: #1f4e9c; } .ahd-editor .ahd-edit-chip.ahd-confederate { background: #6f6f6f; }
.ahd-editor .ahd-problems li { margin-bottom: 3px; }
/* a tab's whole title in every language ("Empezar, guardar y publicar"), not cut at lumino's fixed width */
.ahd-editor .lm-TabBar-tab, .ahd-editor .p-TabBar-tab { flex: 0 0 auto !important; max-width: none !important; }
.ahd-editor .lm-TabBar-tabLabel, .ahd-editor .p-TabBar-tabLabel { overflow: visible !important; }
.ahd-editor .lm-TabBar-tab, .ahd-editor .lm-TabBar-tabLabel { color: #444 !important; }  /* 4.5:1 on the tabs' grey (JupyterLab's #6d6d6d: 4.45) */
.ahd-editor .jupyter-button.mod-success { background-color: #2e7d32 !important; color: #fff !important; }  /* "Play it": white on #2e7d32, 5.1:1 (ipywidgets' green: 2.8) */
</style>"""


def empty_scenario() -> dict[str, Any]:
    """An empty board: no units, no control markers, the whole war (turns 1-40); titled in the current
    language (the author's to change)."""
    return {"format": FORMAT, "version": 1, "id": "my-scenario", "rule": "custom", "title": _("My scenario"),
            "description": "", "history": "", "start_turn": 1, "first_turn_marches": 2, "last_turn": 40,
            "end": "campaign", "units": [], "control": {}}


def _side_key(key: str | None) -> str:
    """A side's key ("union", "confederate", "neutral") as the editor says it in its lines
    ("2 union militia infantry", "union control"), in the current language."""
    words = {"union": _p("editor side", "union"), "confederate": _p("editor side", "confederate"),
             "neutral": _p("editor side", "neutral")}
    return words.get(str(key).lower(), str(key))


def _type_word(code: Any, default: str = "") -> str:
    """A unit type code's name in the current language ("militia infantry"); ``default`` for an unknown code."""
    code = str(code).upper()
    return layers.unit_word(code) if code in TYPE_NAMES else default
