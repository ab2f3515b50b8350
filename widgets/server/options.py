"""What one server is given and what its handlers share: the options of ``house-divided app`` / ``classroom``
(:class:`ServeOptions`), the class's state (:class:`ClassState`: the games counted, the kernels starting), and
the class's tokens kept in the data folder (:func:`kept_tokens`)."""
from __future__ import annotations

import json
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from widgets.model.i18n import _
from widgets.server.seats import CONNECT_ENV, Seats

#: Environment variables a launcher (tests, scripts) may use to fix the tokens instead of random ones.
#: They are removed from the server's environment at once, so kernels never see them.
TOKEN_ENV = "HOUSE_DIVIDED_TOKEN"
TEACHER_TOKEN_ENV = "HOUSE_DIVIDED_TEACHER_TOKEN"
#: Environment variable (seconds) shortening the culling, for tests: "IDLE" or "IDLE,INTERVAL".
CULL_ENV = "HOUSE_DIVIDED_CULL"


@dataclass
class ServeOptions:
    """Everything one server needs; see :func:`serve`."""

    mode: str = "app"                     # "app" (one person, loopback) or "classroom"
    host: str = "127.0.0.1"
    port: int = 8866
    students: int | None = None           # the kernel cap (classroom)
    token: str = ""
    teacher_token: str = ""
    cull_idle: int = 120                  # seconds without activity nor connection before a kernel is culled
    cull_interval: int = 15
    iopub_timeout: int = 60
    games_per_browser: int = 2            # classroom: games one browser may have at once (widgets/server/seats.py)
    connect_grace: int = 60               # classroom: seconds a new game's page has to connect to its kernel
    tree: bool = False                    # app mode: serve every notebook of notebooks/ (voila's tree page)
    data: Path | None = None              # classroom: the server's own files (kernel connection files)
    public_url: str = ""                  # classroom: the URL printed and put in the QR code (behind a proxy)
    certfile: Path | None = None          # HTTPS by jupyter_server itself (with keyfile)
    keyfile: Path | None = None
    games: Path | None = None             # app mode: the one folder the panel saves to and loads from
    new_token: bool = False               # classroom with data: make new tokens (ends every link and login)
    warm: int = 0                         # kernels kept ready with the app built (voila's preheat pool; classroom)

    @property
    def tls(self) -> bool:
        """True if students reach the pages over HTTPS (our own certificate, or a proxy's public URL)."""
        return self.certfile is not None or self.public_url.lower().startswith("https://")


@dataclass
class ClassState:
    """What the handlers share: the options and the kernels being started right now."""

    options: ServeOptions
    starting: int = 0
    started_at: float = field(default_factory=time.time)
    joined: int = 0
    refused_full: int = 0
    seats: Seats | None = None            # classroom: the games of each browser

    def __post_init__(self):
        if self.options.mode == "classroom" and self.seats is None:
            self.seats = Seats(per_browser=self.options.games_per_browser, grace=self.options.connect_grace)

    def running(self, kernel_manager) -> int:
        """The games: kernels pages have taken, still running (widgets/server/kernels.py). Warm kernels waiting
        for a page are not games, and a page whose kernel is starting is counted in :attr:`starting` only
        until its kernel is known."""
        games = getattr(kernel_manager, "live_games", None)
        return len(games()) if games is not None else len(kernel_manager.list_kernel_ids())

    def full(self, kernel_manager) -> bool:
        cap = self.options.students
        return cap is not None and self.running(kernel_manager) + self.starting >= cap


def _cull_override(options: ServeOptions) -> None:
    grace = os.environ.pop(CONNECT_ENV, "")
    if grace:
        options.connect_grace = int(grace)
    value = os.environ.pop(CULL_ENV, "")
    if value:
        parts = [int(x) for x in value.split(",")]
        options.cull_idle = parts[0]
        options.cull_interval = parts[1] if len(parts) > 1 else max(1, parts[0] // 3)


#: The class's tokens in the data folder (``--data``): the join link, its QR code, the personal links and the
#: logins outlive a restart between lessons; ``--new-token`` makes new ones.
TOKENS_FILE = "tokens.json"


def kept_tokens(options: ServeOptions) -> None:
    """Classroom with ``--data``: the tokens of the last run (``tokens.json``, private to the server's user),
    or new ones written there (the first run, or ``--new-token``). Tokens given explicitly (options, or the
    launchers' environment variables) are used as they are and not written."""
    if options.mode != "classroom" or options.data is None:
        return
    if options.token or os.environ.get(TOKEN_ENV):
        return
    path = options.data / TOKENS_FILE
    if path.exists() and not options.new_token:
        try:
            kept = json.loads(path.read_text(encoding="utf-8"))
            token, teacher = kept["token"], kept["teacher_token"]
            if not (isinstance(token, str) and isinstance(teacher, str) and len(token) >= 12 and len(teacher) >= 16):
                raise ValueError("tokens too short")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(_("{path}: not a tokens file of this server ({problem}); remove it or start with "
                               "--new-token").format(path=path, problem=exc)) from None
        options.token, options.teacher_token = token, teacher
        return
    options.token, options.teacher_token = secrets.token_urlsafe(9), secrets.token_urlsafe(16)
    options.data.mkdir(parents=True, exist_ok=True)
    os.chmod(options.data, 0o700)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        json.dump({"token": options.token, "teacher_token": options.teacher_token}, out)


