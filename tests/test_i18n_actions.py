"""Actions say themselves in the player's language (issue 16).

Each action's text (buttons, refusals) is a lazy message: the same action reads in English, or in
Spanish with a catalog, with box names and unit types in the language's form, while its record form
(``repr``, ``to_dict``) holds no word of any language.
"""
from __future__ import annotations

import sys
from dataclasses import fields
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file

import ahd
from ahd.core import actions as A
from ahd.core.errors import IllegalActionError
from ahd.core.i18n import Joined, Msg, Term, language
from ahd.core.units import UnitName, describe_unit_id

from i18n_catalogs import compile_catalog, use_catalogs

ROOT = Path(__file__).resolve().parent.parent

#: One instance of every kind of action, with the English text it must keep (tests elsewhere and
#: saved notebooks read these texts).
SAMPLES: dict[type, tuple[A.Action, str]] = {
    A.Roll: (A.Roll(4), "Roll a 4"),
    A.Starve: (A.Starve("U-MF-03"), "Out of supply: lose militia infantry U-MF-03"),
    A.BeginMarch: (A.BeginMarch("new_orleans"), "March from New Orleans"),
    A.Move: (A.Move("U-FV-01", ("new_orleans", "baton_rouge", "natchez"), ("river", "river")),
             "Move veteran infantry U-FV-01: New Orleans → Baton Rouge → Natchez by river"),
    A.Entrench: (A.Entrench("C-FS-02"), "Entrench crack infantry C-FS-02"),
    A.EndMarch: (A.EndMarch(), "End this march"),
    A.NavalMove: (A.NavalMove("U-FV-01", "new_orleans"), "Naval move: veteran infantry U-FV-01 by sea to New Orleans"),
    A.Invade: (A.Invade("U-CV-02", "new_orleans"),
               "Naval invasion: veteran cavalry U-CV-02 from Washington to New Orleans"),
    A.EndMovement: (A.EndMovement(), "End movement (unused marches lapse)"),
    A.PlaceLeader: (A.PlaceLeader("grant", "new_orleans"), "Place Grant at New Orleans"),
    A.LeaderMove: (A.LeaderMove("lee", ("richmond", "washington"), ("road", "rail")),
                   "Lee rides alone: Richmond → Washington by rail and road"),
    A.LeaderFollow: (A.LeaderFollow("grant", "U-MC-01"), "Grant goes with militia cavalry U-MC-01"),
    A.LeaderReinforce: (A.LeaderReinforce("lee"), "Lee joins the battle"),
    A.LeaderPoint: (A.LeaderPoint("lee", "X-FV-01"), "Lee gives +1 to foreign veteran infantry X-FV-01"),
    A.Contain: (A.Contain("new_orleans"), "Contain the Union garrison at New Orleans (no battle)"),
    A.Assault: (A.Assault("new_orleans"), "Attack the Union garrison at New Orleans"),
    A.BreakOut: (A.BreakOut("new_orleans"), "Break out of New Orleans (a battle; costs a march)"),
    A.ChooseBattle: (A.ChooseBattle("richmond"), "Fight the battle at Richmond"),
    A.CavalryRetreat: (A.CavalryRetreat("richmond"), "Cavalry withdraws to Richmond before the battle"),
    A.HoldGround: (A.HoldGround(), "Stand and fight"),
    A.Retreat: (A.Retreat("new_orleans"), "Retreat to New Orleans"),
    A.Evacuate: (A.Evacuate(), "Evacuate by sea to Washington"),
    A.Reinforce: (A.Reinforce("C-CS-01"), "Reinforce with crack cavalry C-CS-01"),
    A.OpenFire: (A.OpenFire(), "Open fire"),
    A.ChooseFirer: (A.ChooseFirer("C-CD-01"), "coastal defence C-CD-01 fires this round (A-7)"),
    A.FireChosen: (A.FireChosen(), "Fire with the chosen units only"),
    A.Target: (A.Target("U-FV-01", "C-MF-02"), "veteran infantry U-FV-01 fires at militia infantry C-MF-02"),
    A.FireAuto: (A.FireAuto(), "Fire: spread evenly"),
    A.Volley: (A.Volley((("U-FV-01", "C-MF-02"), ("U-MF-03", "C-MF-02"))), "Fire: U-FV-01 at C-MF-02; U-MF-03 at C-MF-02"),
    A.Rally: (A.Rally("C-FV-04"), "Rally veteran infantry C-FV-04"),
    A.NoRally: (A.NoRally(), "No rally"),
    A.Promote: (A.Promote("U-MF-03"), "Promote militia infantry U-MF-03"),
    A.NoPromotion: (A.NoPromotion(), "No promotion"),
    A.Recruit: (A.Recruit("new_orleans", "MC"), "Recruit militia cavalry at New Orleans"),
    A.EndRecruitment: (A.EndRecruitment(), "End recruitment"),
}

