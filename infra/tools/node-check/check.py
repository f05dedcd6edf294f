"""The real node's own client and speech providers (jarvis-node-setup, unmodified) against npm start.
Run by run.sh: the node's config through CONFIG_PATH, the recording's path as argv[1]. Only the
node's speaker is replaced (platform_audio's two play calls), to capture the bytes it would play."""
import io, json, os, sys, uuid, wave
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "shims"))
sys.path.insert(0, os.environ["COMMAND_SDK_DIR"])
sys.path.insert(0, os.environ["NODE_SETUP_DIR"])
results = []
def check(name, ok, detail=""):
    results.append((name, ok)); print(("PASS " if ok else "FAIL ") + name + (": " + detail if detail else ""), flush=True)

from core import platform_audio as pa_module
captured = {}
def fake_play_file(path, volume=1.0):
    captured["file"] = open(path, "rb").read(); return True
def fake_play_pcm(it, sample_rate=22050, channels=1, sample_width=2):
    data = b"".join(it); captured["pcm"] = (data, sample_rate, channels, sample_width); return True
pa_module.platform_audio.play_audio_file = fake_play_file
pa_module.platform_audio.play_pcm_stream = fake_play_pcm

from clients.jarvis_command_center_client import JarvisCommandCenterClient
from stt_providers.jarvis_whisper_client import JarvisWhisperClient
from tts_providers.jarvis_tts_api import JarvisTTS
from wake_response_providers.jarvis_tts_wake_response import JarvisTTSWakeResponseProvider
from utils.service_discovery import get_command_center_url

url = get_command_center_url(); print("command center:", url)
# 1 speech in
text = JarvisWhisperClient().transcribe(sys.argv[1])
check("stt transcribe (node's JarvisWhisperClient)", isinstance(text, str) and len(text) > 0, repr(text))
# 2 speech out, blocking
tts = JarvisTTS()
try:
    tts.speak(False, "Tomorrow will be sunny with a high of 21 degrees.")
    w = wave.open(io.BytesIO(captured.get("file", b""))); frames = w.getnframes()
    import subprocess, tempfile
    with tempfile.TemporaryDirectory() as d:
        open(f"{d}/a.wav", "wb").write(captured["file"])
        subprocess.run(["sox", f"{d}/a.wav", "-r", "16000", f"{d}/b.wav"], check=True)
        heard = subprocess.run(["pocketsphinx_continuous", "-infile", f"{d}/b.wav", "-logfn", "/dev/null"], capture_output=True, text=True).stdout.strip()
    check("tts speak (WAV the node plays)", frames > 8000, f"{w.getframerate()} Hz, {w.getnchannels()} ch, {frames} frames; pocketsphinx hears: {heard!r}")
except Exception as e:
    check("tts speak (WAV the node plays)", False, repr(e))
# 3 speech out, streamed
ok = tts.speak_stream("Tomorrow will be sunny with a high of 21 degrees.")
pcm = captured.get("pcm")
check("tts speak_stream (PCM the node plays)", bool(ok) and pcm is not None and len(pcm[0]) > 16000, f"{len(pcm[0]) if pcm else 0} bytes at {pcm[1] if pcm else None} Hz")
# 4 wake response
greeting = JarvisTTSWakeResponseProvider().fetch_next_wake_response()
check("wake response", isinstance(greeting, str) and len(greeting) > 0, repr(greeting))
# 5 chat_text
client = JarvisCommandCenterClient(url)
reply = client.chat_text("Summarise: sunny, 21 degrees, no meetings.")
check("chat_text", isinstance(reply, str) and len(reply) > 0, repr(reply))
# 6 the unified stream path: a start with the real registration, then an answer spoken as 200 audio
fixture = json.load(open(os.path.join(HERE, "../../../../shared/fixtures/voice-node-conversation-start.json")))
from clients.rest_client import RestClient
cid = str(uuid.uuid4()); fixture["conversation_id"] = cid
started = RestClient.post(f"{url}/api/v0/conversation/start", data=fixture, timeout=30)
check("conversation/start (real registration)", bool(started), json.dumps(started)[:120])
tag, payload = client.send_command_unified("hello there", cid)
if tag == "audio":
    resp, meta = payload; data = b"".join(resp.iter_content(4096))
    check("send_command_unified takes the 200 audio path", len(data) > 16000, f"{len(data)} bytes, meta {meta}")
else:
    check("send_command_unified takes the 200 audio path", False, f"{tag} {payload}")
# 7 a tool call (202), then continue/stream (200 audio) after the node ran it
tag, payload = client.send_command_unified("what's the weather tomorrow", cid)
check("send_command_unified: tool calls come as 202 control", tag == "control" and payload.stop_reason == "tool_calls", f"{tag}")
if tag == "control" and payload.tool_calls:
    results_list = [{"tool_call_id": tc.id, "output": {"temperature": 21, "sky": "sunny"}} for tc in payload.tool_calls]
    resp, meta = client.send_tool_results_stream(cid, results_list)
    if resp is not None:
        data = b"".join(resp.iter_content(4096)); check("send_tool_results_stream: 200 audio", len(data) > 16000, f"{len(data)} bytes")
        again = client.send_tool_results(cid, results_list)
        check("blocking continue after a 200 replays the outcome", again is not None and again.stop_reason == "complete", again.assistant_message if again else "None")
    else:
        check("send_tool_results_stream: 200 audio", False, "fell back")
# 8 a command that wrote its answer (the SDK's context_data["message"], sent by the node's own
# tool_result_formatter): the continue speaks it as written and asks the model nothing
from core.command_response import CommandResponse
from utils.tool_result_formatter import format_tool_result
model_log = os.environ["MODEL_LOG"]
tool_turns = lambda: open(model_log).read().count("last_role=tool")
tag, payload = client.send_command_unified("set a timer for ten minutes", cid)
if tag == "control" and payload.tool_calls:
    done = CommandResponse.success_response(context_data={"timer_id": "t1", "duration_seconds": 600,
        "duration_text": "10 minutes", "label": None, "message": "Timer set for 10 minutes"}, wait_for_input=False)
    before = tool_turns()
    answer = client.send_tool_results(cid, [format_tool_result(tc.id, done) for tc in payload.tool_calls])
    check("continue with the command's own message: spoken as written, no model request",
          answer is not None and answer.stop_reason == "complete" and answer.assistant_message == "Timer set for 10 minutes."
          and tool_turns() == before, f"{answer.assistant_message if answer else None!r}, model asked {tool_turns() - before} time(s)")
else:
    check("continue with the command's own message: spoken as written, no model request", False, f"{tag}")
passed = sum(1 for _, ok in results if ok); failed = len(results) - passed
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
