"""The tool's RSA key pairs: one per platform registration, PEM text, 2048 bits."""
from __future__ import annotations

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa


def new_key_pair(bits: int = 2048) -> tuple[str, str]:
    """(private key PEM in PKCS#8, public key PEM in SubjectPublicKeyInfo), both str."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=bits)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public
