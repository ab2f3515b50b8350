"""The board (rule 0.4): boxes, links and water borders, loaded into frozen objects.

``ahd/data/board.json`` is the project reference board (provenance in
``ahd/data/board-provenance.md``). A malformed file raises :class:`DataFileError`
naming the file and the key.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterator

from .errors import DataFileError
from .i18n import Term, render
from .jsonfile import JsonProblem, check_keys, parse, read_file
from .sides import Side

LINK_KINDS = ("road", "rail", "river")
OWNERS = ("union", "confederate", "neutral")
#: The keys of a board file. Top-level keys starting with "_" are comments.
BOARD_KEYS = ("boxes", "links", "water_borders", "water_border_sides", "excluded_tripleA_connections")
BOX_KEYS = ("id", "name", "tripleA_name", "state", "initial_owner", "union_recruit", "confederate_recruit",
            "port", "fort", "lat", "lon", "board_xy")
LINK_KEYS = ("a", "b", "kind", "downstream", "downstream_note", "potomac", "note")
#: The largest recruiting value a box may print (a documented limit; the board's are 0–4).
MAX_RECRUIT = 9

#: The seven Confederate recruiting cities of rule 11.a.
VICTORY_CITIES = ("new_orleans", "mobile", "atlanta", "memphis", "charleston_sc", "wilmington", "richmond")


#: The kinds of line (0.4, T-3) as message parameters: "road", "rail", "river" in each language.
LINE_TERMS = {"road": Term("line", "road"), "rail": Term("line", "rail"), "river": Term("line", "river")}

@dataclass(frozen=True, slots=True)
class Box:
    """A box of the map. ``owner`` is the printed owner: a Side, or None for neutral Kentucky."""

    id: str
    name: str
    state: str
    owner: Side | None
    blue_value: int
    red_value: int
    port: bool
    fort: bool
    lat: float
    lon: float
    board_xy: tuple[int, int]

    def value_for(self, side: Side) -> int:
        """The box's own-colour recruiting value for ``side`` (0.5)."""
        return self.blue_value if side is Side.UNION else self.red_value

    @property
    def is_recruiting_city(self) -> bool:
        """An RC: a box with any printed number, blue or red (0.5)."""
        return self.blue_value > 0 or self.red_value > 0

    def __repr__(self) -> str:
        return f"Box({self.id!r})"


@dataclass(frozen=True, slots=True)
class Link:
    """A line between two boxes. ``downstream`` is the box a river flows toward (None: undefined)."""

    a: str
    b: str
    kind: str
    downstream: str | None = None
    potomac: bool = False

    def other(self, box: str) -> str:
        return self.b if box == self.a else self.a


@dataclass(frozen=True, slots=True)
class Step:
    """One link seen from a box: where it leads and by which kind of line."""

    to: str
    kind: str
    downstream: bool  # the step goes with the current (rivers only)
    potomac: bool


