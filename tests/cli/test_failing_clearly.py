"""Failing clearly where a newcomer first trips: the command line without the server's
packages, and a plain-text client at a port that speaks TLS."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.helpers import cli, self_signed
from tests.served import OPERATOR, Served

MISSING = """
import sys
sys.modules[{name!r}] = None  # as after `pip install card-arena`, the SDK alone
sys.argv = ["arena", "--help"]
from arena.__main__ import run  # the `arena` command's entry point
run()
"""


def test_the_command_line_without_the_server_packages_says_what_to_install() -> None:
    for name in ("rich", "typer", "sqlmodel"):
        done = subprocess.run([sys.executable, "-c", MISSING.format(name=name)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 1, done.stderr
        assert done.stdout == "" and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.strip() == (
            f"arena: the command line needs the server's packages ({name} is not installed): "
            "pip install 'card-arena[server]'")


def test_a_plain_text_client_of_a_tls_port_is_told_to_pass_tls_ca(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    cert, key = self_signed(tmp_path)
    server = Served(db, "--no-web", "--no-sandbox", "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        assert "(TLS" in server.said(r"operator service listening on ").string
        address = server.address
        plain = cli("bot", "list", "--arena", address, "--token", OPERATOR, check=False)
        assert plain.returncode == 1 and "Traceback" not in plain.stderr, plain.stderr
        assert plain.stderr.strip() == (
            f"error: the arena at {address} speaks TLS: pass --tls-ca FILE, the certificate to "
            "trust (or ARENA_REMOTE_CA)"), plain.stderr
        trusted = cli("bot", "list", "--arena", f"localhost:{server.port}", "--token",
                      OPERATOR, "--tls-ca", str(cert))
        assert trusted.returncode == 0
    finally:
        server.stop()
