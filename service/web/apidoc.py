"""The API's application class and its OpenAPI document, generated from the routes' declarations.

flask-openapi3 collects every ``APIBlueprint`` route's models, summary and responses; this module
sets the document's frame (title, security schemes, the errors every route may answer);
:mod:`service.web.openapi` serves it at ``/api/openapi.json``. Nothing here lists a route: a new
route documents itself.
"""

from __future__ import annotations

from typing import Any, Final

from flask_openapi3.blueprint import APIBlueprint
from flask_openapi3.models.info import Info
from flask_openapi3.models.tag import Tag
from flask_openapi3.openapi import OpenAPI

from service import games
from service.web import outputs
from service.web.validation import on_invalid

SECURITY: Final[list[dict[str, list[Any]]]] = [{"bearer": []}, {"session": []}]
#: The engine of the daily challenge a request without ``game`` plays (API v1).
ENGINE: Final = games.get(games.DEFAULT).engine_version


class ApiApp(OpenAPI):
    """Flask with flask-openapi3: routes on ``APIBlueprint``s validate their declared inputs."""

    def __init__(self, import_name: str, **kwargs: Any) -> None:
        super().__init__(
            import_name,
            info=Info(
                title="Pik Dame — Tages-Challenge",
                version="1",
                description=f"The daily challenge API (engine {ENGINE}); see API.md.",
            ),
            security_schemes={
                "bearer": {"type": "http", "scheme": "bearer"},
                "session": {"type": "apiKey", "in": "cookie", "name": "session"},
            },
            validation_error_callback=on_invalid,
            doc_ui=False,  # the document only, no bundled UI pages
            **kwargs,
        )

    def generate_spec_json(self) -> None:
        super().generate_spec_json()  # type: ignore[no-untyped-call]
        spec = self.spec_json
        schemas = spec["components"]["schemas"]
        # Declared errors use API.md's envelope; flask-openapi3 adds a list of its own
        # validation-error model to routes without a 422, which the API never sends.
        for item in spec["paths"].values():
            for operation in item.values():
                declared = operation["responses"].get("422", {})
                if "ValidationErrorModel" in str(declared):
                    del operation["responses"]["422"]
                if "description" in operation:
                    operation["description"] = operation["description"].replace("<br/>", "\n")
        for name in [n for n in schemas if n.startswith("ValidationErrorModel")]:
            del schemas[name]
        for model in (outputs.Error, outputs.ErrorDetail):
            schemas[model.__name__] = model.model_json_schema(
                ref_template="#/components/schemas/{model}"
            )
            schemas[model.__name__].pop("$defs", None)


def api_blueprint(
    name: str, import_name: str, url_prefix: str = "", authorised: bool = False
) -> APIBlueprint:
    """An area of the API: its routes tagged with its name, each documented with the errors any
    route may answer (429, 503), and, when ``authorised``, the bearer token or session."""
    return APIBlueprint(
        name,
        import_name,
        url_prefix=url_prefix,
        abp_tags=[Tag(name=name)],
        abp_responses=outputs.COMMON,
        abp_security=SECURITY if authorised else None,
    )
