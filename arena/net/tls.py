"""TLS for the referee's listeners: a certificate chain and its key, in PEM files.

Both files are read and checked as a pair (with the standard library's ``ssl``)
before any server starts, so a wrong path, a file that is not PEM, a key that
does not belong to the certificate or a key that needs a passphrase is one
clear error up front, never a listener whose every handshake fails later.
"""

from __future__ import annotations

import ssl
from pathlib import Path

import grpc

from arena.errors import ArenaError


class TlsError(ArenaError, ValueError):
    """The TLS certificate or key cannot be used."""


def _no_passphrase() -> str:
    raise TlsError("the TLS key is encrypted: give a key without a passphrase")


def check_tls_files(cert: str | Path, key: str | Path) -> tuple[bytes, bytes]:
    """The certificate chain and key as bytes, once checked to be a matching PEM pair."""
    contents = []
    for what, path in (("certificate", cert), ("key", key)):
        try:
            contents.append(Path(path).read_bytes())
        except OSError as err:
            raise TlsError(f"cannot read the TLS {what} {str(path)!r}: {err.strerror or err}") from None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(str(cert), str(key), password=_no_passphrase)
    except ssl.SSLError as err:
        why = "the key does not belong to the certificate" if err.reason == "KEY_VALUES_MISMATCH" \
            else f"not a PEM certificate and key: {err.reason or err}"
        raise TlsError(f"the TLS certificate {str(cert)!r} and key {str(key)!r} cannot be used "
                       f"({why})") from None
    except OSError as err:  # the files changed since they were read
        raise TlsError(f"cannot read the TLS certificate or key: {err.strerror or err}") from None
    return contents[0], contents[1]


def server_credentials(cert: str | Path, key: str | Path) -> grpc.ServerCredentials:
    """gRPC server credentials from a certificate chain and key (checked first)."""
    chain, private_key = check_tls_files(cert, key)
    return grpc.ssl_server_credentials([(private_key, chain)])
