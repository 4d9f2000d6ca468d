"""What the API shows of a game: its variants and options."""

from __future__ import annotations

from marshmallow import Schema, fields


class OptionSchema(Schema):
    name = fields.String()
    type = fields.String(metadata={"description": "bool, int, str or choice"})
    default = fields.Raw(allow_none=True)
    description = fields.String()
    choices = fields.List(fields.Raw())
    minimum = fields.Integer()
    maximum = fields.Integer()


class VariantSchema(Schema):
    name = fields.String()
    description = fields.String()
    seats = fields.List(
        fields.Integer(), metadata={"description": "the seat counts the variant is played by"}
    )
    rated = fields.Boolean(metadata={"description": "results move Elo ratings"})
    team = fields.Boolean(metadata={"description": "results carry team_won; ladders show the team win rate"})
    options = fields.List(fields.Nested(OptionSchema))


class GameSchema(Schema):
    id = fields.String()
    title = fields.String()
    version = fields.String()
    default_variant = fields.String()
    doc = fields.String()
    variants = fields.List(fields.Nested(VariantSchema))


class SchemaQuerySchema(Schema):
    variant = fields.String(metadata={"description": "the variant (default: the game's default variant)"})


class GameJsonSchemasSchema(Schema):
    variant = fields.String(metadata={"description": "the variant these schemas are of"})
    observation = fields.Dict(
        metadata={"description": "JSON Schema (draft 2020-12) of every observation sent to a seat"}
    )
    move = fields.Dict(metadata={"description": "JSON Schema (draft 2020-12) of every legal move"})
