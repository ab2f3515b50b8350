"""A teacher restarts the classroom server between lessons with the same --data: the join link, its QR code
and every personal link still work (the tokens are kept in the data folder, private to the server's user);
``--new-token`` makes new ones and every old link and login stops working. All on 127.0.0.1."""
from __future__ import annotations

import http.client
import json
import os
import re
import stat
import subprocess
import sys
import time
from pathlib import Path

import serve
from widgets.classmates.store import Store, store_path

ROOT = Path(__file__).resolve().parents[1]


def start(data: Path, port: int, log: Path, *extra: str) -> tuple[subprocess.Popen, str, str]:
    """The classroom server as a teacher starts it (no fixed tokens); (process, class token, teacher token)
    read from what it prints."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOUSE_DIVIDED_")}
    with open(log, "w") as out:
        process = subprocess.Popen([sys.executable, "-m", "widgets.server.cli", "classroom", "--host=127.0.0.1",
                                    f"--port={port}", "--students=2", f"--data={data}", *extra],
                                   stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()[-3000:]
        text = log.read_text()
        join, teacher = re.search(r"\?token=([\w-]+)", text), re.search(r"teacher\?key=([\w-]+)", text)
        if join and teacher:
            return process, join[1], teacher[1]
        time.sleep(0.2)
    process.kill()
    raise AssertionError("the classroom server printed no links:\n" + log.read_text()[-3000:])


def stop(process: subprocess.Popen) -> None:
    serve.stop_process(process, timeout=20)


def status(port: int, path: str) -> int:
    deadline = time.monotonic() + 30
    while True:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            connection.request("GET", path)
            return connection.getresponse().status
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)
        finally:
            connection.close()


def test_links_survive_a_restart_and_a_new_token_ends_them(tmp_path):
    data, log = tmp_path / "data", tmp_path / "server.log"
    port = serve.free_port()
    first, token, teacher = start(data, port, log)
    try:
        kept = data / "tokens.json"
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and stat.S_IMODE(data.stat().st_mode) == 0o700
        assert json.loads(kept.read_text()) == {"token": token, "teacher_token": teacher}
        assert status(port, f"/?token={token}") == 200
        # a classmate game, and Ann's personal link ("open it next lesson, on any computer")
        seat = Store(store_path(data)).create(side="union", name="Ann", seed=3)
        personal = f"/?token={token}&player={seat.token}"
        assert status(port, personal) == 200
    finally:
        stop(first)
    # the next lesson: the same links, the same QR code
    second, again, teacher_again = start(data, port, log)
    try:
        assert (again, teacher_again) == (token, teacher)
        assert status(port, f"/?token={token}") == 200 and status(port, personal) == 200
        assert status(port, f"/teacher?key={teacher}") == 200
    finally:
        stop(second)
    # --new-token: new links; the old ones are refused
    third, fresh, fresh_teacher = start(data, port, log, "--new-token")
    try:
        assert fresh != token and fresh_teacher != teacher
        assert json.loads((data / "tokens.json").read_text()) == {"token": fresh, "teacher_token": fresh_teacher}
        assert status(port, f"/?token={token}") == 403 and status(port, personal) == 403
        assert status(port, f"/teacher?key={teacher}") == 403
        assert status(port, f"/?token={fresh}&player={seat.token}") == 200
    finally:
        stop(third)


def test_a_damaged_tokens_file_is_a_clear_error(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "tokens.json").write_text('{"token": 3}')
    done = subprocess.run([sys.executable, "-m", "widgets.server.cli", "classroom", "--host=127.0.0.1",
                           f"--port={serve.free_port()}", f"--data={data}"], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env={k: v for k, v in os.environ.items()
                                                     if not k.startswith("HOUSE_DIVIDED_")})
    assert done.returncode == 1 and "tokens.json" in done.stderr and "--new-token" in done.stderr
    assert "Traceback" not in done.stderr


def test_ctrl_c_stops_a_server_started_in_the_background(tmp_path):
    """A script's background job starts with SIGINT ignored; Ctrl-C (SIGINT) must still stop the server. Ctrl-C
    at once, while its two warm kernels are still starting, leaves no kernel running and nothing in the temporary
    folder (before stop 55 the kernels still starting wrote their connection files into the removed data folder:
    a house-divided-* folder was left in /tmp)."""
    import signal
    import psutil
    port = serve.free_port()
    log = tmp_path / "server.log"
    scratch = tmp_path / "tmp"  # the server's TMPDIR: its data folder (no --data) goes here
    scratch.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOUSE_DIVIDED_")}
    env["TMPDIR"] = str(scratch)
    with open(log, "w") as out:
        process = subprocess.Popen([sys.executable, "-m", "widgets.server.cli", "classroom", "--host=127.0.0.1",
                                    f"--port={port}", "--students=2"], stdout=out, stderr=subprocess.STDOUT,
                                   env=env, cwd=ROOT, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        deadline = time.monotonic() + 60
        while "Students join at" not in log.read_text() and time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()[-3000:]
            time.sleep(0.05)
        assert list(scratch.glob("house-divided-*")), list(scratch.iterdir())  # its data folder is in its TMPDIR
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
        time.sleep(1)  # a kernel left running would write its connection file in this second
        left = [p for p in psutil.process_iter(["cmdline"]) if str(scratch) in " ".join(p.info["cmdline"] or ())]
        assert left == [] and list(scratch.rglob("*")) == [], (left, list(scratch.rglob("*")), log.read_text()[-2000:])
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
