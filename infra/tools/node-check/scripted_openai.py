"""A scripted OpenAI-compatible server for the node check: chat (a get_weather or set_timer call, then an answer;
plain text without tools) and /audio/transcriptions, which really hears the upload (pocketsphinx).
Usage: scripted_openai.py PORT LOG_FILE (the log lists each request: a continue shows as last_role=tool)."""
import json, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
LOG = open(sys.argv[2], "a")
import email, subprocess, tempfile, os
def recognise(body, content_type):
    """Really hears the uploaded WAV: pocketsphinx (en-us) after sox resamples it to 16 kHz."""
    msg = email.message_from_bytes(b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body)
    wav = next(p.get_payload(decode=True) for p in msg.get_payload() if p.get_param("name", header="content-disposition") == "file")
    with tempfile.TemporaryDirectory() as d:
        open(f"{d}/in.wav", "wb").write(wav)
        subprocess.run(["sox", f"{d}/in.wav", "-r", "16000", "-c", "1", "-b", "16", f"{d}/16k.wav"], check=True)
        out = subprocess.run(["pocketsphinx_continuous", "-infile", f"{d}/16k.wav", "-logfn", "/dev/null"], capture_output=True, text=True)
    return out.stdout.strip()
class H(BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def _json(self, obj, status=200):
        b = json.dumps(obj).encode(); self.send_response(status)
        self.send_header("content-type", "application/json"); self.send_header("content-length", str(len(b)))
        self.end_headers(); self.wfile.write(b)
    def do_POST(self):
        n = int(self.headers.get("content-length", "0")); body = self.rfile.read(n)
        if self.path.endswith("/audio/transcriptions"):
            LOG.write(f"transcriptions {len(body)} bytes {self.headers.get('content-type')}\n"); LOG.flush()
            return self._json({"text": recognise(body, self.headers.get("content-type"))})
        req = json.loads(body)
        msgs = req.get("messages", [])
        LOG.write(f"chat tools={len(req.get('tools') or [])} last_role={msgs[-1]['role'] if msgs else None}\n"); LOG.flush()
        tools = [t["function"]["name"] for t in (req.get("tools") or [])]
        last = msgs[-1] if msgs else {}
        if req.get("max_tokens") == 1:
            msg = {"role": "assistant", "content": "ok"}
        elif not tools:
            msg = {"role": "assistant", "content": "Good morning! Today is sunny with a high of 21 degrees."}
        elif last.get("role") == "tool":
            msg = {"role": "assistant", "content": "Tomorrow will be sunny with a high of 21 degrees."}
        else:
            user = next((m for m in reversed(msgs) if m["role"] == "user"), {})
            text = json.dumps(user.get("content", "")).lower()
            if "timer" in text and "set_timer" in tools:
                msg = {"role": "assistant", "content": None, "tool_calls": [{"id": "call_t1", "type": "function",
                       "function": {"name": "set_timer", "arguments": json.dumps({"duration_seconds": 600})}}]}
            elif "weather" in text and "get_weather" in tools:
                msg = {"role": "assistant", "content": None, "tool_calls": [{"id": "call_w1", "type": "function",
                       "function": {"name": "get_weather", "arguments": json.dumps({"city": "Paris", "resolved_datetimes": ["2026-11-25T05:00:00Z"]})}}]}
            else:
                msg = {"role": "assistant", "content": "Hello there, how can I help?"}
        self._json({"id": "chatcmpl-1", "object": "chat.completion", "created": int(time.time()), "model": req.get("model"),
                    "choices": [{"index": 0, "message": msg, "finish_reason": "tool_calls" if msg.get("tool_calls") else "stop"}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
