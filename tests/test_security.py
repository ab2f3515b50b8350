"""Issue 31: the classroom server against a curious student who has only the class link (all on 127.0.0.1).

Each test is one finding of the review in docs/security.md; each failed before its fix.
"""
from __future__ import annotations

import time

import pytest

import serve
from serve import wait_for_kernels
from security_client import V1, Browser, kernel_socket_probe


@pytest.fixture
def room():
    servers = []

    def start(**kwargs):
        kwargs.setdefault("students", 4)
        kwargs.setdefault("cull", "30,5")
        srv = serve.start(mode="classroom", **kwargs)
        servers.append(srv)
        return srv
    yield start
    for srv in servers:
        srv.stop()


def test_a_kernel_socket_without_voilas_subprotocol_cannot_hang_the_server(room):
    """Finding 1: a legacy-protocol websocket whose reply carries binary buffers made voila's handler build a
    list of ~10**18 offsets on the main loop (every page froze). Now such a socket is refused, a v1 one works,
    and another page answers within 5 s."""
    srv = room(students=2)
    student = Browser(srv.port)
    status, _, kernel = student.play(srv.token)
    assert status == 200 and kernel
    v1 = kernel_socket_probe(srv.port, kernel, srv.token, subprotocol=V1, seconds=3, browser=student)
    assert v1["connected"] and v1["binary"] >= 1, v1  # voila's own protocol: the widgets' states come back
    legacy = kernel_socket_probe(srv.port, kernel, srv.token, subprotocol=None, seconds=2, browser=student)
    started = time.monotonic()
    status, page = Browser(srv.port).request("GET", f"/?token={srv.token}", timeout=5)
    assert status == 200 and "ahd-starting" in page and time.monotonic() - started < 5
    assert not legacy["connected"] and legacy["status"] == 400, legacy


def test_a_legacy_binary_frame_is_not_read_as_a_v1_header():
    from jupyter_server.services.kernels.connection.base import serialize_binary_message
    from security_client import v1_frame, widget_state_requests
    from widgets.server.kernel_socket import v1_header
    message = {**widget_state_requests("s")[1], "buffers": [b"\x00" * 64, b"\x01" * 8]}
    legacy = serialize_binary_message(message)
    assert int.from_bytes(legacy[:8], "little") > 10 ** 17  # what voila's handler took for a count of offsets
    started = time.monotonic()
    assert v1_header(legacy) is None and v1_header(b"") is None and v1_header(b"\xff" * 40) is None
    assert time.monotonic() - started < 0.1
    assert v1_header(v1_frame(message))["msg_type"] == "comm_msg"


def test_one_browser_cannot_fill_the_class_and_a_page_that_never_connects_frees_its_place(room):
    """Finding 3: any GET of /play started a kernel that lived >= 50 s, and the only cap was the class's: four
    requests from one student kept everyone else on "The class is full". Now /play starts a kernel only for a
    browser the start page has seen (its seat cookie), at most two per browser, and a kernel whose page has
    not connected within the grace (here 10 s; the culler would wait 60 s) is ended."""
    srv = room(students=3, cull="60,5", connect=10)
    script = Browser(srv.port)  # no start page, no seat: no kernel
    status, _ = script.request("GET", f"/play?token={srv.token}")
    assert status == 302 and script.last_headers["Location"].startswith("/") and srv.kernel_pids() == []
    hog, classmate = Browser(srv.port), Browser(srv.port)
    assert hog.play(srv.token)[0] == 200 and hog.play(srv.token)[0] == 200
    started = time.monotonic()
    status, page, kernel = hog.play(srv.token)
    assert status == 429 and kernel is None and "ahd-browser-full" in page and time.monotonic() - started < 3
    assert len(srv.kernel_pids()) == 2
    status, _, kernel = classmate.play(srv.token)
    assert status == 200 and kernel
    assert wait_for_kernels(srv, 0, 30) == []  # none of the three pages connected: all ended by the grace


