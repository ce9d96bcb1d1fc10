"""A local HTTP server speaking the OpenAI API, so tests run the real `openai` client against it.

    with FakeOpenAIServer() as server:
        client = openai.OpenAI(api_key="test", base_url=server.base_url)
        server.chat_replies.append("Tinnitus is rated 10% [1].")
        server.fail_next(times=2, status=429)      # two 429s, then success
        server.delay_next(seconds=1.0)             # the next response waits a second

POST /v1/embeddings returns deterministic vectors (see `fake_embedding`) of the requested dimensions, float or
base64. POST /v1/chat/completions answers from `chat_replies` (strings, or callables taking the request JSON
and returning a string), or from `chat_responder` when the queue is empty. Every request is recorded.
"""

import base64
import hashlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

import numpy as np

DEFAULT_DIMENSIONS = 1536
ChatReply = str | Callable[[dict[str, Any]], str]


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    status: int | None = None  # what the server answered; None while the response is held back (delay_next)

    @property
    def model(self) -> str | None:
        return self.body.get("model")

    @property
    def temperature(self) -> float | None:
        return self.body.get("temperature")


@dataclass
class _Fault:
    remaining: int
    path: str | None
    status: int | None = None
    retry_after_ms: int | None = None
    seconds: float = 0.0

    def matches(self, path: str) -> bool:
        return self.remaining > 0 and (self.path is None or self.path == path)


def fake_embedding(text: str, *, dimensions: int = DEFAULT_DIMENSIONS, model: str = "") -> np.ndarray:
    """Return the server's (unnormalised) float32 vector for text: a seeded draw from sha256(model, text)."""
    seed = int.from_bytes(hashlib.sha256(f"{model}\0{text}".encode()).digest()[:8], "little")
    return np.random.default_rng(seed).standard_normal(dimensions).astype(np.float32) * np.float32(3.0)


