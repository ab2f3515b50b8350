"""A whole game turn by the keyboard alone, in headless Chromium at 1366x768, with what a screen reader hears.

A custom position (``ahd.core.positions``), both sides played by people, every die typed in (the panel's die
buttons): the Union marches from Cincinnati with one unit picked in the Units list, into the Confederates at
Lexington; in the battle the Confederacy fires at a target it chooses, then the Union; in round 2 the
Confederacy retreats to London (a lit box of the map); the Union promotes its unit that won (Enter on its box),
rolls for recruits and recruits at Cincinnati (Enter on the city, then the recruit's kind in the panel).
Only Tab, Shift+Tab, the arrow keys and Enter are pressed; after each step the page's live regions (the
log's new lines, the prompt, the status line) must have said what happened. The app is a notebook written to a
temporary folder and served by voila there (one server for the module), as a published folder is.
"""
from __future__ import annotations

import json
import subprocess
import sys

import nbformat
import pytest

playwright = pytest.importorskip("playwright.sync_api")

import serve  # noqa: E402
from serve import CHROMIUM_ARGS  # noqa: E402
from browser import chromium  # noqa: E402
from test_keyboard_browser import FOCUSED, keys_to  # noqa: E402

NOTEBOOK = """\
from ahd.core.positions import position_game
from widgets.app import GameApp
from widgets.model.session import Session

game = position_game([("union", "MF", "cincinnati", 2), ("confederate", "MF", "lexington", 2)],
                     turn=2, marches=1, dice="manual")
app = GameApp(Session(game, union="human", confederate="human", war_odds=False))
app"""

