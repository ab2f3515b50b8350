"""The command line: ``python -m ahd``."""
from __future__ import annotations

import io
import subprocess
import sys

import ahd
from ahd.cli import main


def run(*argv):
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_play_prints_the_course_and_the_outcome():
    code, text = run("play", "--scenario", "1861", "--union", "random", "--confederate", "random", "--seed", "1")
    assert code == 0
    assert "Turn 1 (July 1861)" in text
    assert "Outcome:" in text and "victory" in text


def test_play_short_and_novice_union(tmp_path):
    path = tmp_path / "g.json"
    code, text = run("play", "--scenario", "short", "--novice-union", "--seed", "3", "--quiet", "--save", str(path))
    assert code == 0
    assert "Outcome:" in text and "Turn 1 (July 1861)" not in text  # --quiet: no course of play
    game = ahd.load(path)
    assert "S-12" in game.options
    assert game.scenario.id == "short"
    assert game.is_over


def test_heuristic_players():
    code, text = run("play", "--scenario", "short", "--union", "heuristic", "--confederate", "heuristic",
                     "--seed", "4", "--quiet")
    assert code == 0 and "Outcome:" in text


def test_same_seed_same_output():
    assert run("play", "--seed", "5")[1] == run("play", "--seed", "5")[1]


def test_demo_and_bench():
    code, text = run("demo", "--seed", "2")
    assert code == 0 and "Outcome:" in text
    code, text = run("bench", "--games", "3")
    assert code == 0
    assert "legal_actions median" in text and "games/s" in text and "machine:" in text


def test_bad_arguments_give_a_message_not_a_traceback():
    result = subprocess.run([sys.executable, "-m", "ahd", "play", "--scenario", "1492"],
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert "unknown scenario" in result.stderr and "Traceback" not in result.stderr
    result = subprocess.run([sys.executable, "-m", "ahd", "play", "--union", "napoleon"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and "unknown player" in result.stderr and "Traceback" not in result.stderr


def test_odds_command():
    code, text = run("odds", "--attacker", "FV", "--defender", "MF:reduced")
    assert code == 0 and "attacker wins 87.5%" in text and "Exact odds" in text
    code, text = run("odds", "--attacker", "MF:reduced", "--defender", "MF:reduced", "--attacker-leaders", "3")
    assert code == 0 and "attacker wins 62.5%" in text  # 5/8 (AO-8.2.2, tests/test_odds.py)
    code, text = run("odds", "--attacker", "FV", "FV", "--defender", "MF", "MF", "--option", "A-7", "--option", "AO-8.1",
                     "--year", "1862", "--attacker-side", "confederate")
    assert code == 0 and "A-7 daily command limits, AO-8.1 battlefield morale: simulated only" in text
    assert run("odds", "--attacker", "FV", "--defender", "MF", "--option", "A-7", "--year", "1850")[0] == 2
    result = subprocess.run([sys.executable, "-m", "ahd", "odds", "--attacker", "ZZ", "--defender", "MF"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and "unknown unit type" in result.stderr and "Traceback" not in result.stderr


def test_search_player_and_bad_player_names(capsys):
    code, text = run("play", "--scenario", "short", "--union", "random", "--confederate",
                     "search:iterations=1,depth=0", "--seed", "2", "--quiet")
    assert code == 0 and "Outcome:" in text
    assert run("play", "--union", "napoleon", "--quiet")[0] == 2
    assert "unknown player 'napoleon'" in capsys.readouterr().err
    assert run("play", "--union", "search:iterations=x", "--quiet")[0] == 2
    assert "bad value for iterations" in capsys.readouterr().err


def test_odds_command_methods():
    code, text = run("odds", "--attacker", "FV", "--defender", "MF:reduced", "--method", "monte carlo")
    assert code == 0 and "Monte Carlo estimate:" in text and "200,000 simulated battles" in text
    code, text = run("odds", "--attacker", "FV", "--defender", "MF:crossing")
    assert code == 2


def test_options_lists_every_switch_and_preset_in_the_chosen_language(monkeypatch):
    from ahd.core import languages
    from ahd.core.options import PRESETS, SWITCHES
    monkeypatch.setenv("AHD_LANG", "en")
    # the environment's language, not one an earlier test chose for the process (widgets.play(lang=...))
    monkeypatch.setattr(languages, "_process_language", None)
    code, english = run("options")
    assert code == 0 and english.startswith("Rule switches (--option ID):")
    assert all(f"  {rule} " in english for rule in SWITCHES) and all(f"  {name} " in english for name in PRESETS)
    assert "Reinforcements never entrenched [on by default]" in english
    code, spanish = run("options", "--lang", "es")
    assert code == 0 and spanish.startswith("Opciones de regla (--option ID):")
    assert SWITCHES["H-1"].title_in("es") + " [activada por defecto]" in spanish
    assert "Reinforcements never entrenched" not in spanish and "Presets" not in spanish
    monkeypatch.setenv("AHD_LANG", "it")  # no --lang: the environment's language
    code, italian = run("options")
    assert code == 0 and "Combinazioni predefinite (--preset NOME):" in italian
    assert all(f"  {rule} " in italian for rule in SWITCHES)