class Board:
    """The map with the queries the rules need. Immutable after construction."""

    def __init__(self, boxes: dict[str, Box], links: tuple[Link, ...],
                 water_borders: dict[str, frozenset[str]], source: str = "<memory>") -> None:
        self.boxes = boxes
        self.links = links
        self.water_borders = water_borders
        self.source = source
        steps: dict[str, list[Step]] = {box_id: [] for box_id in boxes}
        for link in links:
            for here in (link.a, link.b):
                there = link.other(here)
                steps[here].append(Step(
                    to=there, kind=link.kind,
                    downstream=link.kind == "river" and link.downstream == there,
                    potomac=link.potomac))
        self._steps = {box_id: tuple(s) for box_id, s in steps.items()}
        self._adjacent = {box_id: frozenset(s.to for s in st) for box_id, st in self._steps.items()}
        kinds: dict[tuple[str, str], set[str]] = {}
        for link in links:
            kinds.setdefault((link.a, link.b), set()).add(link.kind)
            kinds.setdefault((link.b, link.a), set()).add(link.kind)
        self._kinds = {pair: frozenset(k) for pair, k in kinds.items()}
        self.ports = frozenset(b.id for b in boxes.values() if b.port)
        self.forts = frozenset(b.id for b in boxes.values() if b.fort)
        potomac = [link for link in links if link.potomac]
        self.potomac: Link | None = potomac[0] if potomac else None

    def __getitem__(self, box_id: str) -> Box:
        try:
            return self.boxes[box_id]
        except KeyError:
            raise KeyError(f"unknown box {box_id!r}") from None

    def __contains__(self, box_id: object) -> bool:
        return box_id in self.boxes

    def __iter__(self) -> Iterator[Box]:
        return iter(self.boxes.values())

    def __len__(self) -> int:
        return len(self.boxes)

    def name(self, box_id: str) -> str:
        box = self.boxes.get(box_id)
        return box.name if box else box_id

    def term(self, box_id: str) -> Term:
        """The box's name as a message parameter: said in each language's usual form ("Nueva Orleans")."""
        return Term.box(self.name(box_id))

    def local_name(self, box_id: str, lang: str | None = None) -> str:
        """The box's name in ``lang`` (default: the current language)."""
        return render(self.term(box_id), lang)

    def steps(self, box_id: str) -> tuple[Step, ...]:
        """Every link leaving ``box_id`` (a pair joined by rail and river gives two steps)."""
        return self._steps[box_id]

    def neighbours(self, box_id: str, kind: str | None = None) -> frozenset[str]:
        """Adjacent boxes (0.4), optionally only along lines of one ``kind``."""
        if kind is None:
            return self._adjacent[box_id]
        return frozenset(s.to for s in self._steps[box_id] if s.kind == kind)

    def are_adjacent(self, a: str, b: str) -> bool:
        return b in self._adjacent[a]

    def link_kinds(self, a: str, b: str) -> frozenset[str]:
        return self._kinds.get((a, b), frozenset())

    def is_potomac(self, a: str, b: str) -> bool:
        """Is the only line between ``a`` and ``b`` the Potomac (4.2.6)?"""
        steps = [s for s in self._steps[a] if s.to == b]
        return bool(steps) and all(s.potomac for s in steps)

    def is_downstream(self, a: str, b: str) -> bool:
        """Does a river flow from ``a`` to ``b``?"""
        return any(s.to == b and s.downstream for s in self._steps[a])

    def enters_over_water(self, box_id: str, from_box: str) -> bool:
        """Does the line from ``from_box`` enter ``box_id`` across a blue side (5.2.3)?"""
        return from_box in self.water_borders.get(box_id, ())

    def recruiting_cities(self, side: Side) -> tuple[Box, ...]:
        return tuple(b for b in self.boxes.values() if b.value_for(side) > 0)

    def boxes_in_state(self, state: str) -> tuple[str, ...]:
        return tuple(b.id for b in self.boxes.values() if b.state == state)


def _require(data: dict[str, Any], key: str, kind: type | tuple[type, ...], path: object, where: str) -> Any:
    if key not in data:
        raise DataFileError(path, f"{where}.{key}", "missing")
    value = data[key]
    numeric = kind is int or kind == (int, float)
    if numeric and isinstance(value, bool) or not isinstance(value, kind):
        name = getattr(kind, "__name__", None) or " or ".join(k.__name__ for k in kind)
        raise DataFileError(path, f"{where}.{key}", f"expected {name}, got {_short(value)}")
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _keys(data: dict, allowed: tuple[str, ...], path: object, where: str) -> None:
    check_keys(data, allowed, lambda key, problem: DataFileError(path, key, problem), where)


