"""The apiserver's side of a conversion webhook over HTTPS (``httpx``): what ``fuzz-roundtrip --webhook`` talks.

:class:`WebhookClient` converts an object or a list the way ``webhookConverter.Convert`` does: the
objects not at the desired version (``objects_to_convert``) go into one ConversionReview
(``create_conversion_review``, a fresh uid), which is POSTed as JSON; the answer is judged by
``convert_from_response`` (decoding, uid, ``result.status``, count, groupVersion, kind, identity,
``restore_object_meta``), so what comes back is what the apiserver would hold, and a failure is a
:class:`~crdtool.core.conversion_review.ConversionError` with the apiserver's message.

Transport failures and non-200 answers are wrapped as upstream wraps them (``conversion webhook
for <gvk> failed: ...``); their inner text is httpx's / the HTTP status, not client-go's.

:class:`WebhookConvert` adapts the client to the fuzzer's ``convert(obj, desired_api_version)``
contract: :meth:`WebhookConvert.prefetch` sends a whole batch of generated objects in one review
(and the converted batch back in a second), and the per-object calls the properties make are then
answered from those reviews. Review versions rotate through those the CRD allows, so both
``v1`` and ``v1beta1`` reviews are exercised.
"""

from __future__ import annotations

import itertools
import json
import ssl
import uuid
from typing import Any, Sequence

from crdtool.core.conversion_review import (
    CALL_FAILURE,
    ConversionError,
    convert_from_response,
    create_conversion_review,
    gvk_string,
    objects_to_convert,
)


class WebhookClient:
    """POSTs ConversionReviews to ``url`` and judges the answers as the apiserver does."""

    def __init__(self, url: str, *, ca_bundle: str | None = None, timeout: float = 30.0) -> None:
        """``ca_bundle``: a PEM file to trust (else the system's roots); ``timeout`` in seconds per request.

        Raises ``OSError``/``ssl.SSLError`` when the bundle cannot be read.
        """
        import httpx

        verify: Any = True
        if ca_bundle:
            verify = ssl.create_default_context(cafile=ca_bundle)
        self.url = url
        self.http = httpx.Client(verify=verify, timeout=timeout)

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> WebhookClient:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def convert(self, obj_or_list: Any, desired_api_version: str, review_version: str = "v1") -> Any:
        """``obj_or_list`` converted to ``desired_api_version`` through the webhook.

        ``review_version`` is the ``conversionReviewVersions`` entry to use (``v1`` or
        ``v1beta1``). Out: the converted object or list (see ``convert_from_response``). Raises
        :class:`ConversionError` with the apiserver's message.
        """
        objects = objects_to_convert(obj_or_list, desired_api_version)
        if not objects:
            return convert_from_response(obj_or_list, desired_api_version, "", "", None)
        uid = str(uuid.uuid4())
        version, request, _ = create_conversion_review([review_version], objects, desired_api_version, uid)
        body = self.post(request, gvk_string(obj_or_list) if isinstance(obj_or_list, dict) else "/, Kind=")
        return convert_from_response(obj_or_list, desired_api_version, version, uid, body)

    def post(self, review: dict[str, Any], gvk: str) -> bytes:
        """POST ``review``; the response body. Raises :class:`ConversionError` for transport errors and non-200s."""
        import httpx

        data = json.dumps(review, separators=(",", ":"), ensure_ascii=False).encode()
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        try:
            response = self.http.post(self.url, content=data, headers=headers)
        except httpx.TimeoutException as exc:
            raise ConversionError(
                f'conversion webhook for {gvk} failed: Post "{self.url}": timeout ({type(exc).__name__})', CALL_FAILURE
            ) from None
        except httpx.HTTPError as exc:
            raise ConversionError(f'conversion webhook for {gvk} failed: Post "{self.url}": {exc}', CALL_FAILURE) from None
        if response.status_code != 200:
            text = response.text.strip()
            shown = (text[:300] + "...") if len(text) > 300 else text
            raise ConversionError(
                f"conversion webhook for {gvk} failed: HTTP {response.status_code}: {shown}", CALL_FAILURE
            )
        return response.content


def _key(obj: Any, desired: str) -> str:
    return desired + "\0" + json.dumps(obj, sort_keys=True, separators=(",", ":"))


class WebhookConvert:
    """The fuzzer's ``convert(obj, desired_api_version)``, answered by a webhook in batches."""

    def __init__(self, client: WebhookClient, review_versions: Sequence[str]) -> None:
        supported = [v for v in review_versions if v in ("v1", "v1beta1")]
        self.client = client
        self.review_versions = supported or ["v1"]
        self._rotation = itertools.cycle(self.review_versions)
        self._cache: dict[str, Any] = {}
        self.reviews = 0

    def __call__(self, obj: dict[str, Any], desired_api_version: str) -> Any:
        cached = self._cache.get(_key(obj, desired_api_version))
        if cached is None:
            cached = self._review([obj], desired_api_version)[0]
        if isinstance(cached, ConversionError):
            # a fresh exception: the review's own frames say nothing about the converter under test
            raise ConversionError(cached.message, cached.failure_type) from None
        return json.loads(json.dumps(cached))

    def prefetch(self, objects: list[dict[str, Any]], source_api_version: str, target_api_version: str) -> None:
        """Convert ``objects`` to the target in one review, and the results back to the source in another."""
        self._cache.clear()
        forward = self._review(objects, target_api_version)
        for obj, out in zip(objects, forward):
            self._cache[_key(obj, target_api_version)] = out
        converted = [out for out in forward if isinstance(out, dict)]
        if converted:
            back = self._review(converted, source_api_version)
            for obj, out in zip(converted, back):
                self._cache[_key(obj, source_api_version)] = out

    def _review(self, objects: list[dict[str, Any]], desired: str) -> list[Any]:
        """One review of ``objects`` (a list conversion); each entry a converted object or the shared error."""
        self.reviews += 1
        version = next(self._rotation)
        subject: Any = objects[0]
        if len(objects) > 1:
            # as the apiserver's list conversion holds them: a list at the desired version
            kind = objects[0].get("kind")
            subject = {"apiVersion": desired, "kind": f"{kind}List" if isinstance(kind, str) else "List",
                       "items": list(objects)}
        try:
            result = self.client.convert(subject, desired, version)
        except ConversionError as exc:
            return [exc] * len(objects)
        return [result] if len(objects) == 1 else list(result["items"])
