"""JupyterHub serving the A House Divided app: each user logs in and gets their own Jupyter server and
their own kernel, with the app (voila) as the start page.

    pip install "house-divided[app]" jupyterhub        # and: npm install -g configurable-http-proxy
    jupyterhub -f deploy/jupyterhub_config.py

Two modes, chosen by ``AHD_HUB_MODE``:

``school`` (the default)
    Real accounts. Users log in with their system account (JupyterHub's PAM authenticator) and each
    server runs as that user (``LocalProcessSpawner``); run the hub as root. For a school, replace the
    authenticator with the school's single sign-on (see below) and list who may log in.
``test``
    For tests and a try-out on one machine: ``DummyAuthenticator`` (any user name, one shared password,
    ``AHD_HUB_PASSWORD``) and ``SimpleLocalProcessSpawner`` (every server runs as the hub's own user, with
    a home folder under ``AHD_HUB_DATA``). No isolation between users at all: never expose it.

Other settings (environment variables; all optional):
    AHD_HUB_IP, AHD_HUB_PORT        where people connect (default 127.0.0.1:8000; 0.0.0.0 for a network,
                                    behind HTTPS: ``c.JupyterHub.ssl_cert`` / ``ssl_key`` or a reverse proxy)
    AHD_HUB_API_PORT                the hub's internal API port (default 8081, on 127.0.0.1)
    AHD_PROXY_API_PORT              configurable-http-proxy's API port (default 8001, on 127.0.0.1)
    AHD_HUB_DATA                    folder for the hub's database, cookie secret, proxy pid file (and the
                                    test mode's home folders); default: the current folder
    AHD_HUB_USERS                   comma-separated user names allowed to log in (default: any, test mode;
                                    nobody, school mode, until listed or an admin adds them)
    AHD_HUB_ADMINS                  comma-separated admin user names (they can start/stop others' servers)

Each user's server runs voila as a Jupyter server extension with the app notebook (package data,
``widgets/apps/app.ipynb``) as its start page, voila's ``ahd`` template (no outside request), a 60 s
output timeout (voila's 4 s default leaves pages blank on a busy machine), and culling: a kernel whose
page was closed without saying goodbye is shut down after 120 s idle. Whole idle servers are stopped by
the ``jupyterhub-idle-culler`` service when it is installed (see docs/publishing.md).

Single sign-on for a school (``pip install oauthenticator``), instead of PAM::

    c.JupyterHub.authenticator_class = "google"            # Google Workspace for Education
    c.GoogleOAuthenticator.oauth_callback_url = "https://hub.example.org/hub/oauth_callback"
    c.GoogleOAuthenticator.client_id = "..."; c.GoogleOAuthenticator.client_secret = "..."
    c.GoogleOAuthenticator.hosted_domain = ["school.example.org"]
    c.GoogleOAuthenticator.allow_all = True                  # everyone of that domain
    # Microsoft 365: authenticator_class = "azuread" (AzureAdOAuthenticator), tenant_id = "..."

With single sign-on the users have no system account: use a container spawner (``dockerspawner``;
on Kubernetes, Zero to JupyterHub's ``kubespawner``) rather than ``LocalProcessSpawner``.
"""
from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import sys
from pathlib import Path

c = get_config()  # noqa: F821 -- defined by JupyterHub when it loads this file

MODE = os.environ.get("AHD_HUB_MODE", "school")
if MODE not in ("school", "test"):
    raise ValueError(f"AHD_HUB_MODE must be 'school' or 'test', not {MODE!r}")
DATA = Path(os.environ.get("AHD_HUB_DATA", ".")).resolve()
DATA.mkdir(parents=True, exist_ok=True)

# ----------------------------------------------------------------------------------------- the hub
ip = os.environ.get("AHD_HUB_IP", "127.0.0.1")
c.JupyterHub.bind_url = f"http://{ip}:{int(os.environ.get('AHD_HUB_PORT', 8000))}"
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{int(os.environ.get('AHD_HUB_API_PORT', 8081))}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{int(os.environ.get('AHD_PROXY_API_PORT', 8001))}"
c.JupyterHub.db_url = f"sqlite:///{DATA / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(DATA / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(DATA / "jupyterhub-proxy.pid")
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every user's server (and so their kernels)

