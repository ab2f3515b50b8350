"""Bad files: every loader answers a corpus of corrupt, truncated, foreign and hostile files with the
project's error (an AhdError) naming the file, the key or action and the problem, within a second;
never a raw Python exception, a hang or a silently ignored key (issue 18, item 2).

Loaders: ``ahd.load``, ``ahd.Game.from_json`` (text and bytes), ``ahd.new_game(path)``,
``ahd.load_scenario``, ``ahd.load_board``, and the command line's ``play --scenario FILE`` and
``validate FILE``. ``python tests/test_bad_files.py`` prints the table "bad file -> answer".
"""
from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ahd
from ahd.bots import make_bot
from ahd.cli import main as cli_main
from ahd.core.jsonfile import MAX_BYTES

ROOT = Path(__file__).resolve().parents[1]
SCENARIO_1862 = json.loads((ROOT / "ahd" / "data" / "scenarios" / "1862.json").read_text(encoding="utf-8"))
BOARD = json.loads((ROOT / "ahd" / "data" / "board.json").read_text(encoding="utf-8"))
LIMIT_SECONDS = 1.0


def _record() -> dict:
    game = ahd.new_game("1861", seed=3)
    bot = make_bot("random", 1)
    for _ in range(60):
        game.apply(bot.choose(game))
    return game.to_dict()


RECORD = _record()
MOVE = next(i for i, a in enumerate(RECORD["actions"]) if a["type"] == "move")
AUTO = next(i for i, a in enumerate(RECORD["actions"]) if a.get("auto"))


def dump(data) -> bytes:
    return json.dumps(data).encode()


def record(**changes) -> bytes:
    data = json.loads(json.dumps(RECORD))
    data.update(changes)
    return dump(data)


def record_action(index: int, action) -> bytes:
    data = json.loads(json.dumps(RECORD))
    data["actions"][index] = action
    return dump(data)


def scenario(mutate) -> bytes:
    data = json.loads(json.dumps(SCENARIO_1862))
    mutate(data)
    return dump(data)


