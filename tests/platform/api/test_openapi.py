"""The OpenAPI document and the docs pages the platform serves itself."""

from __future__ import annotations

import re

from tests.platform.conftest import Arena

OPERATIONS = {
    ("/api/v1/games", "get"): "200",
    ("/api/v1/games/{game_id}", "get"): "200",
    ("/api/v1/games/{game_id}/schema", "get"): "200",
    ("/api/v1/games/{game_id}/rules", "get"): "200",
    ("/api/v1/bots", "get"): "200",
    ("/api/v1/bots", "post"): "201",
    ("/api/v1/bots/{bot_id}", "get"): "200",
    ("/api/v1/bots/{bot_id}", "patch"): "200",
    ("/api/v1/bots/{bot_id}", "delete"): "204",
    ("/api/v1/bots/{bot_id}/secret", "post"): "200",
    ("/api/v1/bots/{bot_id}/history", "get"): "200",
    ("/api/v1/bots/{bot_id}/ping", "post"): "200",
    ("/api/v1/matches", "get"): "200",
    ("/api/v1/matches", "post"): "202",
    ("/api/v1/matches/{match_id}", "get"): "200",
    ("/api/v1/matches/{match_id}", "delete"): "204",
    ("/api/v1/matches/{match_id}/moves", "get"): "200",
    ("/api/v1/matches/{match_id}/replay", "get"): "200",
    ("/api/v1/tournaments", "get"): "200",
    ("/api/v1/tournaments", "post"): "202",
    ("/api/v1/tournaments/{tournament_id}", "get"): "200",
    ("/api/v1/tournaments/{tournament_id}", "patch"): "200",
    ("/api/v1/tournaments/{tournament_id}", "delete"): "204",
    ("/api/v1/tournaments/{tournament_id}/entries", "get"): "200",
    ("/api/v1/tournaments/{tournament_id}/entries", "post"): "201",
    ("/api/v1/tournaments/{tournament_id}/entries/{bot_id}", "delete"): "204",
    ("/api/v1/tournaments/{tournament_id}/standings.csv", "get"): "200",
    ("/api/v1/ladders/{game_id}/standings.csv", "get"): "200",
    ("/api/v1/organizers", "get"): "200",
    ("/api/v1/organizers", "post"): "201",
    ("/api/v1/organizers/{organizer_id}", "delete"): "204",
    ("/api/v1/ladders/{game_id}", "get"): "200",
    ("/api/v1/ladders/{game_id}/{variant}/matchmaking", "get"): "200",
    ("/api/v1/ladders/{game_id}/{variant}/matchmaking", "put"): "200",
    ("/api/v1/ladders/{game_id}/{variant}/matchmaking", "delete"): "200",
}


def test_every_operation_is_described_with_one_success_code(arena: Arena) -> None:
    spec = arena.get("/api/v1/openapi.json")
    assert spec["openapi"].startswith("3.") and spec["info"]["title"] == "Volcano Arena"
    found = {
        (path, method) for path, item in spec["paths"].items() for method in item if method != "parameters"
    }
    assert found == set(OPERATIONS)
    for (path, method), success in OPERATIONS.items():
        codes = [code for code in spec["paths"][path][method]["responses"] if code.startswith("2")]
        assert codes == [success], (path, method, codes)


def test_schemas_and_security_are_named(arena: Arena) -> None:
    spec = arena.get("/api/v1/openapi.json")
    schemas = spec["components"]["schemas"]
    assert {
        "Bot",
        "BotOwner",
        "BotCreate",
        "BotSecret",
        "Match",
        "TournamentCreate",
        "Tournament",
        "Ladder",
        "Error",
    } <= set(schemas)
    match = schemas["Match"]["properties"]
    assert set(schemas["Match"]["required"]) == {"game", "bots"}
    # one schema asks for a match and shows it: the record's own fields are read-only, the request's not
    assert {name for name, field in match.items() if field.get("readOnly")} == {
        "id",
        "status",
        "seats",
        "tournament",
        "origin",
        "challenger",
        "attempts",
        "moves",
        "created_at",
        "started_at",
        "finished_at",
        "result",
        "error",
        "replay_url",
    }
    match_post = spec["paths"]["/api/v1/matches"]["post"]
    assert match_post["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/Match")
    # one bot schema both ways: the secret is taken, never shown; what the platform makes is shown only
    bot = schemas["BotCreate"]
    assert set(bot["required"]) == {"name", "endpoint", "games", "secret"}
    assert bot["properties"]["secret"]["writeOnly"] is True and bot["properties"]["secret"]["minLength"] == 32
    assert all(bot["properties"][name]["readOnly"] for name in ("id", "token", "created_at", "faults"))
    assert "endpoint" not in schemas["Bot"]["properties"]
    assert "secret" not in schemas["BotOwner"]["properties"]
    assert schemas["BotSecret"]["properties"]["secret"]["writeOnly"] is True
    assert spec["components"]["securitySchemes"]["bearerAuth"] == {"type": "http", "scheme": "bearer"}
    assert spec["paths"]["/api/v1/matches"]["post"]["security"] == [{"bearerAuth": []}]
    assert "security" not in spec["paths"]["/api/v1/matches"]["get"]
    responses = spec["paths"]["/api/v1/matches"]["post"]["responses"]
    for code in ("401", "422"):
        error = responses[code]
        if "$ref" in error:
            error = spec["components"]["responses"][error["$ref"].split("/")[-1]]
        assert error["content"]["application/json"]["schema"]["$ref"].endswith("/Error")


def test_the_interactive_docs_need_nothing_from_outside(arena: Arena) -> None:
    assert arena.client.get("/").mimetype == "text/html"  # the home page links to the docs
    assert arena.client.get("/api/v1/docs").headers["Location"].endswith("/api/v1/swagger-ui")
    answer = arena.client.get("/api/v1/swagger-ui")
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    page = answer.get_data(as_text=True)
    assert "openapi.json" in page
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert assets and all(url.startswith("/api/v1/") for url in assets), assets  # the platform's own
    assert any(url.startswith("/api/v1/swagger-ui-assets/") for url in assets), assets
    for url in assets:  # every script and style sheet the page loads is served here
        served = arena.client.get(url)
        assert served.status_code == 200 and served.data, url
        served.close()
    assert arena.client.get("/api/v1/swagger-ui-assets/../../secrets").status_code == 404


def test_health_and_unknown_routes(arena: Arena) -> None:
    health = arena.get("/api/v1/health")
    assert health["status"] == "ok" and health["mode"] == "embedded" and "nim" in health["games"]
    answer = arena.client.get("/api/v1/nothing-here")
    assert answer.status_code == 404 and set(answer.get_json()) == {"code", "status", "message", "errors"}
    answer = arena.client.put("/api/v1/games")
    assert answer.status_code == 405 and answer.get_json()["code"] == 405


def test_matchmaking_is_documented_with_its_schemas_and_the_organizer_token(arena: Arena) -> None:
    spec = arena.get("/api/v1/openapi.json")
    path = spec["paths"]["/api/v1/ladders/{game_id}/{variant}/matchmaking"]
    assert {"MatchmakingSet", "Matchmaking"} <= set(spec["components"]["schemas"])
    assert spec["components"]["schemas"]["MatchmakingSet"]["required"] == ["matches_per_minute"]
    for method in ("put", "delete"):
        assert path[method]["security"] == [{"bearerAuth": []}] and "401" in path[method]["responses"]
    assert "security" not in path["get"]
    assert "422" in path["put"]["responses"]