# configurable-http-proxy comes from npm: on PATH, or where ./run.sh test installs it
_checkout_proxy = Path(__file__).resolve().parents[1] / ".venv" / "node" / "node_modules" / ".bin" / "configurable-http-proxy"
_proxy = shutil.which("configurable-http-proxy") or (str(_checkout_proxy) if _checkout_proxy.exists() else None)
if _proxy:
    c.ConfigurableHTTPProxy.command = [_proxy]

# ------------------------------------------------------------------------------- who may log in
users = {u.strip() for u in os.environ.get("AHD_HUB_USERS", "").split(",") if u.strip()}
admins = {u.strip() for u in os.environ.get("AHD_HUB_ADMINS", "").split(",") if u.strip()}
if admins:
    c.Authenticator.admin_users = admins
if MODE == "test":
    c.JupyterHub.authenticator_class = "dummy"
    c.DummyAuthenticator.password = os.environ.get("AHD_HUB_PASSWORD") or None
    if not c.DummyAuthenticator.password:
        raise ValueError("test mode needs AHD_HUB_PASSWORD (the dummy authenticator's shared password)")
    if users:
        c.Authenticator.allowed_users = users
    else:
        c.Authenticator.allow_all = True
    c.JupyterHub.spawner_class = "simple"  # SimpleLocalProcessSpawner: no system accounts, no isolation
    c.SimpleLocalProcessSpawner.home_dir_template = str(DATA / "home" / "{username}")
else:
    c.JupyterHub.authenticator_class = "pam"  # system accounts; see the docstring for single sign-on
    c.Authenticator.allowed_users = users
    c.JupyterHub.spawner_class = "localprocess"  # each server runs as its user

# -------------------------------------------------------------------- each user's server: the app
_widgets = importlib.util.find_spec("widgets")
if _widgets is None or _widgets.origin is None:
    raise ImportError("house-divided is not installed in JupyterHub's environment: pip install \"house-divided[app]\"")
PACKAGE = Path(_widgets.origin).parent
APPS = PACKAGE / "apps"  # the app notebook (package data)
if not (APPS / "app.ipynb").is_file():
    raise FileNotFoundError(f"{APPS / 'app.ipynb'} is missing: reinstall house-divided")

c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]  # this environment's Python for every user
c.Spawner.notebook_dir = str(APPS)  # read-only for users; every user opens the same notebook
c.Spawner.default_url = "/voila/render/app.ipynb"
c.Spawner.args = [
    "--VoilaConfiguration.template=ahd",          # voila's lab template without its CDN stylesheets
    "--VoilaConfiguration.show_tracebacks=False",
    "--VoilaExecutor.iopub_timeout=60",
    "--MappingKernelManager.cull_idle_timeout=120",
    "--MappingKernelManager.cull_interval=30",
    "--MappingKernelManager.cull_connected=False",
    "--ServerApp.terminals_enabled=False",         # the app is all a student needs
]
if MODE == "test" and os.geteuid() == 0:  # test mode's servers run as the hub's user: root in containers and CI
    c.Spawner.args.append("--ServerApp.allow_root=True")


def _games_dir(spawner) -> str:
    """Where a user's games are saved from the panel: a folder in their home."""
    if MODE == "test":
        home = spawner.home_dir
    else:
        home = pwd.getpwnam(spawner.user.name).pw_dir
    return str(Path(home) / "house-divided-games")


c.Spawner.environment = {
    "JUPYTER_PATH": str(PACKAGE / "jupyter"),  # where the ahd voila template is
    "AHD_GAMES_DIR": _games_dir,
}
# a busy machine (a whole class logging in at once) starts servers slowly
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120

# ------------------------------------------------------------------- idle servers (optional)
if importlib.util.find_spec("jupyterhub_idle_culler") is not None:
    c.JupyterHub.load_roles = [{"name": "idle-culler", "services": ["idle-culler"],
                                "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"]}]
    c.JupyterHub.services = [{"name": "idle-culler",
                              "command": [sys.executable, "-m", "jupyterhub_idle_culler", "--timeout=1800"]}]
