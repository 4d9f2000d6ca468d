"""``/api/v1/docs``: interactive API docs served by the platform itself, with no outside assets.

A single page that reads ``/api/v1/openapi.json`` and shows every operation with its parameters and
schemas, and a form to send a request (with a bearer token kept in the browser's local storage).
Swagger UI at ``/api/v1/swagger-ui`` is the richer choice where a CDN is reachable.
"""

from __future__ import annotations

from flask import Blueprint, Response, redirect

blueprint = Blueprint("docs_page", __name__)

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Volcano Arena API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:980px;padding:1em;color:#222}
h1{margin-bottom:.2em} h2{border-bottom:1px solid #ccc;margin-top:1.6em}
details{border:1px solid #ddd;border-radius:6px;margin:.5em 0;padding:.4em .8em}
summary{cursor:pointer} .m{display:inline-block;width:4.5em;font-weight:bold;font-family:monospace}
.get{color:#1a7f37}.post{color:#0550ae}.patch{color:#8250df}.delete{color:#cf222e}
code,pre,textarea,input{font-family:ui-monospace,monospace;font-size:13px}
pre{background:#f6f8fa;padding:.6em;overflow:auto;max-height:24em}
textarea{width:100%;min-height:8em} input[type=text]{width:22em}
.lock{color:#9a6700;font-size:12px;margin-left:.5em}
</style></head><body>
<h1>Volcano Arena API</h1>
<p>Machine-readable: <a href="openapi.json">openapi.json</a> &middot; <a href="swagger-ui">Swagger UI</a>
(needs internet) &middot; token for authorised calls:
<input type="text" id="token" placeholder="bearer token" autocomplete="off"></p>
<div id="ops">loading openapi.json&hellip;</div>
<script>
"use strict";
const tokenBox = document.getElementById("token");
tokenBox.value = localStorage.getItem("arena-token") || "";
tokenBox.onchange = () => localStorage.setItem("arena-token", tokenBox.value);
const el = (tag, attrs = {}, ...kids) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node[k] = v;
  for (const kid of kids) node.append(kid);
  return node;
};
function deref(spec, schema) {
  if (schema && schema.$ref) return deref(spec, spec.components.schemas[schema.$ref.split("/").pop()]);
  return schema || {};
}
function skeleton(spec, schema, depth = 0) {
  schema = deref(spec, schema);
  if (depth > 3) return null;
  if (schema.type === "object" || schema.properties) {
    const out = {};
    for (const [name, prop] of Object.entries(schema.properties || {})) {
      if ((schema.required || []).includes(name)) out[name] = skeleton(spec, prop, depth + 1);
    }
    return out;
  }
  if (schema.type === "array") return [];
  if (schema.type === "integer" || schema.type === "number") return 0;
  if (schema.type === "boolean") return true;
  return "";
}
function operation(spec, path, method, op) {
  const params = (op.parameters || []).map(p => deref(spec, p));
  const body = op.requestBody && op.requestBody.content["application/json"];
  const inputs = {};
  const form = el("div");
  for (const p of params) {
    inputs[p.name] = el("input", {type: "text", placeholder: p.name});
    form.append(el("div", {}, el("code", {}, `${p.in} ${p.name}${p.required ? " *" : ""} `), inputs[p.name]));
  }
  const text = el("textarea");
  if (body) { text.value = JSON.stringify(skeleton(spec, body.schema), null, 2); form.append(text); }
  const out = el("pre", {textContent: ""});
  const send = el("button", {textContent: "Send"});
  send.onclick = async () => {
    let url = "/api/v1" + path.replace(/^\\/api\\/v1/, "");
    const query = new URLSearchParams();
    for (const p of params) {
      const value = inputs[p.name].value;
      if (p.in === "path") url = url.replace(`{${p.name}}`, encodeURIComponent(value));
      else if (value) query.set(p.name, value);
    }
    if ([...query].length) url += "?" + query;
    const headers = {"Accept": "application/json"};
    if (tokenBox.value) headers["Authorization"] = "Bearer " + tokenBox.value;
    if (body) headers["Content-Type"] = "application/json";
    const request = {method: method.toUpperCase(), headers, body: body ? text.value : undefined};
    const answer = await fetch(url, request);
    const raw = await answer.text();
    let shown = raw;
    try { shown = JSON.stringify(JSON.parse(raw), null, 2); } catch (e) {}
    out.textContent = `HTTP ${answer.status}\\n` + shown;
  };
  form.append(send, out);
  const responses = Object.entries(op.responses || {})
    .map(([code, r]) => `${code} ${deref(spec, r).description || ""}`);
  return el("details", {},
    el("summary", {}, el("span", {className: "m " + method, textContent: method.toUpperCase()}),
       el("code", {textContent: path}), " ", op.summary || "",
       op.security ? el("span", {className: "lock", textContent: "token"}) : ""),
    el("p", {textContent: op.description || ""}),
    el("p", {}, el("small", {textContent: "responses: " + responses.join("; ")})),
    body ? el("pre", {textContent: JSON.stringify(deref(spec, body.schema), null, 1)}) : "",
    form);
}
fetch("openapi.json").then(r => r.json()).then(spec => {
  const root = document.getElementById("ops");
  root.textContent = "";
  root.append(el("p", {textContent: spec.info.description || ""}));
  const byTag = {};
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "patch", "put", "delete"].includes(method)) continue;
      const tag = (op.tags || ["other"])[0];
      const parameters = [...(item.parameters || []), ...(op.parameters || [])];
      (byTag[tag] = byTag[tag] || []).push(operation(spec, path, method, {...op, parameters}));
    }
  }
  for (const [tag, ops] of Object.entries(byTag)) root.append(el("h2", {textContent: tag}), ...ops);
});
</script></body></html>
"""


@blueprint.get("/api/v1/docs")
def docs() -> Response:
    return Response(PAGE, mimetype="text/html")


@blueprint.get("/")
def home() -> Response:
    return redirect("/api/v1/docs")