#: A tiny Spanish catalog: only what the tests below read.
SPANISH = [
    ("box", "New Orleans", "Nueva Orleans"),
    ("unit", "veteran infantry", "infantería veterana"),
    ("unit", "militia cavalry", "caballería de milicia"),
    ("unit", "coastal defence", "defensa costera"),
    ("line", "river", "río"),
    ("line", "rail", "ferrocarril"),
    ("line", "road", "carretera"),
    (None, "{kind} {id}", "{kind} {id}"),
    (None, "foreign {kind} {id}", "{kind} extranjera {id}"),
    (None, "{lines} and {line}", "{lines} y {line}"),
    (None, "March from {box}", "Marcha desde {box}"),
    (None, "Move {unit}: {path} by {lines}", "Mover {unit}: {path} por {lines}"),
    (None, "{leader} rides alone: {path} by {lines}", "{leader} cabalga solo: {path} por {lines}"),
    (None, "Naval move: {unit} by sea to {box}", "Movimiento naval: {unit} por mar a {box}"),
    (None, "Recruit {kind} at {box}", "Reclutar {kind} en {box}"),
    (None, "Fire: {targets}", "Fuego: {targets}"),
    (None, "{shooter} at {target}", "{shooter} contra {target}"),
    (None, "{leader} gives +1 to {unit}", "{leader} da +1 a {unit}"),
    (None, "Roll a {value}", "Sacar un {value}"),
    (None, "illegal action {action}: {text}", "acción ilegal {action}: {text}"),
]


def all_action_classes() -> list[type]:
    """Every subclass of Action, at any depth (the classes their modules define: ``dataclass(slots=True)``
    leaves the class it replaced behind as a subclass until it is collected)."""
    found, todo = [], [A.Action]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found and vars(sys.modules[sub.__module__]).get(sub.__qualname__) is sub:
                found.append(sub)
                todo.append(sub)
    return found


@pytest.fixture
def spanish(tmp_path, monkeypatch):
    """The engine's Spanish catalog replaced by :data:`SPANISH` (compiled with Babel into ``tmp_path``)."""
    compile_catalog(tmp_path, "ahd", SPANISH)
    with use_catalogs(monkeypatch, engine=tmp_path):
        yield "es"


def test_every_action_class_has_its_own_message_and_a_sample():
    classes = all_action_classes()
    assert set(classes) == set(A.ACTION_TYPES.values()) == set(SAMPLES)
    for cls in classes:
        assert "message" in vars(cls), f"{cls.__name__} says nothing of its own"
        assert callable(getattr(cls, "__msg__"))


@pytest.mark.parametrize("cls", list(SAMPLES), ids=lambda cls: cls.__name__)
def test_the_english_text_is_unchanged_and_is_the_message_in_english(cls):
    action, english = SAMPLES[cls]
    with language("en"):
        assert str(action) == english
        assert action.__msg__("en") == english
        assert isinstance(action.message(), Msg)
        assert action.message().render("en") == english


@pytest.mark.parametrize("cls", list(SAMPLES), ids=lambda cls: cls.__name__)
def test_the_message_keeps_names_as_parameters_and_the_record_form_is_unchanged(cls):
    action, _english = SAMPLES[cls]
    msgid = action.message().msgid
    for f in fields(action):  # no unit id, box id or box name baked into the text to translate
        values = getattr(action, f.name)
        for value in (values if isinstance(values, tuple) else (values,)):
            for text in (value if isinstance(value, tuple) else (value,)):
                text = str(text)
                assert text not in msgid and ahd.core.board.default_board().name(text) not in msgid, (msgid, text)
    assert hash(action) == hash(type(action)(**{f.name: getattr(action, f.name) for f in fields(action)}))
    assert not hasattr(action, "__dict__")  # still a slotted frozen dataclass: no new fields, no new state
    assert eval(repr(action), vars(A)) == action  # repr still evaluates to the action
    assert "Msg" not in repr(action) and "Term" not in repr(action)
    assert A.action_from_dict(action.to_dict()) == action
    assert set(action.to_dict()) == {"type"} | {f.name for f in fields(action)}


def test_reprs_are_those_records_and_debugging_read():
    assert repr(A.BeginMarch("richmond")) == "BeginMarch(origin='richmond')"
    assert repr(A.Move("U-MF-03", ("richmond", "petersburg"), ("rail",))) == \
        "Move(unit='U-MF-03', path=('richmond', 'petersburg'), lines=('rail',))"
    assert repr(A.EndMarch()) == "EndMarch()"


def collect(value, found):
    """Every (context, msgid) a message would look up, nested parameters included (box names aside:
    the catalogs take those from the board's data)."""
    if isinstance(value, Msg):
        found.add((value.context, value.msgid))
        for param in value.params.values():
            collect(param, found)
    elif isinstance(value, Term):
        if value.context != "box":
            found.add((value.context, value.text))
    elif isinstance(value, UnitName):
        collect(value.message(), found)
    elif isinstance(value, Joined):  # a path or a volley's shots
        for item in value.parts:
            collect(item, found)