def board_from_dict(data: Any, path: object = "<memory>") -> Board:
    """Build a Board from the JSON structure of ``board.json``; validate every field."""
    if not isinstance(data, dict):
        raise DataFileError(path, "<root>", "expected a JSON object")
    _keys({k: v for k, v in data.items() if not str(k).startswith("_")}, BOARD_KEYS, path, "")
    raw_boxes = _require(data, "boxes", list, path, "board")
    boxes: dict[str, Box] = {}
    for i, raw in enumerate(raw_boxes):
        where = f"boxes[{i}]"
        if not isinstance(raw, dict):
            raise DataFileError(path, where, "expected an object")
        box_id = _require(raw, "id", str, path, where)
        _keys(raw, BOX_KEYS, path, where)
        where = f"boxes[{i}] ({box_id})"
        if box_id in boxes:
            raise DataFileError(path, f"{where}.id", "duplicate box id")
        owner = _require(raw, "initial_owner", str, path, where)
        if owner not in OWNERS:
            raise DataFileError(path, f"{where}.initial_owner", f"expected one of {OWNERS}, got {owner!r}")
        values = {}
        for key in ("union_recruit", "confederate_recruit"):
            values[key] = _require(raw, key, int, path, where)
            if not 0 <= values[key] <= MAX_RECRUIT:
                raise DataFileError(path, f"{where}.{key}", f"must be 0–{MAX_RECRUIT} (the printed values are 0–4), "
                                                            f"got {values[key]}")
        xy = _require(raw, "board_xy", list, path, where)
        if len(xy) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in xy):
            raise DataFileError(path, f"{where}.board_xy", f"expected [x, y] (two integers), got {_short(xy)}")
        lat = _require(raw, "lat", (int, float), path, where)
        lon = _require(raw, "lon", (int, float), path, where)
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            raise DataFileError(path, f"{where}.lat", f"lat/lon must be degrees (-90..90, -180..180), got {lat}, {lon}")
        if "tripleA_name" in raw:
            _require(raw, "tripleA_name", str, path, where)
        boxes[box_id] = Box(
            id=box_id,
            name=_require(raw, "name", str, path, where),
            state=_require(raw, "state", str, path, where),
            owner=None if owner == "neutral" else Side(owner),
            blue_value=values["union_recruit"],
            red_value=values["confederate_recruit"],
            port=_require(raw, "port", bool, path, where),
            fort=_require(raw, "fort", bool, path, where),
            lat=float(lat),
            lon=float(lon),
            board_xy=(int(xy[0]), int(xy[1])),
        )
    links = []
    seen = set()
    for i, raw in enumerate(_require(data, "links", list, path, "board")):
        where = f"links[{i}]"
        if not isinstance(raw, dict):
            raise DataFileError(path, where, "expected an object")
        _keys(raw, LINK_KEYS, path, where)
        a = _require(raw, "a", str, path, where)
        b = _require(raw, "b", str, path, where)
        kind = _require(raw, "kind", str, path, where)
        for key, end in (("a", a), ("b", b)):
            if end not in boxes:
                raise DataFileError(path, f"{where}.{key}", f"unknown box {end!r}")
        if a == b:
            raise DataFileError(path, where, "a link must join two different boxes")
        if kind not in LINK_KINDS:
            raise DataFileError(path, f"{where}.kind", f"expected one of {LINK_KINDS}, got {kind!r}")
        if (a, b, kind) in seen or (b, a, kind) in seen:
            raise DataFileError(path, where, f"duplicate {kind} link {a}-{b}")
        seen.add((a, b, kind))
        downstream = raw.get("downstream")
        if kind == "river":
            if downstream not in (None, a, b):
                raise DataFileError(path, f"{where}.downstream", f"must be {a!r}, {b!r} or null, got {downstream!r}")
        elif downstream is not None:
            raise DataFileError(path, f"{where}.downstream", "only rivers have a direction")
        potomac = raw.get("potomac", False)
        if not isinstance(potomac, bool):
            raise DataFileError(path, f"{where}.potomac", f"expected true or false, got {_short(potomac)}")
        for key in ("note", "downstream_note"):
            if key in raw and not isinstance(raw[key], str):
                raise DataFileError(path, f"{where}.{key}", f"expected a string, got {_short(raw[key])}")
        links.append(Link(a=a, b=b, kind=kind, downstream=downstream, potomac=potomac))
    water: dict[str, frozenset[str]] = {}
    raw_water = data.get("water_borders", {})
    if not isinstance(raw_water, dict):
        raise DataFileError(path, "water_borders", "expected an object")
    link_pairs = {(link.a, link.b) for link in links} | {(link.b, link.a) for link in links}
    for box_id, neighbours in raw_water.items():
        if box_id not in boxes:
            raise DataFileError(path, f"water_borders.{box_id}", "unknown box")
        if not isinstance(neighbours, list):
            raise DataFileError(path, f"water_borders.{box_id}", "expected a list of box ids")
        for other in neighbours:
            if not isinstance(other, str) or (box_id, other) not in link_pairs:
                raise DataFileError(path, f"water_borders.{box_id}", f"{_short(other)} is not adjacent")
        water[box_id] = frozenset(neighbours)
    return Board(boxes, tuple(links), water, source=str(path))


def load_board(path: str | Path | None = None) -> Board:
    """Load a board file; with no path, the board shipped in the package."""
    if path is None:
        return default_board()
    try:
        data = parse(read_file(path))
    except JsonProblem as exc:
        raise DataFileError(path, exc.key, exc.problem) from None
    return board_from_dict(data, path)


@cache
def default_board() -> Board:
    """The reference board shipped in ``ahd/data/board.json`` (loaded once)."""
    ref = resources.files("ahd") / "data" / "board.json"
    return board_from_dict(json.loads(ref.read_text(encoding="utf-8")), "ahd/data/board.json")


@cache
def display_positions() -> dict[str, tuple[float, float]]:
    """Where each box is drawn on the schematic board: ``{box id: (x, y)}`` in CSS pixels at the default
    scale, y downwards (``ahd/data/board_layout.json``, made from the boxes' lat/lon by
    ``scripts/make_board_layout.py`` so that no two box names overlap; links are the board's)."""
    data = json.loads((resources.files("ahd") / "data" / "board_layout.json").read_text(encoding="utf-8"))
    return {box_id: (float(p["x"]), float(p["y"])) for box_id, p in data["boxes"].items()}
