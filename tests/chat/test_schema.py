"""The OpenAPI schema is the API's contract: generated from the serializers, checked in, served, documented."""

from pathlib import Path

import pytest
import yaml
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiYamlRenderer

CHECKED_IN = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"
REGENERATE = ".venv/bin/python manage.py spectacular --file docs/openapi.yaml --validate"
ERROR_STATUSES = {"400", "401", "404", "413", "415", "429", "503"}


def generated() -> dict:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return yaml.safe_load(OpenApiYamlRenderer().render(schema, renderer_context={}))


def test_the_checked_in_schema_is_the_generated_one():
    """A change to the contract is deliberate: regenerate docs/openapi.yaml and review the diff."""
    assert generated() == yaml.safe_load(CHECKED_IN.read_text()), f"the API changed; run `{REGENERATE}`"


def test_every_operation_documents_its_errors_in_the_one_error_shape():
    schema = generated()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            assert "200" in responses and responses["200"]["description"], (path, method)
            for status in set(responses) & ERROR_STATUSES - ({"503"} if path.endswith("/health/") else set()):
                ref = responses[status]["content"]["application/json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/Error", (path, method, status)
            for status in {"429", "503"} & set(responses):
                assert "Retry-After" in responses[status]["headers"], (path, method, status)
    answer = schema["components"]["schemas"]["Answer"]
    undescribed = [name for name, prop in answer["properties"].items() if not prop.get("description")]
    assert undescribed == []


@pytest.mark.django_db
def test_the_schema_and_an_offline_docs_page_are_served(client):
    served = client.get("/api/schema/", secure=True)
    assert served.status_code == 200 and yaml.safe_load(served.content)["paths"]
    docs = client.get("/api/docs/", secure=True)
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "drf_spectacular_sidecar" in html and "https://" not in html.replace(
        "https://www.va.gov", "")  # every asset from this app's static files
    assert "<script>" not in html and "<style" not in html
    script = client.get("/api/docs/?script=", secure=True)
    assert script.status_code == 200 and b"SwaggerUIBundle" in script.content
