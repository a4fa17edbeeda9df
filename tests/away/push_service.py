"""A push service of our own for the tests: the receiving side of RFC 8030 and RFC 8291.

It runs on 127.0.0.1 in a thread the test starts. A test makes a subscription here the way a
browser would (a P-256 key pair and a 16-byte auth secret), hands its endpoint and public keys to
the site, and reads back what the site sent. For every push the service checks what a real push
service checks and refuses what it would refuse: the VAPID token (ES256, signed by the key in
``k``, ``aud`` the endpoint's origin, ``exp`` in the future and within a day, a ``sub``), a ``TTL``
header, a ``Topic`` of at most 32 base64url characters, and an ``aes128gcm`` body, which it decrypts
with the subscription's private key and auth secret as the browser would.

Like a real service it holds each message for a device that is away until the device comes back
(``deliver``): a message whose TTL ran out by then is dropped, and a message with the Topic of one
still held replaces it (RFC 8030 §5.4). A subscription the test ``expires`` answers 410 Gone; a
service told to ``fail`` answers 5xx a number of times first.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

TOPIC = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _hmac(key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hashlib.sha256).digest()


def decrypt(body: bytes, *, ua_private: ec.EllipticCurvePrivateKey, auth_secret: bytes) -> bytes:
    """RFC 8291 §3 and RFC 8188: the user agent's side, written out step by step (HKDF with one block)."""
    salt, record_size, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
    as_public_bytes = body[21 : 21 + id_length]
    ciphertext = body[21 + id_length :]
    as_public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), as_public_bytes)
    ua_public_bytes = ua_private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    ecdh_secret = ua_private.exchange(ec.ECDH(), as_public)
    key_info = b"WebPush: info\x00" + ua_public_bytes + as_public_bytes
    ikm = _hmac(_hmac(auth_secret, ecdh_secret), key_info + b"\x01")[:32]
    prk = _hmac(salt, ikm)
    cek = _hmac(prk, b"Content-Encoding: aes128gcm\x00\x01")[:16]
    nonce = _hmac(prk, b"Content-Encoding: nonce\x00\x01")[:12]
    plain = b""
    records = [ciphertext[i : i + record_size] for i in range(0, len(ciphertext), record_size)]
    for sequence, record in enumerate(records):
        record_nonce = (int.from_bytes(nonce, "big") ^ sequence).to_bytes(12, "big")
        padded = AESGCM(cek).decrypt(record_nonce, record, None).rstrip(b"\x00")
        last = sequence == len(records) - 1
        if padded[-1:] != (b"\x02" if last else b"\x01"):
            raise ValueError("bad padding delimiter")
        plain += padded[:-1]
    return plain


def check_vapid(authorization: str, *, origin: str, now: float) -> dict:
    """RFC 8292: ``vapid t=<JWT>, k=<public key>``; the claims, or ValueError saying what is wrong."""
    scheme, _, rest = authorization.partition(" ")
    if scheme.lower() != "vapid":
        raise ValueError("not the vapid scheme")
    params = dict(part.strip().split("=", 1) for part in rest.split(","))
    token, key = params["t"], params["k"]
    header_b64, claims_b64, signature_b64 = token.split(".")
    header = json.loads(b64decode(header_b64))
    if header.get("alg") != "ES256":
        raise ValueError("not ES256")
    signature = b64decode(signature_b64)
    if len(signature) != 64:
        raise ValueError("an ES256 signature is 64 bytes")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64decode(key))
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        public.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("bad signature") from None
    claims = json.loads(b64decode(claims_b64))
    if claims.get("aud") != origin:
        raise ValueError(f"aud {claims.get('aud')!r} is not {origin!r}")
    if not now < int(claims.get("exp", 0)) <= now + 24 * 3600:
        raise ValueError("exp is not within the next 24 hours")
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        raise ValueError("sub must be a mailto: or https: URL")
    claims["k"] = key
    return claims


