"""What a game supplies itself, served by the API and linked from its page: its JSON Schemas
(``/api/v1/games/<id>/schema``) and its rules page (``/api/v1/games/<id>/rules``, ``/games/<id>/rules``)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from arena.api import create_app
from referee.registry import get_game
from tests.platform.conftest import ListQueue, make_runtime


@pytest.fixture
def client(toy_games: None) -> FlaskClient:
    return create_app(make_runtime(ListQueue())).test_client()


def test_the_schemas_of_a_games_default_variant_and_of_any_variant(client: FlaskClient) -> None:
    answer = client.get("/api/v1/games/vulkan/schema")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body == {"variant": "competitive", **get_game("vulkan").schema("competitive")}
    assert body["move"]["title"] == "Vulkan! move" and "to_move" in body["observation"]["required"]
    solitaire = client.get("/api/v1/games/vulkan/schema?variant=solitaire").get_json()
    assert solitaire["variant"] == "solitaire"


def test_an_unknown_variant_is_a_422_an_unknown_game_or_one_without_schemas_a_404(
    client: FlaskClient,
) -> None:
    answer = client.get("/api/v1/games/vulkan/schema?variant=chess")
    assert answer.status_code == 422
    assert list(answer.get_json()["errors"]) == ["variant"]
    assert client.get("/api/v1/games/chess/schema").status_code == 404
    answer = client.get("/api/v1/games/nim/schema")
    assert answer.status_code == 404 and "declares no JSON Schemas" in answer.get_json()["message"]
    assert client.get("/api/v1/games/vulkan/schema?varient=solo").status_code == 422


def test_the_rules_page_is_the_games_own_markdown(client: FlaskClient) -> None:
    answer = client.get("/api/v1/games/volcano/rules")
    assert answer.status_code == 200 and answer.mimetype == "text/markdown"
    assert answer.get_data(as_text=True) == get_game("volcano").rules()
    assert answer.get_data(as_text=True).startswith("# Volcano")
    assert client.get("/api/v1/games/nim/rules").status_code == 404


def test_the_game_page_links_its_rules_and_schemas_and_the_rules_page_shows_them(client: FlaskClient) -> None:
    page = client.get("/games/catan-volcano").get_data(as_text=True)
    assert 'href="/games/catan-volcano/rules"' in page
    assert 'href="/api/v1/games/catan-volcano/schema?variant=' in page
    rules = client.get("/games/catan-volcano/rules")
    assert rules.status_code == 200
    assert '<pre class="rules"># Catan with the volcano variants' in rules.get_data(as_text=True)
    toy = client.get("/games/nim").get_data(as_text=True)
    assert "/games/nim/rules" not in toy and "/schema" not in toy
    assert client.get("/games/nim/rules").status_code == 404
