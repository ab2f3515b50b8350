"""Widget traffic of the app, counted in the kernel: what the first render and a march send.

    .venv/bin/python scripts/widget_traffic.py [--scenario 1861] [--war-odds]

Builds the app as the app notebook does (``widgets.play``), with every widget message the kernel would
send counted at the comm (a message per widget opened, per state update, per custom message; its
bytes as JSON plus binary buffers), then plays a march by the session's gestures (select a box, pick
a destination, end the march) and counts again. Also prints the widgets alive by kind, and the time the
server spent on each gesture. A developer's measurement (English only).
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import comm  # noqa: E402

from ahd.analysis.bench import machine  # noqa: E402

SENT = {"messages": 0, "bytes": 0}
DETAIL: list[tuple[str, str]] = []  # (comm id, what changed) of each message since the last _take


def _count(self, msg_type, data=None, metadata=None, buffers=None, **keys) -> None:
    SENT["messages"] += 1
    SENT["bytes"] += len(json.dumps(data, default=str)) + sum(len(b) for b in buffers or ())
    state = (data or {}).get("state") or (data or {}).get("content") or {}
    DETAIL.append((getattr(self, "comm_id", ""), (",".join(sorted(state)) if isinstance(state, dict) else "?")
                   + f" ({len(json.dumps(data, default=str))} B)"))


def _take() -> tuple[int, int]:
    figures = (SENT["messages"], SENT["bytes"])
    SENT.update(messages=0, bytes=0)
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="1861")
    parser.add_argument("--war-odds", action="store_true", help="with the live war-odds chart (as the app)")
    parser.add_argument("--turn", type=int, default=1, help="the march is made on this turn (bots play the turns "
                        "before it; a later turn has a longer log)")
    parser.add_argument("--detail", action="store_true", help="each gesture's messages: widget kind and what changed")
    args = parser.parse_args(argv)
    comm.DummyComm.publish_msg = _count  # no kernel here: every widget gets a DummyComm, which counts
    warnings.simplefilter("ignore", DeprecationWarning)  # Widget.widgets, read to count them
    import ipywidgets
    import widgets
    from ahd.core.actions import EndMarch

    print(f"machine: {machine()}")
    started = time.perf_counter()
    if args.turn > 1:  # the heuristic bots play up to the Union's movement of that turn
        import ahd
        from ahd.bots import make_bot
        from widgets.app import GameApp
        from widgets.model.session import Session
        game = ahd.new_game(args.scenario, seed=1)
        bots = {side: make_bot("heuristic", seed=i) for i, side in enumerate(ahd.Side)}
        while not game.is_over and not (game.state.turn >= args.turn and game.decision == "movement"
                                        and game.current_player is ahd.Side.UNION):
            game.roll() if game.current_player == ahd.CHANCE else game.apply(bots[game.current_player].choose(game))
        app = GameApp(Session(game, union="human", confederate="human", war_odds=args.war_odds))
    else:
        app = widgets.play(args.scenario, union="human", confederate="human", seed=1, war_odds=args.war_odds)
    built = time.perf_counter() - started
    messages, size = _take()
    DETAIL.clear()
    kinds = collections.Counter(type(x).__name__ for x in ipywidgets.Widget.widgets.values())
    print(f"first render: {len(ipywidgets.Widget.widgets)} widgets, {messages} messages, {size / 1024:.0f} KiB "
          f"(app built in {built:.2f} s)")
    print("  widgets by kind: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common(8)))
    session, game = app.session, app.session.game
    origin = next(b for b in sorted(game.board.ids if hasattr(game.board, "ids") else [x.id for x in game.board])
                  if session._selectable(b)) if args.turn > 1 else "harpers_ferry"
    steps = [("select the march's origin", lambda: session.click_box(origin))]
    steps.append(("click a destination", lambda: session.click_box(sorted(session.destinations)[0])))
    steps.append(("end the march", lambda: session.act(EndMarch()) if game.decision == "march" else None))
    total = [0, 0]
    for name, gesture in steps:
        started = time.perf_counter()
        gesture()
        took = time.perf_counter() - started
        messages, size = _take()
        total[0] += messages
        total[1] += size
        print(f"  {name}: {messages} messages, {size / 1024:.1f} KiB, server {took * 1000:.0f} ms")
        if args.detail:
            kinds = {w.model_id: type(w).__name__ for w in ipywidgets.Widget.widgets.values()}
            for comm_id, what in DETAIL:
                print(f"      {kinds.get(comm_id, '?')}: {what}")
        DETAIL.clear()
    print(f"a march: {total[0]} messages, {total[1] / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
