"""Command line: ``python -m ahd demo | play | simulate | odds | options | bench | validate | report``."""
from __future__ import annotations

import argparse
import json
import sys

from ..bots import make_bot, play
from ..core.errors import AhdError, DataFileError
from ..core import decisions
from ..core.game import Game, load, new_game
from ..core.i18n import LANGUAGE_NAMES, Msg, Msgn, N_, Num, _, check_language, language
from ..core.record import RECORD_FORMAT
from .translate import argparse_language, argv_language
from ..core.options import PRESETS, SWITCHES, Options, preset_text

BOTS = ("easy", "normal", "hard", "random", "heuristic", "search")
BOT_HELP = N_("a level easy, normal or hard, or random, heuristic or search (1 s per decision; settings after a "
            "colon, e.g. search:iterations=2 or search:seconds=0.5,candidates=4)")


def _language(value: str) -> str:
    """``--lang``: a language the game speaks ("es", "ES", "es_AR.UTF-8", "Español")."""
    try:
        return check_language(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _lang_help() -> str:
    return _("the language of the game's log and refusals: {choices}; default: the environment's locale "
             "(AHD_LANG, LANGUAGE, LC_ALL, LANG)").format(
        choices=", ".join(f"{code} ({name})" for code, name in LANGUAGE_NAMES.items()))


def _make_bot(name: str, seed: int):
    return make_bot(name, seed)


def _print_game(game: Game, quiet: bool, out, plans=()) -> None:
    if not quiet:
        notes = sorted(plans, key=lambda n: n.event)
        k = 0
        for i, event in enumerate(game.log):
            while k < len(notes) and notes[k].event <= i:  # a bot's plan, when it changed (not in the record)
                print(Msg("plan: {plan}", plan=notes[k]), file=out)
                k += 1
            print(event, file=out)
    if game.scenario_result:
        print(Msg("Scenario result: {result}", result=game.scenario_result), file=out)
    print(Msg("Outcome: {outcome}", outcome=game.outcome), file=out)
    print(Msg("Army maxima at the end: Union {union}, Confederacy {confederate}; {n} actions recorded",
              union=game.army_max("union"), confederate=game.army_max("confederate"), n=len(game.history)), file=out)


def cmd_play(args, out) -> int:
    options = Options.parse(args.preset)
    if args.novice_union:
        options = options.with_rule("S-12")
    for rule in args.option:
        options = options.with_rule(rule.upper())
    union, confederate = _make_bot(args.union, args.seed * 2 + 1), _make_bot(args.confederate, args.seed * 2 + 2)
    game = new_game(args.scenario, options=options, seed=args.seed, play_on=args.play_on)
    if options.to_list():
        print(Msg("{title}; rules on: {rules}", title=game.scenario.title_term, rules=", ".join(options.to_list())),
              file=out)
    else:
        print(Msg("{title}; rules on: basic only", title=game.scenario.title_term), file=out)
    plans: list = []
    play(game, union, confederate, plans=plans)
    _print_game(game, args.quiet, out, plans)
    if args.save:
        game.save(args.save)
        print(Msg("Game record saved to {path}", path=args.save), file=out)
    return 0


def cmd_demo(args, out) -> int:
    print(Msg("A House Divided — demo: the short game (July 1861 – June 1862), two computer players."), file=out)
    print(file=out)
    game = new_game("short", seed=args.seed)
    play(game, make_bot("heuristic", args.seed + 1), make_bot("heuristic", args.seed + 2))
    _print_game(game, False, out)
    return 0


def cmd_odds(args, out) -> int:
    from ..odds import odds
    options = Options.parse(args.preset)
    for rule in args.option:
        options = options.with_rule(rule.upper())
    kwargs = dict(round=args.round, firing=args.firing, options=options,
                  attacker_retreat=args.attacker_retreat, defender_retreat=args.defender_retreat,
                  attacker_leaders=args.attacker_leaders, defender_leaders=args.defender_leaders,
                  year=args.year, attacker_side=args.attacker_side)
    if args.method == "auto":
        result = odds(args.attacker, args.defender, samples=200_000, seed=1, max_states=200_000, **kwargs)
    else:
        result = odds(args.attacker, args.defender, method=args.method, samples=200_000, seed=1, **kwargs)
    if result.method == "exact":
        print(Msg("Exact odds ({n} battle states):", n=Num(result.states)), file=out)
    else:
        from ..odds import not_modelled
        simulated = not_modelled(options) if args.method == "auto" else []
        if simulated:
            print(Msg("Monte Carlo estimate ({rules}: simulated only):", rules=", ".join(map(str, simulated))), file=out)
        elif args.method == "auto":
            print(Msg("Monte Carlo estimate (too large for exact odds):"), file=out)
        else:
            print(Msg("Monte Carlo estimate:"), file=out)
    print(f"  {result}", file=out)
    return 0


def cmd_options(args, out) -> int:
    """Every rule switch and preset, in the chosen language (``--lang``, else the environment's)."""
    print(_("Rule switches (--option ID):"), file=out)
    for rule, switch in SWITCHES.items():
        default = " [" + _("on by default") + "]" if switch.default else ""
        print(f"  {rule:<7} {switch.title_in()}{default}: {switch.text_in()}", file=out)
    print("\n" + _("Presets (--preset NAME):"), file=out)
    for name, rules in PRESETS.items():
        print(f"  {name:<16} {preset_text(name)} ({', '.join(rules)})", file=out)
    return 0


def cmd_simulate(args, out) -> int:
    from ..analysis.simulate import simulate
    options = Options.parse(args.preset)
    for rule in args.option:
        options = options.with_rule(rule.upper())

    def progress(done: int, total: int) -> None:
        if not args.quiet:
            print(f"\r{done}/{total} games", end="", file=sys.stderr, flush=True)
    results = simulate(args.n, scenario=args.scenario, options=options, union=args.union,
                       confederate=args.confederate, seed=args.seed, workers=args.workers, progress=progress)
    if not args.quiet:
        print(file=sys.stderr)
    print(results.summary(), file=out)
    return 0


def cmd_bench(args, out) -> int:
    from ..analysis.bench import run, run_bots, run_odds
    if args.odds:
        run_odds(out=out)
    elif args.bots:
        run_bots(games=args.strength_games, search_games=args.search_games, search=args.search,
                 workers=args.workers, throughput_games=args.throughput_games, timing_games=args.timing_games,
                 seed=args.seed, out=out)
    else:
        run(games=args.games, out=out)
    return 0


def cmd_validate(args, out) -> int:
    """Is FILE a valid scenario or game record (told apart by its "format")? 0 and a summary, or 1 and
    the loader's message naming the file, the key or action and the problem; never a traceback."""
    from ..core.jsonfile import JsonProblem, parse, read_file
    from ..core.scenario import FORMAT as SCENARIO_FORMAT, scenario_from_dict
    path = args.file
    try:
        try:
            data = parse(read_file(path))
        except JsonProblem as exc:
            raise DataFileError(path, exc.key, exc.problem) from None
        kind = data.get("format") if isinstance(data, dict) else None
        if kind == RECORD_FORMAT:
            game = load(path)
            state = (Msg("over: {outcome}", outcome=game.outcome) if game.is_over
                     else Msg("now {turn}, {side} half-turn, {decision}: {prompt}", turn=game.turn,
                              side=game.phasing, decision=decisions.label(game.decision),
                              prompt=decisions.prompt(game)))
            print(Msgn("{path}: valid game record: scenario {scenario}, seed {seed}, {n} action; {state}",
                       "{path}: valid game record: scenario {scenario}, seed {seed}, {n} actions; {state}",
                       n=len(game.history), path=str(path), scenario=game.scenario.id, seed=str(game.seed),
                       state=state), file=out)
        elif kind == SCENARIO_FORMAT or isinstance(data, dict) and "based_on" in data:
            scenario = scenario_from_dict(data, str(path))
            print(Msgn("{path}: valid scenario {id} ({title}): turns {start}-{last}, end {end}, {n} counter on the map",
                       "{path}: valid scenario {id} ({title}): turns {start}-{last}, end {end}, {n} counters on the map",
                       n=len(scenario.units), path=str(path), id=repr(scenario.id), title=scenario.title_term,
                       start=scenario.start_turn, last=scenario.last_turn, end=scenario.end), file=out)
        else:
            if kind is not None:
                raise DataFileError(path, "format", Msg("neither a scenario nor a game record: expected \"format\": "
                                                        "{scenario} or {record}, got {value}",
                                                        scenario=json.dumps(SCENARIO_FORMAT), record=json.dumps(RECORD_FORMAT),
                                                        value=repr(kind)))
            raise DataFileError(path, "format", Msg("neither a scenario nor a game record: expected \"format\": "
                                                    "{scenario} or {record}, it has none",
                                                    scenario=json.dumps(SCENARIO_FORMAT), record=json.dumps(RECORD_FORMAT)))
    except AhdError as exc:
        print(Msg("invalid: {error}", error=str(exc)), file=out)
        return 1
    except Exception as exc:  # a bug of the loader: still a message, not a traceback
        error = f"{type(exc).__name__}: {exc}"
        print(Msg("invalid: {path}: could not be checked ({error})", path=str(path), error=error), file=out)
        return 1
    return 0


def cmd_report(args, out) -> int:
    """Write the debrief of a game record as one standalone HTML page (``ahd.analysis.debrief``); given
    several records, the class summary of them all (``ahd.analysis.class_summary``). A bad record: exit 1
    and one line naming the file, the key and the problem; never a traceback."""
    from pathlib import Path

    from ..analysis.class_summary import render_summary, summarize
    from ..analysis.debrief import debrief
    from ..analysis.debrief_html import render_debrief
    from ..core.i18n import get_language
    records = args.record
    target = Path(args.out) if args.out else Path(records[0]).with_suffix(".html")
    try:
        if len(records) == 1:
            page = render_debrief(debrief(records[0]), get_language())
        else:
            summary = summarize((record, record) for record in records)
            for name, problem in summary.problems:
                print(f"skipped: {problem}", file=sys.stderr)
            page = render_summary(summary, get_language())
    except AhdError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug of the debrief: still a message, not a traceback
        print(f"error: {records[0]}: could not make its debrief ({type(exc).__name__}: {exc})", file=sys.stderr)
        return 1
    try:
        target.write_text(page, encoding="utf-8")
    except OSError as exc:
        print(f"error: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    what = f"Debrief of {records[0]}" if len(records) == 1 else f"Class summary of {len(records)} records"
    print(f"{what} written to {target}", file=out)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The command line, its help in the current language (``main`` sets it from ``--lang``)."""
    bot_help, lang_help = _(BOT_HELP), _lang_help()
    parser = argparse.ArgumentParser(prog="python -m ahd", description=_("A House Divided rules engine"))
    sub = parser.add_subparsers(dest="command", required=True, title=_("commands"))
    p = sub.add_parser("play", help=_("play a game between computer players and print its course"))
    p.add_argument("--scenario", default="1861",
                   help=_("1861, short, 1862, 1863, 1864, or a scenario file (default 1861)"))
    p.add_argument("--union", default="random", help=_("player for the Union: {bots}").format(bots=bot_help))
    p.add_argument("--confederate", default="random", help=_("player for the Confederacy: {bots}").format(bots=bot_help))
    p.add_argument("--seed", type=int, default=1, help=_("seed of the dice and the players (default 1)"))
    p.add_argument("--preset", default="basic", help=_("option preset: {presets}").format(presets=", ".join(PRESETS)))
    p.add_argument("--option", action="append", default=[], metavar="ID",
                   help=_("turn on a rule switch by its rule ID (repeatable); see 'options'"))
    p.add_argument("--novice-union", action="store_true", help=_("inexperienced Union player (S-12)"))
    p.add_argument("--play-on", action="store_true",
                   help=_("year scenarios: score at the scenario's end, then play on to turn 40 (S-0)"))
    p.add_argument("--quiet", action="store_true", help=_("print only the outcome"))
    p.add_argument("--save", help=_("write the game record to this file"))
    p.add_argument("--lang", type=_language, default=None, metavar="LANG", help=lang_help)
    p.set_defaults(func=cmd_play)
    d = sub.add_parser("demo", help=_("watch a short game between two random players"))
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--lang", type=_language, default=None, metavar="LANG", help=lang_help)
    d.set_defaults(func=cmd_demo)
    s = sub.add_parser("simulate", help=_("play many games between computer players and report win rates"))
    s.add_argument("-n", type=int, default=100, help=_("number of games (default 100)"))
    s.add_argument("--scenario", default="1861")
    s.add_argument("--union", default="heuristic", help=bot_help)
    s.add_argument("--confederate", default="heuristic", help=bot_help)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--workers", type=int, default=1, help=_("processes to use (default 1)"))
    s.add_argument("--preset", default="basic")
    s.add_argument("--option", action="append", default=[], metavar="ID")
    s.add_argument("--quiet", action="store_true", help=_("no progress display"))
    s.add_argument("--lang", type=_language, default=None, metavar="LANG", help=lang_help)
    s.set_defaults(func=cmd_simulate)
    d2 = sub.add_parser("odds", help=_("odds of a battle, e.g.: odds --attacker FV FV MF:crossing --defender MF:entrenched"))
    d2.add_argument("--attacker", nargs="+", required=True, metavar="UNIT",
                    help=_("attacking units: MF, FV, FS, MC, CV, CS, with :reduced / :entrenched / :crossing"))
    d2.add_argument("--defender", nargs="+", required=True, metavar="UNIT", help=_("defending units, same form"))
    d2.add_argument("--round", type=int, default=1)
    d2.add_argument("--firing", default="defender", choices=("attacker", "defender"))
    d2.add_argument("--attacker-retreat", default="never", choices=("never", "outnumbered"))
    d2.add_argument("--defender-retreat", default="never", choices=("never", "outnumbered"))
    d2.add_argument("--attacker-leaders", type=int, default=0, metavar="POINTS",
                    help=_("summed value of the attacker's leaders present (AO-8.2.2), e.g. 3 for Lee"))
    d2.add_argument("--defender-leaders", type=int, default=0, metavar="POINTS", help=_("the same for the defender"))
    d2.add_argument("--year", type=int, default=1861, help=_("for A-7 (T-4 command) and AO-8.1 (militia morale)"))
    d2.add_argument("--attacker-side", default="union", choices=("union", "confederate"), help=_("for A-7 (T-4 column)"))
    d2.add_argument("--method", default="auto", choices=("auto", "exact", "monte carlo"),
                    help=_("exact odds, Monte Carlo, or auto: exact up to 200,000 battle states (default)"))
    d2.add_argument("--preset", default="basic")
    d2.add_argument("--option", action="append", default=[], metavar="ID")
    d2.add_argument("--lang", type=_language, default=None, metavar="LANG", help=lang_help)
    d2.set_defaults(func=cmd_odds)
    o = sub.add_parser("options", help=_("list every rule switch and preset"))
    o.add_argument("--lang", type=_language, default=None, metavar="LANG", help=lang_help)
    o.set_defaults(func=cmd_options)
    b = sub.add_parser("bench", help=_("measure engine speed and print the figures"))
    b.add_argument("--games", type=int, default=200, help=_("random games to time (default 200)"))
    b.add_argument("--odds", action="store_true", help=_("time the battle odds instead of the engine"))
    b.add_argument("--bots", action="store_true",
                   help=_("bot strength (95%% intervals), heuristic game time, throughput, war-odds latency and "
                         "calibration"))
    b.add_argument("--strength-games", type=int, default=40, help=_("--bots: heuristic-vs-random games per seat"))
    b.add_argument("--search-games", type=int, default=20, help=_("--bots: search-vs-heuristic games per seat (0: skip)"))
    b.add_argument("--search", default="search:iterations=2", help=_("--bots: the search player's settings"))
    b.add_argument("--throughput-games", type=int, default=40,
                   help=_("--bots: heuristic games timed for the 1,000-game figure (1000 = measure it fully)"))
    b.add_argument("--timing-games", type=int, default=10, help=_("--bots: heuristic games timed one by one"))
    b.add_argument("--seed", type=int, default=1, help=_("--bots: seed of the games (default 1)"))
    b.add_argument("--workers", type=int, default=2, help=_("--bots: processes (default 2)"))
    b.set_defaults(func=cmd_bench)
    v = sub.add_parser("validate", help=_("check a scenario file or a game record: a summary (exit 0) or what is "
                                          "wrong (exit 1)"))
    v.add_argument("file", metavar="FILE", help=_("a scenario (.json) or a saved game record"))
    v.add_argument("--lang", type=_language, default=None, metavar="LANG",
                   help=_("the language of a record's outcome, turn and refusals; default: the environment's locale"))
    v.set_defaults(func=cmd_validate)
    r = sub.add_parser("report", help=_("write the debrief of a game record (its turning points beside the real "
                                        "war, charts, board pictures, questions) as one printable HTML file"))
    r.add_argument("record", nargs="+", help=_("a saved game record (.json), finished or not; several: the class "
                                               "summary of them all (who won, when Richmond and Atlanta fell)"))
    r.add_argument("--out", metavar="FILE.html", default=None,
                   help=_("where to write it (default: the record's name with .html)"))
    r.add_argument("--lang", type=_language, default=None, metavar="LANG",
                   help=_("the language of the debrief; default: the environment's locale"))
    r.set_defaults(func=cmd_report)
    return parser


def main(argv: list[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    with language(argv_language(argv)), argparse_language():  # --help and argparse's errors in --lang's language
        args = build_parser().parse_args(argv)
    with language(getattr(args, "lang", None)):  # None: the environment's locale (or ahd.set_language)
        try:
            return args.func(args, out)
        except (AhdError, ValueError) as exc:
            print(Msg("error: {error}", error=str(exc)), file=sys.stderr)
            return 2
        except OSError as exc:  # e.g. --save to a folder that does not exist
            error = f"{exc.filename or ''}: {exc.strerror or exc}"
            print(Msg("error: {error}", error=error), file=sys.stderr)
            return 2
