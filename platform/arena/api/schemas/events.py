"""Organizers and entries: the requests that make them and what the API shows of them."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from arena.api.schemas.common import id_field
from arena.records import EntryStatus


class OrganizerCreateSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 100))


class OrganizerSchema(Schema):
    id = fields.String()
    name = fields.String()
    created_at = fields.String()


class NewOrganizerSchema(OrganizerSchema):
    token = fields.String(
        metadata={"description": "the organizer's token: shown this once, kept only as a hash"}
    )


class OrganizerRefSchema(Schema):
    id = fields.String()
    name = fields.String()


class EntryCreateSchema(Schema):
    bot = id_field(required=True)


class EntrySchema(Schema):
    bot = fields.String()
    name = fields.String()
    when = fields.String(metadata={"description": "when it entered"})
    status = fields.String(validate=validate.OneOf([status.value for status in EntryStatus]))
    reason = fields.String(allow_none=True, metadata={"description": "why it was withdrawn"})
