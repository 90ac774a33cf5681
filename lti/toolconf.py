"""pylti1p3's tool configuration read from the Platform registrations (lti.models)."""
from __future__ import annotations

from pylti1p3.deployment import Deployment
from pylti1p3.registration import Registration
from pylti1p3.tool_config.abstract import ToolConfAbstract

from .models import Platform


def registration_of(platform: Platform) -> Registration:
    """pylti1p3's Registration of a platform: its endpoints and keys, and the tool's key pair."""
    reg = Registration()
    reg.set_issuer(platform.issuer).set_client_id(platform.client_id)
    reg.set_auth_login_url(platform.auth_login_url).set_auth_token_url(platform.auth_token_url)
    reg.set_auth_audience(platform.auth_audience or None)
    reg.set_key_set_url(platform.key_set_url or None).set_key_set(platform.key_set or None)
    reg.set_tool_private_key(platform.tool_private_key).set_tool_public_key(platform.tool_public_key)
    return reg


class PlatformToolConf(ToolConfAbstract):
    """Every active Platform row; one issuer may have several client ids (one per registration).

    A login request without client_id (some platforms omit it) takes the issuer's only active
    registration; with several, it is refused (pylti1p3 raises "Could not find registration details")."""

    def check_iss_has_one_client(self, iss: str) -> bool:
        return False

    def check_iss_has_many_clients(self, iss: str) -> bool:
        return True

    def platform(self, iss: str, client_id: str | None) -> Platform | None:
        """The active registration of (iss, client_id), or None."""
        rows = Platform.objects.filter(issuer=iss, is_active=True)
        if client_id:
            return rows.filter(client_id=client_id).first()
        found = list(rows[:2])
        return found[0] if len(found) == 1 else None

    def find_registration_by_issuer(self, iss: str, *args, **kwargs):
        platform = self.platform(iss, None)
        return registration_of(platform) if platform else None

    def find_registration_by_params(self, iss: str, client_id: str, *args, **kwargs):
        platform = self.platform(iss, client_id)
        return registration_of(platform) if platform else None

    def find_deployment(self, iss: str, deployment_id: str):
        return None

    def find_deployment_by_params(self, iss: str, deployment_id: str, client_id: str, *args, **kwargs):
        platform = self.platform(iss, client_id)
        if platform is None or deployment_id not in (platform.deployment_ids or []):
            return None
        return Deployment().set_deployment_id(deployment_id)

    def get_jwks(self, iss: str | None = None, client_id: str | None = None, **kwargs):
        """{"keys": [...]}: the public JWK (RS256, with its kid) of every active registration's tool key."""
        keys, seen = [], set()
        for public in Platform.objects.filter(is_active=True).values_list("tool_public_key", flat=True):
            if public and public not in seen:
                seen.add(public)
                keys.append(Registration.get_jwk(public))
        return {"keys": keys}
