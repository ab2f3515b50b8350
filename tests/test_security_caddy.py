"""docs/security.md's recipe, run: Debian's Caddy on loopback in front of the classroom, with Caddy's own local
certificate authority (``tls internal``), and ``--public-url`` naming Caddy's address. ./run.sh test installs
Caddy (apt-get install caddy) the way it installs chromium; everything listens on 127.0.0.1 only."""
from __future__ import annotations

import os
import shutil
import ssl
import subprocess
import time

import pytest

import serve
from security_client import V1, Browser, kernel_socket_probe

CADDYFILE = """{{
	admin off
	skip_install_trust
	auto_https disable_redirects
	default_sni 127.0.0.1
	http_port {http_port}
	https_port {https_port}
	storage file_system {storage}
}}
https://127.0.0.1:{https_port} {{
	bind 127.0.0.1
	tls internal
	reverse_proxy 127.0.0.1:{room_port}
}}
"""


def caddy() -> str:
    path = shutil.which("caddy") or ("/usr/bin/caddy" if os.path.exists("/usr/bin/caddy") else None)
    if path is None:
        pytest.fail("Debian's caddy is not installed (apt-get install caddy; ./run.sh test does it)")
    return path


def test_the_caddy_recipe_serves_the_class_over_https_websockets_included(tmp_path):
    https_port, http_port = serve.free_port(), serve.free_port()
    public = f"https://127.0.0.1:{https_port}/"
    room = serve.start(mode="classroom", students=2, extra=[f"--public-url={public}"], log=tmp_path / "room.log")
    (tmp_path / "Caddyfile").write_text(CADDYFILE.format(http_port=http_port, https_port=https_port,
                                                         storage=tmp_path / "caddy", room_port=room.port))
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "xdg"),
               XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    proxy = subprocess.Popen([caddy(), "run", "--config", str(tmp_path / "Caddyfile"), "--adapter", "caddyfile"],
                             cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                             stderr=open(tmp_path / "caddy.log", "w"))  # noqa: SIM115
    try:
        root = tmp_path / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        student = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if proxy.poll() is not None:
                raise AssertionError("caddy stopped: " + (tmp_path / "caddy.log").read_text()[-2000:])
            if root.exists():
                try:
                    student = Browser(https_port, scheme="https", context=ssl.create_default_context(cafile=str(root)))
                    if student.request("GET", "/voila/static/voila.js", timeout=5)[0] == 200:
                        break
                except OSError:
                    pass
            time.sleep(0.3)
        assert student is not None, "caddy did not answer over HTTPS"
        assert f"{public}?token={room.token}" in (tmp_path / "room.log").read_text()  # the printed link
        status, page, kernel = student.play(room.token)  # the start page, then the game, through Caddy
        assert status == 200 and kernel
        cookies = student.set_cookie_headers()  # the game page's _xsrf cookie: Secure (the public URL is HTTPS)
        assert cookies and all("Secure" in c for c in cookies), cookies
        probe = kernel_socket_probe(https_port, kernel, room.token, subprotocol=V1, seconds=3, browser=student)
        assert probe["connected"] and probe["binary"] >= 1, probe  # the game's websocket, through Caddy
    finally:
        serve.stop_process(proxy)
        room.stop()