def test_a_student_who_learns_another_kernel_id_cannot_end_or_use_that_game(room):
    """Finding 6: with the class token (token auth skips XSRF) anyone who learnt a kernel id could DELETE it
    or POST voila's shutdown. Now only the browser that started a game (its seat) may end or connect to it,
    and XSRF is checked even with the token."""
    srv = room(students=3)
    ann, bob = Browser(srv.port), Browser(srv.port)
    status, _, kernel = ann.play(srv.token)
    assert status == 200 and kernel and len(srv.kernel_pids()) == 1
    bob.request("GET", f"/?token={srv.token}")  # Bob has a seat and the class token, not Ann's game
    xsrf = {"X-XSRFToken": bob.cookies.get("_xsrf", "")}
    for method, path in (("DELETE", f"/api/kernels/{kernel}?token={srv.token}"),
                         ("POST", f"/voila/api/shutdown/{kernel}?token={srv.token}"),
                         ("POST", f"/api/kernels/{kernel}/restart?token={srv.token}")):
        status, _ = bob.request(method, path, body="" if method == "POST" else None, headers=xsrf)
        assert status in (403, 404, 405), (method, path, status)
    probe = kernel_socket_probe(srv.port, kernel, srv.token, subprotocol=V1, seconds=1, browser=bob)
    assert not probe["connected"] and probe["status"] == 403, probe
    assert kernel_socket_probe(srv.port, kernel, srv.token, subprotocol=V1, seconds=1, browser=ann)["connected"]
    assert len(srv.kernel_pids()) == 1
    # Ann herself: the token alone does not skip XSRF ...
    status, _ = ann.request("POST", f"/voila/api/shutdown/{kernel}?token={srv.token}", body="",
                            headers={"Cookie": "; ".join(f"{k}={v}" for k, v in ann.cookies.items() if k != "_xsrf")})
    assert status == 403 and len(srv.kernel_pids()) == 1
    # ... and with it (what her page's unload sends) her game ends
    status, _ = ann.request("POST", f"/voila/api/shutdown/{kernel}", body=f"_xsrf={ann.cookies['_xsrf']}",
                            headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 204 and wait_for_kernels(srv, 0, 10) == []


def test_login_cookies_are_samesite_and_die_with_their_token(room, tmp_path):
    """Finding 6: the login cookie had no SameSite (nor Secure behind TLS) and, with --data, still let a
    browser in after the teacher restarted the class with a new token."""
    first = room(data=tmp_path / "class")
    student = Browser(first.port)
    assert student.request("GET", f"/?token={first.token}")[0] == 200
    cookies = student.set_cookie_headers()
    login = [c for c in cookies if c.startswith("username-")]
    assert login and all("SameSite=Lax" in c and "HttpOnly" in c for c in login), cookies
    assert all("SameSite" in c for c in cookies), cookies
    assert student.request("GET", "/")[0] == 200  # the cookie alone lets the student in
    first.stop()
    again = room(data=tmp_path / "class", port=first.port)  # the same --data, a new token
    assert again.token != first.token
    status, page = student.request("GET", "/")
    assert status == 403 and "needs its link" in page


PROBED = ["/voila/render/app.ipynb", "/voila/files/x.txt", "/voila/templates/lab/static/x.js", "/voila/static/nope.js",
          "/voila/api/themes/x", "/voila/api/shutdown/{kernel}", "/voila/labextensions/x", "/api/kernels/{kernel}",
          "/api/kernels/{kernel}/channels", "/login", "/logout", "/nonexistent", "/teacher", "/api/sessions"]


def test_stray_requests_get_no_500_and_log_no_traceback(room, tmp_path):
    """Finding 6: requests without a token to some of voila's routes gave 500s, and 404s logged ~40-line
    tracebacks (jupyter_server's error templates do not render under voila): a student could flood the log."""
    import uuid
    log = tmp_path / "server.log"
    srv = room(log=log)
    student = Browser(srv.port)
    kernel = str(uuid.uuid4())
    statuses = []
    for query in ("", f"?token={srv.token}"):
        for path in PROBED:
            for method in ("GET", "POST"):
                status, _ = student.request(method, path.format(kernel=kernel) + query,
                                            body="" if method == "POST" else None)
                statuses.append((method, path, bool(query), status))
    assert [s for s in statuses if s[3] >= 500] == []
    time.sleep(0.5)
    text = log.read_text()
    assert "Traceback" not in text, text[text.find("Traceback") - 300:text.find("Traceback") + 1500]
    assert len(text.splitlines()) < 3 * len(statuses) + 40  # about a line a request, not forty


def test_every_page_has_a_content_security_policy(room):
    """Finding 6: the CSP set only frame-ancestors. Now scripts, styles, sockets, plugins, forms and <base> are
    kept to this server on every page (the browser tests run the app under it)."""
    srv = room()
    student = Browser(srv.port)
    for path in (f"/?token={srv.token}", "/play", "/nonexistent-page", f"/teacher?key={srv.teacher_token}"):
        student.request("GET", path)
        policy = student.last_headers.get("Content-Security-Policy", "")
        for rule in ("default-src 'self'", "script-src 'self'", "connect-src 'self'", "object-src 'none'",
                     "base-uri 'self'", "form-action 'self'", "frame-ancestors 'self'"):
            assert rule in policy, (path, rule, policy)


def make_certificate(folder):
    """A self-signed certificate for 127.0.0.1 (one day) and its key, as PEM files."""
    import datetime
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    import ipaddress
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    key_file.chmod(0o600)
    return cert_file, key_file


def test_https_on_loopback_and_the_link_behind_a_proxy(room, tmp_path):
    """Finding 5: the classroom only spoke plain HTTP and always printed http://<address>:<port>/. Now
    --certfile/--keyfile serve HTTPS (tornado's ssl_options, as jupyter_server does) and the link, the QR code
    and the cookies follow; --public-url is what is printed and encoded when a proxy serves the class."""
    import http.client
    import ssl
    import segno
    cert, key = make_certificate(tmp_path)
    log = tmp_path / "tls.log"
    srv = room(extra=[f"--certfile={cert}", f"--keyfile={key}"], tls_ca=cert, log=log)
    student = Browser(srv.port, scheme="https", context=ssl.create_default_context(cafile=str(cert)))
    status, page = student.request("GET", f"/?token={srv.token}")
    assert status == 200 and "ahd-starting" in page
    cookies = student.set_cookie_headers()
    assert cookies and all("Secure" in c and "SameSite=Lax" in c for c in cookies), cookies
    with pytest.raises((http.client.HTTPException, OSError)):  # no plain HTTP on that port
        Browser(srv.port).request("GET", f"/?token={srv.token}", timeout=5)
    assert f"https://127.0.0.1:{srv.port}/?token={srv.token}" in log.read_text()

    public = "https://games.school.example/house-divided/"
    log2 = tmp_path / "proxy.log"
    behind = room(extra=[f"--public-url={public}"], log=log2)
    join = f"{public}?token={behind.token}"
    assert join in log2.read_text()
    teacher = Browser(behind.port)
    status, page = teacher.request("GET", f"/teacher/join?key={behind.teacher_token}")
    assert status == 200 and f'href="{join}"' in page
    assert segno.make(join, error="m").svg_inline(scale=6, title="QR code of the join link") in page
    student = Browser(behind.port)
    assert student.request("GET", f"/?token={behind.token}")[0] == 200
    cookies = student.set_cookie_headers()  # the proxy's page is HTTPS: the cookies say so
    assert cookies and all("Secure" in c for c in cookies), cookies


def test_the_teacher_key_leaves_the_url_and_the_projected_page_holds_no_secret(room):
    """Finding 6: the teacher key stayed in the URL of the page teachers project (it showed the QR code). Now
    the first visit moves the key into a cookie (and out of the address bar), the teacher's pages and links
    carry no key, and the QR code is on a page of its own that holds no teacher secret."""
    srv = room(students=3)
    teacher = Browser(srv.port)
    status, page = teacher.request("GET", f"/teacher?key={srv.teacher_token}")
    assert status == 200 and "history.replaceState" in page
    cookie = [c for c in teacher.set_cookie_headers() if c.startswith("ahd-teacher=")]
    assert cookie and "HttpOnly" in cookie[0] and "SameSite=Strict" in cookie[0], teacher.set_cookie_headers()
    status, page = teacher.request("GET", "/teacher")  # the cookie alone
    assert status == 200 and srv.teacher_token not in page and "/teacher/join" in page
    status, projected = teacher.request("GET", "/teacher/join")
    assert status == 200 and "<svg" in projected and srv.join_url in projected
    assert srv.teacher_token not in projected and "ahd-games" not in projected
    student = Browser(srv.port)
    student.request("GET", f"/?token={srv.token}")
    for path in ("/teacher", "/teacher/join", f"/teacher?key={srv.token}"):
        assert student.request("GET", path)[0] == 403, path