def board(mutate) -> bytes:
    data = json.loads(json.dumps(BOARD))
    mutate(data)
    return dump(data)


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def _set(path: list, value):
    def mutate(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


# ---------------------------------------------------------------------------------------- the corpus
#: name -> (bytes, the text the answer must contain). Fed to every loader.
ANY_FILE = {
    "empty": (b"", "empty"),
    "blank": (b"  \n\t", "empty"),
    "truncated record": (dump(RECORD)[: len(dump(RECORD)) // 2], "line 1: "),
    "truncated scenario": (dump(SCENARIO_1862)[:700], "valid JSON"),
    "corrupt (a quote lost)": (dump(RECORD).replace(b'"seed"', b'"seed', 1), "valid JSON"),
    "binary (PNG)": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "binary data"),
    "binary (all bytes)": (bytes(range(256)) * 4, "binary data"),
    "not UTF-8 (Latin-1)": ('{"title": "Caf\xe9"}'.encode("latin-1"), "not UTF-8 text: byte 0xe9"),
    "UTF-16": ('{"format": "house-divided-scenario"}'.encode("utf-16"), "UTF-16 or UTF-32 text? save it as UTF-8"),
    "foreign JSON: array": (b"[1, 2, 3]", "expected a JSON object"),
    "foreign JSON: string": (b'"hello"', "expected a JSON object"),
    "foreign JSON: null": (b"null", "expected a JSON object"),
    "foreign JSON: package.json": (dump({"name": "left-pad", "version": "1.3.0"}), "format"),
    "nested 5,000 deep": (nested(5_000), "nested 5,000 deep; the limit is 20"),
    "nested 100,000 deep": (nested(100_000), "nested 100,000 deep; the limit is 20"),
    "objects nested 30,000 deep": (b'{"a":' * 30_000 + b"1" + b"}" * 30_000, "nested 30,000 deep"),
    "over 5 MB": (b'{"format": "x", "pad": "' + b"x" * MAX_BYTES + b'"}', "too large"),
    "NaN": (b'{"format": NaN}', "NaN is not a JSON number"),
    "Infinity by overflow": (b'{"format": 1e999}', "format: a number too large"),
    "5,000-digit number": (b'{"format": ' + b"9" * 5000 + b"}", "format: a number of 5,000 digits"),
    "duplicate key": (b'{"format": "house-divided-record", "format": "house-divided-scenario"}',
                      "format: duplicate key"),
}

#: Records: fed to ahd.load, Game.from_json (str and bytes) and validate.
RECORDS = {
    "move path of integers": (record_action(MOVE, dict(RECORD["actions"][MOVE], path=[1, 2])),
                              f"actions[{MOVE}].path: action {MOVE} of the record is malformed: action 'move': "
                              "path item 0 must be a string, got 1"),
    "move path of objects": (record_action(MOVE, dict(RECORD["actions"][MOVE], path=[{"box": "x"}])),
                             "path item 0 must be a string"),
    "nested lines": (record_action(MOVE, dict(RECORD["actions"][MOVE], lines=[["rail"]])),
                     "lines item 0 must be a string"),
    "volley targets of objects": (record_action(MOVE, {"type": "volley", "targets": [{"s": "U-MF-01"}]}),
                                  "targets item 0 must be a pair of strings"),
    "volley target triple": (record_action(MOVE, {"type": "volley", "targets": [["a", "b", "c"]]}),
                             "targets item 0 must be a pair of strings"),
    "5,000-digit seed": (dump(RECORD).replace(b'"seed": 3', b'"seed": ' + b"7" * 5000),
                         "seed: a number of 5,000 digits"),
    "seed 2**128": (record(seed=2 ** 128), "seed: expected an integer from 0 to 2**128 - 1"),
    "negative seed": (record(seed=-1), "seed: expected an integer"),
    "seed as text": (record(seed="3"), "seed: expected an integer"),
    "play_on: \"no\"": (record(play_on="no"), "play_on: expected true or false, got 'no'"),
    "dice: \"loaded\"": (record(dice="loaded"), "dice: expected one of 'auto', 'manual', got 'loaded'"),
    "misspelt key seeed": (record(seeed=3), "seeed: unknown key 'seeed' (did you mean 'seed'?)"),
    "duplicate key seed": (dump(RECORD)[:-1] + b', "seed": 4}', "seed: duplicate key"),
    "unknown rule switch": (record(options=["H-1", "A-22"]), "options[1]: unknown rule switch 'A-22' (did you mean"),
    "options not a list": (record(options="advanced"), "options: expected a list"),
    "scenario path in a record": (record(scenario="/etc/passwd"), "scenario: unknown scenario '/etc/passwd'"),
    "embedded scenario, bad box": (record(scenario=dict(SCENARIO_1862, units=[
        {"side": "union", "type": "MF", "box": "atlantis"}])), "scenario.units[0].box: unknown box 'atlantis'"),
    "embedded scenario, entrenced": (record(scenario=dict(SCENARIO_1862, units=[
        {"side": "union", "type": "MF", "box": "washington", "entrenced": True}])),
        "scenario.units[0].entrenced: unknown key 'entrenced' (did you mean 'entrenched'?)"),
    "actions not a list": (record(actions={"0": "roll"}), "actions: expected a list"),
    "action not an object": (record_action(MOVE, "move"), f"actions[{MOVE}]: action {MOVE} of the record is malformed"),
    "unknown action type": (record_action(MOVE, {"type": "teleport"}), "unknown action type 'teleport'"),
    "misspelt action field": (record_action(MOVE, {"type": "roll", "valeu": 3}), "unknown field 'valeu' (did you mean 'value'?)"),
    "auto on a move": (record_action(MOVE, dict(RECORD["actions"][MOVE], auto=True)),
                       f"actions[{MOVE}].auto: action {MOVE} of the record is malformed: only a die roll is automatic"),
    "auto: \"yes\"": (record_action(AUTO, dict(RECORD["actions"][AUTO], auto="yes")), "auto must be true or false"),
    "illegal action": (record_action(MOVE, {"type": "begin_march", "origin": "new_orleans"}),
                       f"actions[{MOVE}]: action {MOVE} of the record (March from New Orleans) is illegal"),
    "tampered automatic roll": (record_action(AUTO, dict(RECORD["actions"][AUTO],
                                                         value=1 + RECORD["actions"][AUTO]["value"] % 6)),
                                "does not match its seed"),
    "path of 100,000 boxes": (record_action(MOVE, dict(RECORD["actions"][MOVE], path=["washington"] * 100_000)),
                              "path has 100,000 items; at most 200"),
    "unit id of 1 MB": (record_action(MOVE, dict(RECORD["actions"][MOVE], unit="U" * 1_000_000)),
                        "a name of 1,000,000 characters"),
    "a scenario, not a record": (dump(SCENARIO_1862), "not a House Divided game record"),
    "version 2": (record(version=2), "version: unsupported record version 2"),
    "missing seed": (dump({k: v for k, v in RECORD.items() if k != "seed"}), "seed: the record lacks 'seed'"),
}

#: Scenarios: fed to new_game, load_scenario, play --scenario and validate.
SCENARIOS = {
    "count 20,000 (132 bytes)": (dump({"based_on": "1861", "units": [
        {"side": "union", "type": "FV", "box": "washington", "count": 20000}]}),
        "units[0].count: 20,000 counters: a side has at most 100"),
    "count 10,000,000": (scenario(lambda d: d["units"][0].update(count=10 ** 7)), "units[0].count: 10,000,000 counters"),
    "101 counters a side": (scenario(lambda d: d["units"].extend(
        [{"side": "confederate", "type": "FV", "box": "richmond", "count": 60}] * 2)), "counters on the map: a side has at most 100"),
    "militia beyond the counter mix": (scenario(lambda d: d["units"].append(
        {"side": "confederate", "type": "MF", "box": "atlanta", "count": 9})), "counter mix allows"),
    "count 0": (scenario(lambda d: d["units"][0].update(count=0)), "units[0].count: must be a positive integer"),
    "unit without a side": (scenario(lambda d: d["units"][0].pop("side")), "units[0].side: missing"),
    "unit side 7": (scenario(lambda d: d["units"][0].update(side=7)), "units[0].side: expected a string, got 7"),
    "count \"3\"": (scenario(lambda d: d["units"][0].update(count="3")), "units[0].count: must be a positive integer"),
    "count true": (scenario(lambda d: d["units"][0].update(count=True)), "units[0].count: must be a positive integer"),
    "entrenced: true": (scenario(lambda d: d["units"][0].update(entrenced=True)),
                        "units[0].entrenced: unknown key 'entrenced' (did you mean 'entrenched'?)"),
    "entrenched: \"yes\"": (scenario(lambda d: d["units"][0].update(entrenched="yes")), "units[0].entrenched: expected true or false"),
    "based_on with last_trun": (dump({"based_on": "1862", "id": "x", "last_trun": 30}),
                                "last_trun: unknown key 'last_trun' (did you mean 'last_turn'?)"),
    "based_on with contorl": (dump({"based_on": "1862", "id": "x", "contorl": {"union": ["louisville"]}}),
                              "contorl: unknown key 'contorl' (did you mean 'control'?)"),
    "based_on unknown": (dump({"based_on": "1865"}), "based_on: unknown scenario '1865'"),
    "duplicate key in a unit": (dump(SCENARIO_1862).replace(b'"count": 3', b'"count": 3, "count": 4', 1),
                                "duplicate key"),
    "control side misspelt": (scenario(lambda d: d.update(control={"confedrate": ["louisville"]})),
                              "control.confedrate: unknown key 'confedrate' (did you mean 'confederate'?)"),
    "control box twice": (scenario(lambda d: d.update(control={"union": ["louisville"], "neutral": ["louisville"]})),
                          "control.neutral[0]: box 'louisville' is already listed in control.union"),
    "control box not a string": (scenario(lambda d: d.update(control={"union": [7]})), "control.union[0]: expected a box id"),
    "leaders not a list": (scenario(lambda d: d.update(leaders={"lee": "richmond"})), "leaders: expected a list"),
    "leader twice": (scenario(lambda d: d.update(leaders=[{"name": "lee", "box": "richmond"}] * 2)),
                     "leaders[1].name: leader 'lee' listed twice"),
    "stated_maxima misspelt": (scenario(lambda d: d.update(stated_maxima={"union": 35, "confedrate": 27})),
                               "stated_maxima.confedrate: unknown key"),
    "score_turn without a table end": (dump({"format": "house-divided-scenario", "version": 1, "id": "x", "rule": "x",
                                             "title": "x", "start_turn": 1, "first_turn_marches": 2, "last_turn": 40,
                                             "end": "campaign", "score_turn": 17, "units": []}),
                                       "score_turn: only with \"end\": \"table\""),
    "description a number": (scenario(lambda d: d.update(description=7)), "description: expected a string"),
    "no format": (scenario(lambda d: d.pop("format")), "format: missing: not a scenario file"),
    "version \"1\"": (scenario(lambda d: d.update(version="1")), "version: expected an integer"),
    "start_turn 1e3": (scenario(lambda d: d.update(start_turn=1000.0)), "start_turn: expected an integer"),
    "a record, not a scenario": (dump(RECORD), "format: expected 'house-divided-scenario', got 'house-divided-record': not a scenario file"),
}

#: Boards: fed to load_board.
BOARDS = {
    "box key misspelt": (board(lambda d: d["boxes"][0].update(prot=True)),
                         "boxes[0].prot: unknown key 'prot' (did you mean 'port'?)"),
    "link key misspelt": (board(lambda d: d["links"][0].update(knd="rail")), "links[0].knd: unknown key"),
    "top-level key misspelt": (board(lambda d: d.update(water_boarders={})),
                               "water_boarders: unknown key 'water_boarders' (did you mean 'water_borders'?)"),
    "potomac: \"yes\"": (board(lambda d: d["links"][0].update(potomac="yes")), "links[0].potomac: expected true or false"),
    "lat as text": (board(lambda d: d["boxes"][0].update(lat="42.6")), "lat: expected int or float"),
    "board_xy of floats": (board(lambda d: d["boxes"][0].update(board_xy=[1.5, 2])), "board_xy: expected [x, y]"),
    "boxes not a list": (board(lambda d: d.update(boxes={})), "board.boxes: expected list"),
    "recruiting value 1,000,000": (board(lambda d: d["boxes"][0].update(union_recruit=10 ** 6)),
                                   "union_recruit: must be 0–9"),
}


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / (name.replace(" ", "_").replace('"', "").replace("/", "_").replace(":", "")[:40] + ".json")
    path.write_bytes(data)
    return path


def _answer(loader, arg) -> tuple[BaseException, float]:
    start = time.perf_counter()
    try:
        loader(arg)
    except BaseException as exc:  # noqa: BLE001 - the test is about which exception
        return exc, time.perf_counter() - start
    raise AssertionError(f"{loader.__name__} accepted the file")


def _check(exc: BaseException, seconds: float, expected: str, path: Path | None, error=ahd.AhdError) -> None:
    assert isinstance(exc, error), f"raw {type(exc).__name__}: {exc}"
    text = str(exc)
    assert expected in text, text
    if path is not None:
        assert str(path) in text, text
    assert seconds < LIMIT_SECONDS, f"{seconds:.2f} s"


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = cli_main(list(argv), out=out)
    return code, out.getvalue(), err.getvalue()


# ---------------------------------------------------------------------------------------- records
@pytest.mark.parametrize("name", list(ANY_FILE) + list(RECORDS))
def test_record_loaders_refuse_bad_files(tmp_path, name):
    data, expected = {**ANY_FILE, **RECORDS}[name]
    if name in ANY_FILE and expected in ("expected a JSON object", "format"):
        expected = "not a House Divided game record"
    path = _write(tmp_path, name, data)
    _check(*_answer(ahd.load, path), expected, path, ahd.RecordError)
    _check(*_answer(ahd.Game.from_json, data), expected, None, ahd.RecordError)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    _check(*_answer(ahd.Game.from_json, text), expected, None, ahd.RecordError)


# ---------------------------------------------------------------------------------------- scenarios
@pytest.mark.parametrize("name", list(ANY_FILE) + list(SCENARIOS))
def test_scenario_loaders_refuse_bad_files(tmp_path, name):
    data, expected = {**ANY_FILE, **SCENARIOS}[name]
    if name == "duplicate key":
        expected = "format: duplicate key"
    path = _write(tmp_path, name, data)
    _check(*_answer(ahd.new_game, str(path)), expected, path, ahd.DataFileError)
    _check(*_answer(ahd.load_scenario, path), expected, path, ahd.DataFileError)


# ---------------------------------------------------------------------------------------- boards
@pytest.mark.parametrize("name", list(ANY_FILE) + list(BOARDS))
def test_board_loader_refuses_bad_files(tmp_path, name):
    data, expected = {**ANY_FILE, **BOARDS}[name]
    if name in ANY_FILE and expected == "format" or name in ("truncated record", "corrupt (a quote lost)"):
        expected = ""  # a board has no "format"; these fail on its own keys
    path = _write(tmp_path, name, data)
    _check(*_answer(ahd.load_board, path), expected, path, ahd.DataFileError)


# ---------------------------------------------------------------------------------------- the command line
VALID_ELSEWHERE = ("a scenario, not a record", "a record, not a scenario")  # valid files of the other kind


@pytest.mark.parametrize("name", [n for n in list(ANY_FILE) + list(RECORDS) + list(SCENARIOS) if n not in VALID_ELSEWHERE])
def test_validate_names_file_key_and_problem(tmp_path, name):
    data, expected = {**ANY_FILE, **RECORDS, **SCENARIOS}[name]
    if name in ANY_FILE and expected in ("expected a JSON object", "format") or name == "no format":
        expected = "neither a scenario nor a game record"
    if name == "duplicate key":
        expected = "format: duplicate key"
    path = _write(tmp_path, name, data)
    start = time.perf_counter()
    code, out, err = _cli("validate", str(path))
    assert time.perf_counter() - start < LIMIT_SECONDS
    assert code == 1 and out.startswith(f"invalid: {path}: "), out + err
    assert expected in out, out


@pytest.mark.parametrize("name", ["nested 100,000 deep", "binary (PNG)", "UTF-16", "over 5 MB", "5,000-digit number"])
def test_play_with_a_bad_scenario_file_gives_a_message(tmp_path, name):
    path = _write(tmp_path, name, ANY_FILE[name][0])
    code, out, err = _cli("play", "--scenario", str(path), "--quiet")
    assert code == 2 and err.startswith(f"error: {path}: ") and "Traceback" not in err, err


@pytest.mark.parametrize("argv", [["validate"], ["play", "--scenario"]])
def test_the_command_line_never_prints_a_traceback_for_deep_nesting(tmp_path, argv):
    path = tmp_path / "deep.json"
    path.write_bytes(nested(100_000))
    result = subprocess.run([sys.executable, "-m", "ahd", *argv, str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode in (1, 2)
    assert "nested 100,000 deep; the limit is 20" in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


def test_validate_gives_a_one_line_summary_of_good_files(tmp_path):
    code, out, _ = _cli("validate", str(ROOT / "ahd" / "data" / "scenarios" / "1862.json"))
    assert code == 0 and out.count("\n") == 1
    assert "valid scenario '1862'" in out and "turns 8-40" in out
    path = tmp_path / "game.json"
    path.write_bytes(dump(RECORD))
    code, out, _ = _cli("validate", str(path))
    assert code == 0 and out.count("\n") == 1
    assert f"{path}: valid game record: scenario 1861, seed 3, {len(RECORD['actions'])} actions" in out
    based = tmp_path / "long.json"
    based.write_text(json.dumps({"based_on": "1862", "id": "1862-long", "last_turn": 40, "end": "campaign"}))
    code, out, _ = _cli("validate", str(based))
    assert code == 0 and "valid scenario '1862-long'" in out


def test_validate_refuses_other_json_and_places_that_are_not_files(tmp_path):
    code, out, _ = _cli("validate", str(ROOT / "ahd" / "data" / "board.json"))
    assert code == 1 and "format: neither a scenario nor a game record" in out
    code, out, _ = _cli("validate", str(tmp_path))
    assert code == 1 and f"invalid: {tmp_path}: <file>: cannot read: it is a directory" in out
    code, out, _ = _cli("validate", str(tmp_path / "missing.json"))
    assert code == 1 and "cannot read: No such file" in out
    if Path("/dev/zero").exists():  # a device is never read (it would never end)
        code, out, _ = _cli("validate", "/dev/zero")
        assert code == 1 and "not a regular file" in out


def test_python_m_ahd_validate(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(dump(RECORD))
    result = subprocess.run([sys.executable, "-m", "ahd", "validate", str(path)], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0 and "valid game record" in result.stdout


# ---------------------------------------------------------------------------------------- good files stay good
def test_a_byte_order_mark_is_accepted_by_every_record_loader(tmp_path):
    data = b"\xef\xbb\xbf" + dump(RECORD)
    path = tmp_path / "bom.json"
    path.write_bytes(data)
    games = [ahd.load(path), ahd.Game.from_json(data), ahd.Game.from_json(data.decode("utf-8"))]
    assert {len(g.history) for g in games} == {len(RECORD["actions"])}
    scenario_path = tmp_path / "bom-scenario.json"
    scenario_path.write_bytes(b"\xef\xbb\xbf" + dump(SCENARIO_1862))
    assert ahd.load_scenario(scenario_path).id == "1862"


def test_shipped_scenarios_and_a_long_record_load(tmp_path):
    for name in ("1861", "short", "1862", "1863", "1864"):
        assert ahd.load_scenario(name).id == name
    game = ahd.new_game("1864", seed=5)
    bot = make_bot("random", 5)
    while not game.is_over:
        game.apply(bot.choose(game))
    path = tmp_path / "long.json"
    game.save(path)
    assert ahd.load(path).outcome == game.outcome


# ---------------------------------------------------------------------------------------- actions
@pytest.mark.parametrize("build, field", [
    (lambda: ahd.BeginMarch(origin=["washington"]), "BeginMarch.origin"),
    (lambda: ahd.Move(unit=True, path=("washington", "baltimore"), lines=("rail",)), "Move.unit"),
    (lambda: ahd.Move("U-MF-01", ["washington", "baltimore"], ("rail",)), "Move.path"),
    (lambda: ahd.Move("U-MF-01", ("washington", 3), ("rail",)), "Move.path"),
    (lambda: ahd.Volley(((1, 2),)), "Volley.targets"),
    (lambda: ahd.Volley((("U-MF-01",),)), "Volley.targets"),
    (lambda: ahd.Roll("6"), "Roll.value"),
    (lambda: ahd.Roll(True), "Roll.value"),
    (lambda: ahd.Recruit(box=None, unit_type="MF"), "Recruit.box"),
    (lambda: ahd.LeaderMove("lee", ("richmond",), "rail"), "LeaderMove.lines"),
])
def test_action_constructors_check_their_fields(build, field):
    with pytest.raises(ahd.AhdError) as info:
        build()
    assert isinstance(info.value, (ValueError, TypeError))
    assert str(info.value).startswith(f"{field}: ")


def test_a_wrongly_typed_action_never_reaches_apply():
    game = ahd.new_game("1861", seed=1)
    with pytest.raises(ValueError, match="BeginMarch.origin: must be a string"):
        game.apply(ahd.BeginMarch(origin=["washington"]))
    assert ahd.Move("U-MF-01", ("washington", "baltimore"), ("rail",)).path == ("washington", "baltimore")


if __name__ == "__main__":  # the table of the report: bad file -> answer
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        for group, corpus, loader in (("record", {**ANY_FILE, **RECORDS}, ahd.load),
                                      ("scenario", SCENARIOS, ahd.load_scenario),
                                      ("board", BOARDS, ahd.load_board)):
            for name, (data, _) in corpus.items():
                path = _write(Path(folder), name, data)
                exc, seconds = _answer(loader, path)
                message = str(exc).replace(str(path), "FILE")
                print(f"| {group}: {name} | {type(exc).__name__}: {message[:150]} | {seconds * 1000:.0f} ms |")
