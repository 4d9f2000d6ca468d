#!/usr/bin/env node
// A Volcano Arena bot in Node, standard library only (http, crypto).
//
// It checks every request's X-Arena-Signature (HMAC-SHA256 of the raw body, keyed with the bot's
// secret, compared in constant time; 401 otherwise), answers the platform's ping (sent when the
// bot is registered) with {"pong": <its nonce>}, the start and end notices with {"ok": true} and
// every move request, whatever the game, with {"move": <its first legal move>}.
// Replace chooseMove with your own play.
//
//   node bot.js [--port 8700] [--host 127.0.0.1] [--secret local]
//
// or the environment: PORT, HOST, ARENA_SECRET. The secret defaults to "local", the one
// `arena play` signs with unless given --secret; a registered bot uses the secret it was
// registered with (`arena bots new-secret` prints a fresh one).
"use strict";

const http = require("node:http");
const crypto = require("node:crypto");

const SIGNATURE_HEADER = "x-arena-signature";
const MAX_BODY_BYTES = 8 * 1024 * 1024;

function chooseMove(request) {
  // request.observation is what this seat sees; request.legal_moves the moves it may play.
  return request.legal_moves[0];
}

function option(args, name, envName, fallback) {
  const index = args.indexOf(`--${name}`);
  if (index >= 0) {
    if (index + 1 >= args.length) throw new Error(`--${name} needs a value`);
    return args[index + 1];
  }
  const inline = args.find((arg) => arg.startsWith(`--${name}=`));
  if (inline !== undefined) return inline.slice(name.length + 3);
  return process.env[envName] || fallback;
}

function signatureMatches(secret, body, header) {
  if (typeof header !== "string") return false;
  const expected = Buffer.from(
    "sha256=" + crypto.createHmac("sha256", secret).update(body).digest("hex"),
  );
  const given = Buffer.from(header);
  // timingSafeEqual needs equal lengths; a length mismatch tells nothing about the secret
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

function reply(response, status, document) {
  const body = JSON.stringify(document);
  response.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
  });
  response.end(body);
}

function answer(secret, body, signature) {
  if (!signatureMatches(secret, body, signature)) {
    return [401, { error: "bad or missing signature" }];
  }
  let message;
  try {
    message = JSON.parse(body.toString("utf8"));
  } catch {
    return [400, { error: "not JSON" }];
  }
  if (message === null || typeof message !== "object") {
    return [400, { error: "not a protocol request" }];
  }
  switch (message.type) {
    case "ping":
      return [200, { pong: message.nonce }];
    case "start":
    case "end":
      return [200, { ok: true }];
    case "move":
      return [200, { move: chooseMove(message) }];
    default:
      return [400, { error: `unknown request type ${JSON.stringify(message.type)}` }];
  }
}

function serve(host, port, secret) {
  const server = http.createServer((request, response) => {
    if (request.method !== "POST") {
      reply(response, 405, { error: "POST a protocol request" });
      return;
    }
    const chunks = [];
    let size = 0;
    let refused = false;
    request.on("data", (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        refused = true;
        reply(response, 413, { error: "request too large" });
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => {
      if (refused) return;
      let status;
      let document;
      try {
        [status, document] = answer(secret, Buffer.concat(chunks), request.headers[SIGNATURE_HEADER]);
      } catch (error) {
        [status, document] = [500, { error: String(error) }];
      }
      reply(response, status, document);
    });
  });
  // the referee keeps one connection per seat for a whole match: keep idle ones for a minute
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  server.on("error", (error) => {
    console.error(`cannot listen on ${host} port ${port}: ${error.message} (set --port or PORT)`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    console.log(`bot listening on http://${host}:${server.address().port}/; Ctrl-C stops it`);
  });
  return server;
}

function main() {
  const args = process.argv.slice(2);
  let host;
  let port;
  let secret;
  try {
    host = option(args, "host", "HOST", "127.0.0.1");
    const portText = option(args, "port", "PORT", "8700");
    port = Number(portText);
    if (!/^\d+$/.test(portText) || port < 0 || port > 65535) {
      throw new Error(`the port must be a number from 0 to 65535, not ${JSON.stringify(portText)}`);
    }
    secret = option(args, "secret", "ARENA_SECRET", "local");
  } catch (error) {
    console.error(`bot.js: ${error.message}`);
    process.exit(2);
  }
  serve(host, port, secret);
  process.on("SIGTERM", () => process.exit(0));
  process.on("SIGINT", () => process.exit(0));
}

if (require.main === module) main();

module.exports = { answer, chooseMove, signatureMatches };