@dataclass
class Message:
    token: str
    ttl: int
    topic: str | None
    urgency: str | None
    payload: dict
    claims: dict
    received_at: float


@dataclass
class Subscription:
    token: str
    private_key: ec.EllipticCurvePrivateKey
    auth_secret: bytes
    endpoint: str
    gone: bool = False
    held: list[Message] = field(default_factory=list)

    @property
    def p256dh(self) -> str:
        return b64encode(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth(self) -> str:
        return b64encode(self.auth_secret)

    def info(self) -> dict:
        """What a browser's PushSubscription.toJSON() gives the site."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class PushService:
    def __init__(self) -> None:
        self.subscriptions: dict[str, Subscription] = {}
        self.received: list[Message] = []
        self.refused: list[tuple[int, str]] = []
        self.failures_left = 0
        self.failure_status = 503
        self.clock = time.time
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                status, reason = service.receive(self)
                if status >= 400:
                    service.refused.append((status, reason))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                if status == 201:
                    self.send_header("Location", f"{service.origin}/messages/{secrets.token_hex(4)}")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> PushService:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def subscribe(self) -> Subscription:
        token = secrets.token_urlsafe(12)
        subscription = Subscription(
            token=token,
            private_key=ec.generate_private_key(ec.SECP256R1()),
            auth_secret=secrets.token_bytes(16),
            endpoint=f"{self.origin}/push/{token}",
        )
        self.subscriptions[token] = subscription
        return subscription

    def expire(self, subscription: Subscription) -> None:
        subscription.gone = True

    def fail(self, times: int, status: int = 503) -> None:
        self.failures_left, self.failure_status = times, status

    def messages(self, subscription: Subscription) -> list[Message]:
        return [message for message in self.received if message.token == subscription.token]

    def deliver(self, subscription: Subscription, *, at: float) -> list[Message]:
        """The device comes back at ``at``: what it is handed (held messages whose TTL has not run out)."""
        with self.lock:
            held, subscription.held = subscription.held, []
        return [message for message in held if message.received_at + message.ttl >= at]

    def receive(self, request: BaseHTTPRequestHandler) -> tuple[int, str]:
        match = re.fullmatch(r"/push/([A-Za-z0-9_-]+)", request.path)
        subscription = self.subscriptions.get(match.group(1)) if match else None
        length = int(request.headers.get("Content-Length", "0"))
        body = request.rfile.read(length)
        if subscription is None:
            return 404, "no such subscription"
        if subscription.gone:
            return 410, "subscription expired"
        if self.failures_left:
            self.failures_left -= 1
            return self.failure_status, "failing on purpose"
        now = self.clock()
        try:
            claims = check_vapid(request.headers.get("Authorization", ""), origin=self.origin, now=now)
        except (ValueError, KeyError) as error:
            return 401, f"VAPID: {error}"
        ttl = request.headers.get("TTL")
        if ttl is None or not ttl.isdigit():
            return 400, "a TTL header is required"
        topic = request.headers.get("Topic")
        if topic is not None and not TOPIC.match(topic):
            return 400, "a Topic is at most 32 base64url characters"
        if request.headers.get("Content-Encoding") != "aes128gcm":
            return 415, "aes128gcm only"
        try:
            plain = decrypt(body, ua_private=subscription.private_key, auth_secret=subscription.auth_secret)
        except Exception as error:  # noqa: BLE001 (any decryption failure is the sender's fault)
            return 400, f"cannot decrypt: {error!r}"
        message = Message(
            token=subscription.token,
            ttl=int(ttl),
            topic=topic,
            urgency=request.headers.get("Urgency"),
            payload=json.loads(plain),
            claims=claims,
            received_at=now,
        )
        with self.lock:
            self.received.append(message)
            if topic is not None:
                subscription.held = [held for held in subscription.held if held.topic != topic]
            subscription.held.append(message)
        return 201, "created"
