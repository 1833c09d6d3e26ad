"""Self-signed certificates for ``crdtool serve --self-signed`` (development and tests), with ``cryptography``.

The certificate is its own CA (so it is what goes into the CRD's ``caBundle``): an ECDSA P-256 key,
``basicConstraints: CA:TRUE`` (critical), key usages for serving and signing, ``extendedKeyUsage:
serverAuth``, subject and authority key identifiers (strict X.509 verifiers such as Python 3.13's
default context want them), and subject alternative names: ``localhost``, ``127.0.0.1``, ``::1``,
plus the names given (a Service's ``<name>.<namespace>.svc`` for in-cluster use, or the bind
address). It is valid from one hour ago for ``days`` days.
"""

from __future__ import annotations

import base64
import datetime
import ipaddress
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class SelfSigned:
    """Paths of the written PEM files and the certificate PEM (the CA bundle)."""

    cert_path: str
    key_path: str
    cert_pem: bytes

    @property
    def ca_bundle(self) -> str:
        """The base64 of the PEM, as ``clientConfig.caBundle`` wants it."""
        return base64.b64encode(self.cert_pem).decode()


def generate(directory: str, names: list[str] | tuple[str, ...] = (), days: int = 365) -> SelfSigned:
    """Write ``tls.crt`` and ``tls.key`` (mode 0600) into ``directory`` and return them.

    In: an existing writable directory; extra DNS names or IP addresses for the certificate.
    Raises ``OSError`` when the files cannot be written.
    """
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    sans: list[x509.GeneralName] = []
    seen: set[str] = set()
    for name in ("localhost", "127.0.0.1", "::1", *names):
        if not name or name in seen or name in ("0.0.0.0", "::"):
            continue
        seen.add(name)
        try:
            sans.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            sans.append(x509.DNSName(name))
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "crdtool conversion webhook")])
    now = datetime.datetime.now(datetime.timezone.utc)
    ski = x509.SubjectKeyIdentifier.from_public_key(key.public_key())
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                          data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=False,
                          encipher_only=False, decipher_only=False),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName(sans), critical=False)
        .add_extension(ski, critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ski), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_pem = cert.public_bytes(serialization.Encoding.PEM)
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    cert_path = os.path.join(directory, "tls.crt")
    key_path = os.path.join(directory, "tls.key")
    with open(cert_path, "wb") as f:
        f.write(cert_pem)
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key_pem)
    return SelfSigned(cert_path, key_path, cert_pem)
