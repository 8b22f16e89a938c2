"""Request models: one declaration checks a request and documents it (flask-openapi3, pydantic).

A route names its inputs in its signature (``path: AttemptPath, body: MoveBody``); flask-openapi3
validates them before the view runs and puts their JSON Schema in ``/api/openapi.json``. This
module maps pydantic's verdict onto API.md's errors:

- each model says which error its failures are (:attr:`ApiModel.invalid`): a body of the wrong
  shape for a move is 400 ``bad_request``, a bad name or query value 422 ``bad_value``;
- API.md orders the checks 400, 401/403, 404, 409, 422, but the models run first (the query's
  before the body's). A 422 therefore waits for a malformed body's 400 and for the route's
  earlier checks, declared with :func:`checks_first`: a bad name on a closed day is 409
  ``day_closed``, as it was when every view checked its own body.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, get_type_hints

from flask import current_app, request
from pydantic import BaseModel, ConfigDict, ValidationError

from service.errors import ApiError

F = TypeVar("F", bound=Callable[..., Any])


class ApiModel(BaseModel):
    """A request part (path, query or body): exact JSON types, unknown fields ignored."""

    model_config = ConfigDict(strict=True, frozen=True)
    # (status, code) for any failure of this model (API.md: a value the API rejects is 422).
    invalid: ClassVar[tuple[int, str]] = (422, "bad_value")

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        # flask-openapi3 asks for a query model's schema on every request: build it once.
        if args or kwargs:
            return super().model_json_schema(*args, **kwargs)
        schema = _SCHEMAS.get(cls)
        if schema is None:
            schema = _SCHEMAS[cls] = super().model_json_schema()
        return schema

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        # Indexed by the name a pydantic ValidationError carries as its title.
        super().__pydantic_init_subclass__(**kwargs)
        _MODELS[cls.__name__] = cls


_SCHEMAS: dict[type[ApiModel], dict[str, Any]] = {}
_MODELS: dict[str, type[ApiModel]] = {}


def checks_first(check: Callable[..., object]) -> Callable[[F], F]:
    """Declare the route's checks that API.md orders before a bad value (401/403, 404, 409).
    The view calls ``check`` itself; when a model finds a bad value first, ``check`` runs with
    the URL's variables, and its error wins over the 422."""

    def mark(view: F) -> F:
        view.checks_first = check  # type: ignore[attr-defined]  # copied by functools.wraps
        return view

    return mark


def on_invalid(error: ValidationError) -> None:
    """flask-openapi3's validation callback: raise the request's error in API.md's shape."""
    status, code = _invalid(error)
    if status == 422:
        view = current_app.view_functions.get(request.endpoint or "")
        _body_first(view)
        check = getattr(view, "checks_first", None)
        if check is not None:
            check(**(request.view_args or {}))
    raise ApiError(status, code, _message(error))


def _invalid(error: ValidationError) -> tuple[int, str]:
    model = _MODELS.get(error.title)
    return model.invalid if model is not None else (422, "bad_value")


def _body_first(view: Callable[..., Any] | None) -> None:
    """A malformed body (400) wins over a bad query value, which flask-openapi3 finds first."""
    body = get_type_hints(view).get("body") if view is not None else None
    if body is None or not issubclass(body, ApiModel) or body.invalid[0] != 400:
        return
    try:
        body.model_validate(request.get_json())  # a body that is not JSON: 400 from here
    except ValidationError as e:
        status, code = body.invalid
        raise ApiError(status, code, _message(e)) from None


def _message(error: ValidationError) -> str:
    """The first failure as ``field: reason`` (never the input: it may be huge or hidden)."""
    first = error.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in first["loc"])
    # A rule's own ValueError says why in its words; pydantic's message would prefix them.
    raised = first.get("ctx", {}).get("error")
    reason = str(raised) if isinstance(raised, ValueError) else str(first["msg"])
    if not where or reason.startswith(f"{where}:"):
        return reason
    return f"{where}: {reason}"
