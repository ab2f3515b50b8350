"""Where the classroom is reached: this machine's address on the network, the root URL printed and put in the
QR code (``--public-url`` behind a proxy), and the TLS context of ``--certfile``/``--keyfile``.
"""
from __future__ import annotations

import socket
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from widgets.server.classroom import ServeOptions


def lan_address() -> str:
    """This machine's address on the local network (for the join URL when serving on every interface)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks the outgoing interface
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def public_host(host: str) -> str:
    return lan_address() if host in ("", "0.0.0.0", "::") else host


def public_root(options: "ServeOptions") -> str:
    """The root URL printed and put in the QR code: ``--public-url`` (a proxy in front), else this machine's
    address, ``https`` when we serve TLS ourselves."""
    if options.public_url:
        return options.public_url.rstrip("/") + "/"
    scheme = "https" if options.certfile else "http"
    return f"{scheme}://{public_host(options.host)}:{options.port}/"


def tls_context(options: "ServeOptions"):
    """The server's TLS context from ``--certfile``/``--keyfile`` (None without them); ValueError names the file
    and the problem."""
    if options.certfile is None and options.keyfile is None:
        return None
    if options.certfile is None or options.keyfile is None:
        raise ValueError("--certfile and --keyfile go together (the certificate and its private key, PEM files)")
    import ssl
    for flag, path in (("--certfile", options.certfile), ("--keyfile", options.keyfile)):
        if not Path(path).is_file():
            raise ValueError(f"{flag} {path}: no such file")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(str(options.certfile), str(options.keyfile))
    except (ssl.SSLError, OSError) as exc:
        raise ValueError(f"--certfile {options.certfile} / --keyfile {options.keyfile}: not a certificate and its "
                         f"private key in PEM ({getattr(exc, 'reason', None) or exc})") from None
    return context
