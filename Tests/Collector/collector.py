#!/usr/bin/env python3
"""A small batch collector for the Uploads tests: a real HTTP server on loopback.

Listens on 127.0.0.1 (port 0 unless --port is given) and prints the chosen port alone on
its first stdout line. Standard library only.

POST (any path)   a batch: {"batch": ID, "samples": [{"seq": N, "taken_at": ..., ...}]}
                  with headers Idempotency-Key: ID and Content-Type: application/json.
                  A malformed request gets 400 with the reason. A key already delivered
                  gets 200 again and is counted as a duplicate, not stored twice.
GET /received     JSON: {"requests": POSTs seen, "batches": keys delivered in order,
                  "seqs": delivered seqs sorted, "duplicates": repeated deliveries,
                  "rejected": POSTs answered with a non-2xx status,
                  "dropped": POSTs whose connection was closed without an answer,
                  "truncated": POSTs whose body was shorter than their Content-Length,
                  "keys": the Idempotency-Key of every batch POST, in arrival order,
                  "tenants": the X-Scope-OrgID header of every batch POST, in arrival
                  order (null where it was missing)}
GET /received?requests=N&within=S
                  the same, once N batch POSTs have arrived or after S seconds,
                  whichever comes first
POST /control     JSON with any of the behaviour keys below; changes them from now on.

With --forward URL it is a faulty proxy in front of a real server (a Prometheus remote-write
receiver): a batch POST that is neither failed nor dropped is forwarded to URL with its body and
its Content-Type, Content-Encoding and X-Prometheus-Remote-Write-Version headers, and the
upstream answer (status and body) is relayed. Bodies are not checked as JSON then; a 2xx from
upstream counts the Idempotency-Key as delivered (a repeated one as a duplicate).

Behaviour (flags at start, or keys of POST /control):
  --fail-first N    (fail_first)   answer the next N batch POSTs with --fail-status
  --fail-status S   (fail_status)  status for those failures (default 500)
  --status S        (status)       status for every other batch POST (default 200);
                                   400 makes the server reject everything permanently
  --retry-after V   (retry_after)  send "Retry-After: V" with every non-2xx answer
  --delay SECONDS   (delay)        wait this long before answering a batch POST
  --location URL    (location)     send "Location: URL" with every non-2xx answer
                                   (with --status 302: a redirect)
  --drop-first N    (drop_first)   close the connection of the next N batch POSTs after
                                   reading them, without answering (a dropped connection)
  --drop-after-forward N (drop_after_forward)
                                   with --forward: forward the next N batch POSTs that would
                                   be forwarded, then close the connection without relaying
                                   the answer (stored upstream, the acknowledgement lost)
  --forward URL                    forward batch POSTs to URL (see above)

The server stops by itself when its standard input closes (the test that started it is
gone) or after --lifetime seconds (default 300), whichever comes first.
"""

import argparse
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Collector:
    """What the server has received and how it answers; guarded by one lock."""

    def __init__(self, behaviour):
        self.lock = threading.Condition()
        self.behaviour = behaviour
        self.requests = 0
        self.rejected = 0
        self.duplicates = 0
        self.dropped = 0
        self.truncated = 0
        self.keys = []
        self.tenants = []
        self.batches = []
        self.seqs = []
        self.delivered = set()

    def snapshot(self):
        with self.lock:
            return {
                "requests": self.requests,
                "batches": list(self.batches),
                "seqs": sorted(self.seqs),
                "duplicates": self.duplicates,
                "rejected": self.rejected,
                "dropped": self.dropped,
                "truncated": self.truncated,
                "keys": list(self.keys),
                "tenants": list(self.tenants),
            }

    def snapshot_after(self, requests, within):
        """The snapshot once `requests` batch POSTs have arrived, or after `within` seconds."""
        with self.lock:
            self.lock.wait_for(lambda: self.requests >= requests, timeout=within)
        return self.snapshot()

    def update(self, changes):
        with self.lock:
            for key, value in changes.items():
                if key not in self.behaviour:
                    raise ValueError("unknown behaviour key %r" % key)
                self.behaviour[key] = value

    def next_answer(self, key, tenant, complete):
        """Counts a batch POST and decides its status, Retry-After and delay, or None to drop it."""
        with self.lock:
            self.requests += 1
            self.keys.append(key)
            self.tenants.append(tenant)
            if not complete:
                self.truncated += 1
            self.lock.notify_all()
            behaviour = self.behaviour
            if behaviour["drop_first"] > 0:
                behaviour["drop_first"] -= 1
                self.dropped += 1
                return None
            if behaviour["fail_first"] > 0:
                behaviour["fail_first"] -= 1
                status = behaviour["fail_status"]
            else:
                status = behaviour["status"]
            drop_answer = False
            if 200 <= status < 300 and behaviour["drop_after_forward"] > 0:
                behaviour["drop_after_forward"] -= 1
                self.dropped += 1
                drop_answer = True
            return status, behaviour["retry_after"], behaviour["location"], behaviour["delay"], drop_answer

    def accept(self, key, seqs):
        """Records a delivered batch once; returns False when the key was already delivered."""
        with self.lock:
            if key in self.delivered:
                self.duplicates += 1
                return False
            self.delivered.add(key)
            self.batches.append(key)
            self.seqs.extend(seqs)
            return True

    def count_rejection(self):
        with self.lock:
            self.rejected += 1


