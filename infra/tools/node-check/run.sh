#!/usr/bin/env bash
# The real voice node's own client and speech providers, unmodified, against `npm start` of this
# checkout: speech in (a flite recording at 48 kHz, really recognised by pocketsphinx behind a
# scripted OpenAI-compatible server), speech out (the embedded synthesizer, heard back), wake
# response, chat, the streamed voice/command and continue routes, and a command's own answer.
# Not part of npm test: it needs the node software beside it and Debian's flite, sox and
# pocketsphinx. Prints "N passed, N failed".
#
#   NODE_SETUP_DIR=/tmp/node-setup COMMAND_SDK_DIR=/tmp/sdk PYTHON=/tmp/node-venv/bin/python \
#     bash infra/tools/node-check/run.sh
#
# NODE_SETUP_DIR / COMMAND_SDK_DIR: checkouts of alexberardi/jarvis-node-setup and
# jarvis-command-sdk; PYTHON: a Python with requests, pydantic and python-dotenv;
# apt-get install flite sox pocketsphinx pocketsphinx-en-us.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
work="$(mktemp -d)"
port=${CHECK_PORT:-3917}; mport=$((port + 1)); dport=$((port + 2))
python="${PYTHON:-python3}"
export NODE_SETUP_DIR="${NODE_SETUP_DIR:-/tmp/node-setup}" COMMAND_SDK_DIR="${COMMAND_SDK_DIR:-/tmp/sdk}"
python3 "$here/scripted_openai.py" $mport "$work/model.log" & model=$!
secret="nodecheck-secret-0123456789abcdef"
setsid bash -c "cd '$repo' && PORT=$port DYNAMODB_PORT=$dport DATA_DIR=memory LOCAL_NODE_API_KEY=local-node:$secret \
  LOCAL_NODE_TIMEZONE=America/New_York OPENAI_BASE_URL=http://127.0.0.1:$mport/v1 LLM_MODEL=scripted \
  STT_BASE_URL=http://127.0.0.1:$mport/v1 STT_MODEL=whisper-1 npm start > '$work/npm-start.log' 2>&1" & api=$!
for _ in $(seq 1 120); do curl -s -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 1; done
flite -t "what's the weather tomorrow" -o "$work/u.wav" && sox "$work/u.wav" -r 48000 -c 1 -b 16 "$work/utterance.wav"
printf '{"node_id": "local-node", "api_key": "%s", "jarvis_command_center_api_url": "http://127.0.0.1:%s", "room": "Office"}' \
  "$secret" "$port" > "$work/config.json"
CONFIG_PATH="$work/config.json" MODEL_LOG="$work/model.log" "$python" "$here/check.py" "$work/utterance.wav"; status=$?
echo "model requests (a continue shows as last_role=tool):"; cat "$work/model.log"
kill $model; kill -- -$api 2>/dev/null
exit $status