#: the accessible name of the focused element, roughly as a screen reader says it (a control's label, a
#: button's text)
NAME = """() => {
  const e = document.activeElement;
  if (!e) return "";
  const label = e.getAttribute("aria-label") || (e.labels && e.labels[0] && e.labels[0].textContent) || "";
  return (label || e.textContent || e.title || "").trim();
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("keyboard-turn")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(NOTEBOOK)])
    nbformat.write(nb, folder / "turn.ipynb")
    (folder / "voila.json").write_text(json.dumps({"VoilaExecutor": {"iopub_timeout": 60}}))
    port = serve.free_port()
    process = subprocess.Popen([sys.executable, "-m", "voila", "turn.ipynb", "--no-browser", f"--port={port}",
                                "--Voila.ip=127.0.0.1"], cwd=folder, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    serve.wait_for_voila(process, url)
    yield url
    serve.stop_process(process, timeout=15)


def tab_to(page, wanted, *, back: bool = False, presses: int = 200) -> str:
    """Press Tab (Shift+Tab with ``back``) until the focused control's name satisfies ``wanted`` (a string:
    equal to it; or a predicate); returns that name."""
    test = wanted if callable(wanted) else (lambda name: name == wanted)
    for _ in range(presses):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        name = page.evaluate(NAME)
        if test(name):
            return name
    raise AssertionError(f"Tab never reached {wanted!r}")


def to_map(page, *, back: bool = True) -> str:
    """Shift+Tab (or Tab) until a box of the map has the focus; returns the box."""
    for _ in range(200):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        box = page.evaluate(FOCUSED)
        if box:
            return box
    raise AssertionError("the map's boxes were never reached")


def go(page, start: str, goal: str) -> None:
    """The arrow keys from box ``start`` to box ``goal``."""
    for key in keys_to(start, goal):
        page.keyboard.press(key)
    assert page.evaluate(FOCUSED) == goal


#: Every text a live region of the page has held since: what a screen reader was given to say (a log line
#: leaves its region again after a few seconds)
LISTEN = """() => {
  window.ahdHeard = [];
  const note = (record) => {
    const node = record.target;
    const region = node && (node.nodeType === 1 ? node : node.parentElement);
    const live = region && region.closest('[aria-live]');
    if (!live) return;
    if (live.getAttribute('role') === 'log') {   // the log's region: each line added
      record.addedNodes.forEach((line) => line.textContent.trim() && window.ahdHeard.push(line.textContent.trim()));
    } else if (live.textContent.trim()) {
      window.ahdHeard.push(live.textContent.trim());
    }
  };
  new MutationObserver((records) => records.forEach(note))
    .observe(document.body, {childList: true, subtree: true, characterData: true});
}"""
HEARD = "(t) => window.ahdHeard.some(s => s.includes(t))"


def heard(page, text: str, timeout_ms: int = 30_000) -> None:
    """Wait until a live region of the page has said ``text``."""
    try:
        page.wait_for_function(HEARD, arg=text, timeout=timeout_ms)
    except Exception as error:  # noqa: BLE001 -- say what was said instead
        said = page.evaluate("() => [...new Set(window.ahdHeard)].slice(-6)")
        raise AssertionError(f"not said: {text!r}; the live regions said last {said}") from error


def press_button(page, name: str) -> None:
    """Tab to the button ``name`` (forwards) and press Enter."""
    tab_to(page, name)
    page.keyboard.press("Enter")


def roll(page, value: int, times: int = 1) -> None:
    for _ in range(times):
        press_button(page, str(value))
        page.wait_for_timeout(150)


def test_a_whole_turn_by_the_keyboard_alone(server):
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        page.route("https://**/*", lambda r: r.abort())
        serve.open_app(page, server, timeout_ms=120_000)
        page.evaluate(LISTEN)
        # the march: Cincinnati selected on the map, one unit picked in the Units list, Enter on Lexington
        box = to_map(page, back=False)
        go(page, box, "cincinnati")
        page.keyboard.press("Enter")
        heard(page, "Cincinnati selected")
        tab_to(page, lambda name: name.startswith("Units"))
        page.keyboard.press("ArrowDown")          # picks the first unit alone
        heard(page, "1 of 2 units of Cincinnati picked")
        go(page, to_map(page), "lexington")
        page.keyboard.press("Enter")
        heard(page, "Cincinnati → Lexington")
        press_button(page, "End this march")
        # the battle: the Confederates have one target (chosen for them); their two dice typed in (both miss)
        heard(page, "Roll the die: shot of militia infantry C-MF-01")
        roll(page, 6, 2)
        # the Union's unit fires at the target it chooses, in the panel
        tab_to(page, lambda n: "U-MF-01 fires at" in n and "C-MF-02" in n)
        page.keyboard.press("Enter")
        heard(page, "Roll the die: shot of militia infantry U-MF-01 at militia infantry C-MF-02")
        roll(page, 6)
        heard(page, "Retreat, bring in a reinforcement, or open fire (5.b)")  # round 2: the Confederacy's options
        # the retreat: Enter on London, lit on the map
        go(page, to_map(page), "london")
        page.keyboard.press("Enter")
        heard(page, "wins the battle at Lexington")
        heard(page, "Promote a unit that won the battle, or none (6.a)")
        # the promotion of the winner: Enter on Lexington
        go(page, "london", "lexington")
        page.keyboard.press("Enter")
        heard(page, "is promoted")
        # the Union's promotion segment: none; the recruitment roll typed in; a recruit at Cincinnati
        press_button(page, "No promotion")
        roll(page, 2)
        heard(page, "recruitment roll 2")
        go(page, to_map(page), "cincinnati")
        page.keyboard.press("Enter")
        heard(page, "2 choices in Cincinnati")
        press_button(page, "Recruit militia infantry at Cincinnati")
        heard(page, "Recruit: militia infantry U-MF-01 at Cincinnati (7.b)")
        # the end of the Union's half-turn: the control update, and the Confederacy is to move
        press_button(page, "End recruitment")
        heard(page, "Lexington passes from Confederate to Union control (9.a)")
        heard(page, "Confederate to move.")
        # each move was said as the log wrote it
        for line in ("Cincinnati → Lexington", "Round 1, Union fire: militia infantry U-MF-01 → militia infantry C-MF-02",
                     "Confederate retreats from Lexington to London and loses the battle (5.2.5)",
                     "The Union side wins the battle at Lexington (5.c)",
                     "militia infantry U-MF-01 in Lexington is promoted to veteran infantry U-FV-01",
                     "Union recruitment roll 2: up to 2 recruits (7.a)"):
            heard(page, line, timeout_ms=1000)
        said = page.evaluate("() => [...new Set(window.ahdHeard)]")
        print("\nsaid in the live regions:", json.dumps(said, ensure_ascii=False, indent=1))
        page.goto("about:blank")
        browser.close()
