"""The tests' push service decrypts as RFC 8291 says: its worked example (§5, Appendix A)."""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric import ec

from tests.away.push_service import b64decode, decrypt

# RFC 8291 §5 "Push Message Encryption Example", with the keys of Appendix A.
PLAINTEXT = b"When I grow up, I want to be a watermelon"
UA_PRIVATE = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
UA_PUBLIC = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
AUTH_SECRET = "BTBZMqHH6r4Tts7J_aSIgg"
BODY = (
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_"
    "yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
)


def ua_key() -> ec.EllipticCurvePrivateKey:
    key = ec.derive_private_key(int.from_bytes(b64decode(UA_PRIVATE), "big"), ec.SECP256R1())
    return key


def test_the_key_pair_of_appendix_a_matches():
    from cryptography.hazmat.primitives import serialization

    point = (
        ua_key().public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    assert point == b64decode(UA_PUBLIC)


def test_it_decrypts_the_worked_example_of_rfc_8291():
    assert decrypt(b64decode(BODY), ua_private=ua_key(), auth_secret=b64decode(AUTH_SECRET)) == PLAINTEXT


def test_it_refuses_the_example_with_another_auth_secret():
    import pytest

    with pytest.raises(Exception):  # noqa: B017 (AES-GCM's InvalidTag: the tag does not match)
        decrypt(b64decode(BODY), ua_private=ua_key(), auth_secret=b"\x00" * 16)