def test_every_message_of_an_action_is_found_by_the_catalog_extraction():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from make_catalogs import KEYWORDS, data_terms
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    extracted = set()
    for path in (ROOT / "ahd" / "core" / "actions.py", ROOT / "ahd" / "core" / "units.py", ROOT / "ahd" / "core" / "board.py"):
        for _line, message, _comments, context in extract_from_file("python", str(path), keywords=KEYWORDS):
            extracted.add((context, message if isinstance(message, str) else message[0]))
    extracted |= {(context, text) for context, text, _where in data_terms()}
    needed = set()
    for action, _english in SAMPLES.values():
        collect(action.message(), needed)
    assert ("line", "rail") in needed and (None, "{lines} and {line}") in needed
    assert needed <= extracted, f"not in the catalogs: {sorted(needed - extracted, key=str)}"


def test_unit_names_from_ids():
    assert describe_unit_id("U-MF-03") == "militia infantry U-MF-03"
    assert describe_unit_id("X-FV-01") == "foreign veteran infantry X-FV-01"
    assert describe_unit_id("U-CD-2") == "coastal defence U-CD-2"
    assert describe_unit_id("not-a-unit") == "not-a-unit"
    assert type(describe_unit_id("U-MF-03")) is str
    with language("en"):
        assert str(UnitName("C-CS-01")) == "crack cavalry C-CS-01"
        assert f"{UnitName('C-CS-01'):>25}" == "    crack cavalry C-CS-01"
    assert UnitName("U-MF-03") == UnitName("U-MF-03") and len({UnitName("U-MF-03"), UnitName("U-MF-03")}) == 1
    assert repr(UnitName("U-MF-03")) == "UnitName('U-MF-03')"


def test_unit_names_in_spanish(spanish):
    assert UnitName("U-FV-01").__msg__("es") == "infantería veterana U-FV-01"
    assert UnitName("X-FV-01").__msg__("es") == "infantería veterana extranjera X-FV-01"
    assert UnitName("C-CD-01").__msg__("es") == "defensa costera C-CD-01"
    assert UnitName("U-MC-01").__msg__("es") == "caballería de milicia U-MC-01"
    assert UnitName("U-ZZ-9").__msg__("es") == "U-ZZ-9"
    assert describe_unit_id("U-FV-01") == "veteran infantry U-FV-01"  # English for its old callers
    with language("es"):
        assert str(UnitName("U-FV-01")) == "infantería veterana U-FV-01"
        assert describe_unit_id("U-FV-01") == "veteran infantry U-FV-01"


def test_actions_read_in_spanish_with_translated_box_names(spanish):
    expected = {
        A.BeginMarch("new_orleans"): "Marcha desde Nueva Orleans",
        A.Move("U-FV-01", ("new_orleans", "baton_rouge", "natchez"), ("river", "river")):
            "Mover infantería veterana U-FV-01: Nueva Orleans → Baton Rouge → Natchez por río",
        A.LeaderMove("lee", ("richmond", "washington"), ("road", "rail")):
            "Lee cabalga solo: Richmond → Washington por ferrocarril y carretera",
        A.NavalMove("U-FV-01", "new_orleans"): "Movimiento naval: infantería veterana U-FV-01 por mar a Nueva Orleans",
        A.Recruit("new_orleans", "MC"): "Reclutar caballería de milicia en Nueva Orleans",
        A.Volley((("U-FV-01", "C-MF-02"), ("U-MF-03", "C-MF-02"))): "Fuego: U-FV-01 contra C-MF-02; U-MF-03 contra C-MF-02",
        A.LeaderPoint("lee", "X-FV-01"): "Lee da +1 a infantería veterana extranjera X-FV-01",
        A.Roll(4): "Sacar un 4",
    }
    for action, text in expected.items():
        english = SAMPLES[type(action)][1] if SAMPLES[type(action)][0] == action else None
        assert action.__msg__("es") == text
        with language("es"):
            assert str(action) == text
        with language("en"):
            assert str(action) != text
            if english is not None:
                assert str(action) == english
    # a message untranslated in the catalog still says the box in Spanish
    assert A.Retreat("new_orleans").__msg__("es") == "Retreat to Nueva Orleans"
    assert A.Invade("U-FV-01", "new_orleans").__msg__("es") == \
        "Naval invasion: infantería veterana U-FV-01 from Washington to Nueva Orleans"


def test_an_action_inside_a_message_and_a_refusal_reads_in_the_language(spanish):
    shown = Msg("You chose: {action}", action=A.BeginMarch("new_orleans"))
    assert shown.render("es") == "You chose: Marcha desde Nueva Orleans"
    assert shown.render("en") == "You chose: March from New Orleans"
    game = ahd.new_game("1861", seed=1)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(A.BeginMarch("new_orleans"))
    assert refused.value.action == A.BeginMarch("new_orleans")
    assert refused.value.text("en").startswith("illegal action March from New Orleans: ")
    assert refused.value.text("es").startswith("acción ilegal Marcha desde Nueva Orleans: ")