@dataclass
class FakeOpenAIServer:
    chat_replies: deque[ChatReply] = field(default_factory=deque)
    chat_responder: Callable[[dict[str, Any]], str] | None = None
    # Return embedding items in reverse order (each with its right `index`), as a server is allowed to.
    reverse_embeddings: bool = False
    requests: list[RecordedRequest] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._faults: list[_Fault] = []
        self._delays: list[_Fault] = []
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # Lifecycle

    def start(self) -> Self:
        handler = type("Handler", (_Handler,), {"fake": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        # A short poll interval: shutdown() waits for the serving loop to notice, 0.5 s by default.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-openai", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes delayed responses
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "the server is not started"
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # Scripting

    def fail_next(
        self, *, times: int = 1, status: int = 500, path: str | None = None, retry_after_ms: int | None = 1
    ) -> None:
        """Answer the next `times` requests (to `path`, or any) with `status`.

        retry_after_ms is sent as the retry-after-ms header, which the openai client honours instead of its
        0.5 s-and-up backoff, so retry tests stay fast; None sends no header.
        """
        with self._lock:
            self._faults.append(_Fault(remaining=times, path=path, status=status, retry_after_ms=retry_after_ms))

    def delay_next(self, *, seconds: float, times: int = 1, path: str | None = None) -> None:
        """Hold the next `times` responses (to `path`, or any) for `seconds` before answering."""
        with self._lock:
            self._delays.append(_Fault(remaining=times, path=path, seconds=seconds))

    # Views of the record

    def requests_to(self, path: str) -> list[RecordedRequest]:
        with self._lock:
            return [request for request in self.requests if request.path == path]

    @property
    def embedding_requests(self) -> list[RecordedRequest]:
        return self.requests_to("/v1/embeddings")

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return self.requests_to("/v1/chat/completions")

    # Used by the handler

    def _take(self, faults: list[_Fault], path: str) -> _Fault | None:
        with self._lock:
            for fault in faults:
                if fault.matches(path):
                    fault.remaining -= 1
                    return fault
        return None

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _chat_reply(self, body: dict[str, Any]) -> str | None:
        with self._lock:
            reply = self.chat_replies.popleft() if self.chat_replies else self.chat_responder
        if reply is None:
            return None
        return reply(body) if callable(reply) else reply


class _Handler(BaseHTTPRequestHandler):
    fake: FakeOpenAIServer
    protocol_version = "HTTP/1.1"  # keep-alive, as the openai client expects

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet test output

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        headers = {key.lower(): value for key, value in self.headers.items()}
        # Recorded on arrival, so a test sees attempts whose answers are still delayed (or never read).
        record = RecordedRequest(path=path, headers=headers, body=body)
        self.fake._record(record)

        delay = self.fake._take(self.fake._delays, path)
        if delay is not None:
            self.fake._stopping.wait(delay.seconds)
        fault = self.fake._take(self.fake._faults, path)
        if fault is not None:
            extra = {"retry-after-ms": str(fault.retry_after_ms)} if fault.retry_after_ms is not None else {}
            record.status = fault.status or 500
            self._error(record.status, f"fake server: injected HTTP {record.status}", extra_headers=extra)
            return

        if path == "/v1/embeddings":
            status, payload = self._embeddings(body)
        elif path == "/v1/chat/completions":
            status, payload = self._chat(body)
        else:
            status, payload = 404, _error_body(f"fake server: no route for POST {path}", "invalid_request_error")
        record.status = status
        if body.get("stream") and status == 200 and path == "/v1/chat/completions":
            self._stream_chat(payload)
        else:
            self._send(status, payload)

    def _embeddings(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        inputs = body.get("input")
        if isinstance(inputs, str):
            inputs = [inputs]
        if not isinstance(inputs, list) or not inputs or not all(isinstance(text, str) for text in inputs):
            return 400, _error_body("fake server: input must be a string or a non-empty list of strings")
        if any(text == "" for text in inputs):
            return 400, _error_body("'$.input' is invalid: an input must not be an empty string")
        model = str(body.get("model", ""))
        dimensions = int(body.get("dimensions") or DEFAULT_DIMENSIONS)
        base64_format = body.get("encoding_format") == "base64"
        data = []
        for index, text in enumerate(inputs):
            vector = fake_embedding(text, dimensions=dimensions, model=model)
            encoded: Any = (
                base64.b64encode(vector.astype("<f4").tobytes()).decode("ascii") if base64_format else vector.tolist()
            )
            data.append({"object": "embedding", "index": index, "embedding": encoded})
        if self.fake.reverse_embeddings:
            data.reverse()
        tokens = sum(len(text.split()) or 1 for text in inputs)
        return 200, {
            "object": "list",
            "data": data,
            "model": model,
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }

    def _chat(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        reply = self.fake._chat_reply(body)
        if reply is None:
            # 400, not 500: the client would retry a 5xx, hiding the missing script behind slow retries.
            return 400, _error_body("fake server: no scripted chat reply left (add one to chat_replies)")
        prompt_tokens = sum(len(str(message.get("content", "")).split()) for message in body.get("messages", []))
        completion_tokens = len(reply.split())
        return 200, {
            "id": f"chatcmpl-fake-{len(self.fake.chat_requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", ""),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply, "refusal": None},
                    "logprobs": None,
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }

    def _stream_chat(self, payload: dict[str, Any]) -> None:
        base = {key: payload[key] for key in ("id", "created", "model")} | {"object": "chat.completion.chunk"}
        content = payload["choices"][0]["message"]["content"]
        chunks = [
            base | {"choices": [{"index": 0, "delta": {"role": "assistant", "content": content}, "finish_reason": None}]},
            base | {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        ]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        for chunk in chunks:
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
        self.close_connection = True

    def _error(self, status: int, message: str, *, extra_headers: dict[str, str] | None = None) -> None:
        kind = "rate_limit_error" if status == 429 else "server_error" if status >= 500 else "invalid_request_error"
        self._send(status, _error_body(message, kind), extra_headers=extra_headers)

    def _send(self, status: int, payload: dict[str, Any], *, extra_headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in (extra_headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test); nothing to answer


def _error_body(message: str, kind: str = "invalid_request_error") -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}