def validate(headers, body):
    """Returns (key, seqs) of a well-formed batch request, or raises ValueError saying why."""
    content_type = headers.get("Content-Type", "")
    if content_type.split(";")[0].strip() != "application/json":
        raise ValueError("Content-Type must be application/json, not %r" % content_type)
    key = headers.get("Idempotency-Key")
    if not key:
        raise ValueError("missing Idempotency-Key header")
    try:
        document = json.loads(body)
    except ValueError as error:
        raise ValueError("body is not JSON: %s" % error)
    if not isinstance(document, dict) or document.get("batch") != key:
        raise ValueError("body's batch does not match Idempotency-Key %r" % key)
    samples = document.get("samples")
    if not isinstance(samples, list) or not samples:
        raise ValueError("samples must be a non-empty list")
    seqs = []
    for sample in samples:
        if not isinstance(sample, dict) or not isinstance(sample.get("seq"), int):
            raise ValueError("every sample needs an integer seq")
        if not isinstance(sample.get("taken_at"), str) or not sample["taken_at"].endswith("Z"):
            raise ValueError("every sample needs taken_at in UTC ISO 8601")
        seqs.append(sample["seq"])
    return key, seqs


FORWARDED_HEADERS = ("Content-Type", "Content-Encoding", "X-Prometheus-Remote-Write-Version")


def forward(upstream, headers, body):
    """POSTs body to upstream with the remote-write headers; returns (status, answer bytes)."""
    request = urllib.request.Request(upstream, data=body, method="POST")
    for name in FORWARDED_HEADERS:
        if headers.get(name) is not None:
            request.add_header(name, headers[name])
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def make_handler(collector, upstream):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format, *args):
            pass

        def answer(self, status, payload, retry_after=None, location=None, content_type="application/json"):
            body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                if retry_after is not None:
                    self.send_header("Retry-After", str(retry_after))
                if location is not None:
                    self.send_header("Location", location)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test): nothing to answer

        def read_body(self):
            """The body and whether it had all the bytes Content-Length announced."""
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            return body, len(body) == length

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            if url.path == "/received" and not query:
                self.answer(200, collector.snapshot())
            elif url.path == "/received":
                try:
                    requests, within = int(query["requests"][0]), float(query["within"][0])
                except (KeyError, ValueError):
                    self.answer(400, {"error": "use /received?requests=N&within=SECONDS"})
                    return
                self.answer(200, collector.snapshot_after(requests, within))
            else:
                self.answer(404, {"error": "unknown path %s" % self.path})

        def do_POST(self):
            body, complete = self.read_body()
            if self.path == "/control":
                try:
                    collector.update(json.loads(body))
                except ValueError as error:
                    self.answer(400, {"error": str(error)})
                    return
                self.answer(200, {"ok": True})
                return
            answer = collector.next_answer(
                self.headers.get("Idempotency-Key"), self.headers.get("X-Scope-OrgID"), complete
            )
            if answer is None:
                self.close_connection = True
                return
            status, retry_after, location, delay, drop_answer = answer
            if delay:
                time.sleep(delay)
            if upstream is not None:
                self.proxy(status, retry_after, location, body, drop_answer)
                return
            try:
                key, seqs = validate(self.headers, body)
            except ValueError as error:
                collector.count_rejection()
                self.answer(400, {"error": str(error)})
                return
            if not 200 <= status < 300:
                collector.count_rejection()
                self.answer(status, {"error": "configured to answer %d" % status}, retry_after, location)
                return
            fresh = collector.accept(key, seqs)
            self.answer(status, {"batch": key, "stored": fresh})

        def proxy(self, status, retry_after, location, body, drop_answer):
            """Fails the POST with `status`, or forwards it and relays (or drops) the answer."""
            if not 200 <= status < 300:
                collector.count_rejection()
                self.answer(status, {"error": "configured to answer %d" % status}, retry_after, location)
                return
            upstream_status, upstream_body = forward(upstream, self.headers, body)
            if 200 <= upstream_status < 300:
                collector.accept(self.headers.get("Idempotency-Key"), [])
            else:
                collector.count_rejection()
            if drop_answer:
                self.close_connection = True
                return
            self.answer(upstream_status, upstream_body, content_type="text/plain")

    return Handler


def stop_when_stdin_closes():
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os._exit(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--fail-first", type=int, default=0)
    parser.add_argument("--fail-status", type=int, default=500)
    parser.add_argument("--status", type=int, default=200)
    parser.add_argument("--retry-after", default=None)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--location", default=None)
    parser.add_argument("--drop-first", type=int, default=0)
    parser.add_argument("--drop-after-forward", type=int, default=0)
    parser.add_argument("--forward", default=None)
    parser.add_argument("--lifetime", type=float, default=300.0)
    options = parser.parse_args()

    collector = Collector({
        "fail_first": options.fail_first,
        "fail_status": options.fail_status,
        "status": options.status,
        "retry_after": options.retry_after,
        "delay": options.delay,
        "location": options.location,
        "drop_first": options.drop_first,
        "drop_after_forward": options.drop_after_forward,
    })
    server = ThreadingHTTPServer(("127.0.0.1", options.port), make_handler(collector, options.forward))
    server.daemon_threads = True
    print(server.server_address[1], flush=True)

    threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
    threading.Timer(options.lifetime, lambda: os._exit(0)).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
