"""``/api/v1/organizers``: the admin makes, lists and revokes organizers (``ARENA_ADMIN_TOKEN``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask.views import MethodView

from arena.accounts import organizers
from arena.api.context import BEARER, presented_token, runtime
from arena.api.parsing import ArenaBlueprint
from arena.api.schemas.common import ErrorSchema
from arena.api.schemas.events import NewOrganizerSchema, OrganizerCreateSchema, OrganizerSchema
from arena.records import OrganizerRecord

blp = ArenaBlueprint(
    "organizers", __name__, url_prefix="/api/v1/organizers", description="Organizers (the admin's)"
)
F = TypeVar("F", bound=Callable[..., object])


def admin_only(view: F) -> F:
    """The view needs the admin token, checked before the body is read."""

    @functools.wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        organizers.require_admin(runtime(), presented_token())
        return view(*args, **kwargs)

    documented = blp.alt_response(401, schema=ErrorSchema, description="needs the admin token")(
        cast(F, checked)
    )
    return blp.doc(security=BEARER)(documented)


@blp.route("")
class Organizers(MethodView):
    @admin_only
    @blp.response(200, OrganizerSchema(many=True))
    def get(self) -> list[OrganizerRecord]:
        """The organizers, oldest first"""
        return runtime().store.organizers.list_all()

    @admin_only
    @blp.arguments(OrganizerCreateSchema)
    @blp.response(201, NewOrganizerSchema)
    def post(self, data: dict[str, Any]) -> dict[str, Any]:
        """Make an organizer: its token (shown this once) makes tournaments and runs its own"""
        organizer, token = organizers.create(runtime().store, data["name"])
        return {**organizer.to_json(), "token": token}


@blp.route("/<organizer_id>")
class OrganizerById(MethodView):
    @admin_only
    @blp.response(204)
    def delete(self, organizer_id: str) -> None:
        """Revoke an organizer: its token stops working; its tournaments stay, the admin runs them"""
        organizers.remove(runtime().store, organizer_id)
