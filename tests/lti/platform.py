"""A test LMS for the LTI tests: its own RSA key pair (made here), its JWKS, OIDC authorisation
(the test plays the browser), and the Assignment and Grade Services endpoints as the specifications
describe them, on a local HTTP server thread:

- GET  /jwks                     the platform's public keys
- POST /token                    OAuth 2 client credentials with a JWT client assertion (RFC 7523),
                                 checked against the tool's public key (from the tool's JWKS)
- GET  /lineitems                line items (application/vnd.ims.lis.v2.lineitemcontainer+json)
- POST /lineitems                create one (application/vnd.ims.lis.v2.lineitem+json) -> 201
- POST /lineitems/<n>/scores     a score (application/vnd.ims.lis.v1.score+json) -> 200

Everything the tool sends is kept in `requests`, scores in `scores[lineitem id]`.
"""
from __future__ import annotations

import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwcrypto.jwk import JWK

ISSUER = "https://lms.test.example"
CLIENT_ID = "warpdrill-client-1"
DEPLOYMENT_ID = "deployment-1"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
RESULT_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"


def rsa_pair() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


class TestPlatform:
    """The LMS. `tool_jwks` must be set (the tool's /lti/jwks.json) before the tool asks for a token."""

    __test__ = False  # not a test class, whatever its name

    def __init__(self):
        self.private_key, public = rsa_pair()
        jwk = JWK.from_pem(public.encode())
        self.kid = jwk.thumbprint()
        self.jwk = {**json.loads(jwk.export_public()), "kid": self.kid, "alg": "RS256", "use": "sig"}
        self.tool_jwks: dict | None = None
        self.requests: list[dict] = []
        self.lineitems: list[dict] = []
        self.scores: dict[str, list[dict]] = {}
        self.tokens: set[str] = set()
        self.refuse_scores = False
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                platform._handle(self, "GET")

            def do_POST(self):
                platform._handle(self, "POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    # -- what the tool's registration needs ----------------------------------------------------------
    def registration(self) -> dict:
        return {"name": "Test LMS", "issuer": ISSUER, "client_id": CLIENT_ID, "deployment_ids": [DEPLOYMENT_ID],
                "auth_login_url": self.url + "/auth", "auth_token_url": self.url + "/token",
                "key_set_url": self.url + "/jwks"}

    def ags_claim(self, lineitem: str | None = None, scopes=(SCORE_SCOPE, LINEITEM_SCOPE, RESULT_SCOPE)) -> dict:
        claim = {"scope": list(scopes), "lineitems": self.url + "/lineitems"}
        if lineitem:
            claim["lineitem"] = lineitem
        return claim

    # -- launches --------------------------------------------------------------------------------------
    def id_token(self, nonce: str, *, sub: str, roles: list[str], custom: dict | None = None,
                 resource_link_id: str = "link-1", context_id: str = "lms-course-1", ags: dict | None = None,
                 key: str | None = None, kid: str | None = None, deployment_id: str = DEPLOYMENT_ID,
                 **extra) -> str:
        """A signed LtiResourceLinkRequest id_token (RS256 with this platform's key unless `key`)."""
        now = int(time.time())
        claims = {
            "iss": ISSUER, "aud": CLIENT_ID, "sub": sub, "iat": now, "exp": now + 300, "nonce": nonce,
            "name": extra.pop("name", "Alice Kim"), "given_name": "Alice", "family_name": "Kim",
            "email": extra.pop("email", f"{sub}@lms.test.example"),
            CLAIM + "message_type": "LtiResourceLinkRequest", CLAIM + "version": "1.3.0",
            CLAIM + "deployment_id": deployment_id,
            CLAIM + "target_link_uri": "http://testserver/lti/launch/",
            CLAIM + "resource_link": {"id": resource_link_id, "title": "WarpDrill midterm"},
            CLAIM + "context": {"id": context_id, "title": "GPU Programming (LMS)", "label": "GPU101"},
            CLAIM + "roles": roles,
            CLAIM + "custom": custom or {},
            **extra,
        }
        if ags is not None:
            claims["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"] = ags
        return jwt.encode(claims, key or self.private_key, algorithm="RS256", headers={"kid": kid or self.kid})

    # -- the HTTP endpoints ------------------------------------------------------------------------------
    def _handle(self, h: BaseHTTPRequestHandler, method: str):
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length).decode() if length else ""
        path = urlsplit(h.path).path
        self.requests.append({"method": method, "path": path, "query": urlsplit(h.path).query,
                              "headers": dict(h.headers.items()), "body": raw})
        status, body, ctype = self._route(method, path, raw, h.headers)
        data = json.dumps(body).encode() if body is not None else b""
        h.send_response(status)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    def _authorised(self, headers) -> bool:
        auth = headers.get("Authorization") or ""
        return auth.startswith("Bearer ") and auth[7:] in self.tokens

    def _route(self, method, path, raw, headers):
        if path == "/jwks" and method == "GET":
            return 200, {"keys": [self.jwk]}, "application/json"
        if path == "/token" and method == "POST":
            return self._token(parse_qs(raw))
        if not self._authorised(headers):
            return 401, {"error": "invalid_token"}, "application/json"
        if path == "/lineitems" and method == "GET":
            return 200, self.lineitems, "application/vnd.ims.lis.v2.lineitemcontainer+json"
        if path == "/lineitems" and method == "POST":
            if headers.get("Content-Type") != "application/vnd.ims.lis.v2.lineitem+json":
                return 415, {"error": "lineitem media type"}, "application/json"
            item = json.loads(raw)
            item["id"] = f"{self.url}/lineitems/{len(self.lineitems) + 1}"
            self.lineitems.append(item)
            return 201, item, "application/vnd.ims.lis.v2.lineitem+json"
        if path.startswith("/lineitems/") and path.endswith("/scores") and method == "POST":
            if headers.get("Content-Type") != "application/vnd.ims.lis.v1.score+json":
                return 415, {"error": "score media type"}, "application/json"
            if self.refuse_scores:
                return 400, {"error": "userId unknown"}, "application/json"
            lineitem = self.url + path.removesuffix("/scores")
            self.scores.setdefault(lineitem, []).append(json.loads(raw))
            return 200, {}, "application/json"
        return 404, {"error": "not found"}, "application/json"

    def _token(self, form: dict):
        """RFC 7523 client assertion: signed by the tool's key (its JWKS), iss = sub = client id, aud = this URL."""
        one = {k: v[0] for k, v in form.items()}
        if one.get("grant_type") != "client_credentials" or \
                one.get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer":
            return 400, {"error": "unsupported_grant_type"}, "application/json"
        assertion = one.get("client_assertion", "")
        kid = jwt.get_unverified_header(assertion).get("kid")
        keys = {k.get("kid"): k for k in (self.tool_jwks or {}).get("keys", [])}
        if kid not in keys:
            return 401, {"error": "invalid_client", "why": "unknown kid"}, "application/json"
        public = jwt.PyJWK(keys[kid]).key
        try:
            claims = jwt.decode(assertion, public, algorithms=["RS256"], audience=self.url + "/token")
        except jwt.InvalidTokenError as exc:
            return 401, {"error": "invalid_client", "why": str(exc)}, "application/json"
        if claims.get("iss") != CLIENT_ID or claims.get("sub") != CLIENT_ID or not claims.get("jti"):
            return 401, {"error": "invalid_client"}, "application/json"
        token = uuid.uuid4().hex
        self.tokens.add(token)
        return 200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600,
                     "scope": one.get("scope", "")}, "application/json"
