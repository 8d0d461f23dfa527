#!/usr/bin/env python3
"""An OpenAI-compatible speech-to-text server on loopback (docs/asr.md).

    POST /v1/audio/transcriptions   multipart/form-data, as OpenAI's API:
        file             the audio: WAV, WebM/Opus and Ogg/Opus as browsers'
                         MediaRecorder writes them, MP3, anything PyAV decodes
        model            accepted and ignored (one model is loaded: --model)
        language         ISO 639-1 code, default --language (zh); "auto" detects
        prompt           Whisper's initial prompt: the words to expect
        response_format  json (default) -> {"text": ...}, text, verbose_json
        temperature      0 (default) decodes greedily/by beam, no fallback
        beam_size        not OpenAI's: overrides --beam-size for one request
        vad_filter       not OpenAI's: true/false overrides --vad for one request
        window           not OpenAI's: overrides --window (seconds) for one request
    GET /health  -> 200 {"status": "ok", "model": ...}
    GET /v1/models -> the one model, in OpenAI's list shape

faster-whisper (CTranslate2, int8 on the CPU) with the model loaded once at
start; requests are decoded one at a time (two cores: a second decode in
parallel only makes both slower). Chinese answers come back in Simplified
characters (--no-simplified: as Whisper writes them). Standard library HTTP,
no framework.

Whisper's encoder is trained on 30-second windows, and faster-whisper pads
every recording to 30 s: for a 3-second request on two cores the encoder
alone was most of the second the student waited (0.5-0.9 s of 1.1 s). The
CTranslate2 encoder takes a shorter input as it is, so --window pads a
recording only to its own length plus a second of silence, never less than
--window seconds (docs/asr.md measures what that costs in accuracy: the
answers for the same audio, windows 30, 10 and 6).
"""

import argparse
import email.parser
import email.policy
import io
import json
import logging
import os
import re
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY = 25 * 1024 * 1024  # OpenAI's own limit for one file
LOG = logging.getLogger("asr")
FRAMES_PER_SECOND = 100  # Whisper's mel frames: one per 10 ms
WHISPER_FRAMES = 3000  # the 30 s the model was trained on


def parse_multipart(content_type, body):
    """Fields of a multipart/form-data body: name -> (bytes, filename)."""
    head = f"MIME-Version: 1.0\r\nContent-Type: {content_type}\r\n\r\n".encode()
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    if not message.is_multipart():
        raise ValueError("the body is not multipart/form-data")
    fields = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not name:
            continue
        fields[name] = (part.get_payload(decode=True) or b"", part.get_filename())
    return fields


class Recognizer:
    """One faster-whisper model and the decoding options of this server."""

    def __init__(self, args):
        from faster_whisper import WhisperModel  # the slow import, once

        started = time.monotonic()
        self.model = WhisperModel(
            args.model_dir,
            device="cpu",
            compute_type=args.compute_type,
            cpu_threads=args.threads,
            num_workers=1,
            local_files_only=True,
        )
        self.name = args.model_name
        # Whisper writes Mandarin in Traditional characters more often than
        # not when no prompt in Simplified ones steers it (docs/asr.md):
        # zhconv (PyPI, MIT, 0.2 MB) maps them character by character.
        self.simplify = None
        if args.simplified:
            try:
                import zhconv

                self.simplify = lambda text: zhconv.convert(text, "zh-hans")
            except ImportError:
                LOG.warning("zhconv is not installed: Chinese answers are left as Whisper writes them")
        self.beam = Beam(self.model.model)
        self.model.model = self.beam
        self.args = args
        self.lock = threading.Lock()
        self.window_frames = window_frames(args.window)
        install_padding(self)
        LOG.info("loaded %s from %s in %.1f s", self.name, args.model_dir,
                 time.monotonic() - started)

    def transcribe(self, audio, language, prompt, temperature, beam_size, vad, window=None):
        from faster_whisper.audio import decode_audio

        samples = decode_audio(io.BytesIO(audio), sampling_rate=16000)
        seconds = len(samples) / 16000
        # Mandarin is 4-6 characters a second, about as many tokens: a cap of
        # 10 a second (and --max-new-tokens) ends a loop early without
        # cutting real speech.
        max_new_tokens = min(self.args.max_new_tokens, int(10 * seconds) + 10)
        with self.lock:
            self.window_frames = window_frames(window or self.args.window)
            self.beam.calls = []
            segments, info = self.model.transcribe(
                samples,
                language=language,
                initial_prompt=prompt or None,
                beam_size=beam_size,
                best_of=beam_size,
                temperature=temperature,
                # One short utterance: no previous window to condition on, no
                # timestamps to predict, and a cap on runaway repetition
                # (a prompt plus unclear audio can loop to the context's end,
                # "小小小..." for 20 s on two cores).
                condition_on_previous_text=False,
                without_timestamps=True,
                max_new_tokens=max_new_tokens,
                vad_filter=vad,
            )
            segments = list(segments)
            alternatives = self.other_readings(language or info.language)
        return segments, info, seconds, alternatives

    def other_readings(self, language):
        """The other hypotheses of the beam search, best first, when the
        recording was read in one decoding (one window, no fallback to
        sampling): what else the recognizer weighed. The site takes one
        of them when it names more than the best (docs/asr.md)."""
        from faster_whisper.tokenizer import Tokenizer

        if len(self.beam.calls) != 1 or len(self.beam.calls[0]) != 1:
            return []
        hypotheses = self.beam.calls[0][0].sequences_ids[1:]
        if not hypotheses:
            return []
        tokenizer = Tokenizer(self.model.hf_tokenizer, self.beam.is_multilingual,
                              task="transcribe", language=language or "zh")
        return [tokenizer.decode(ids).strip() for ids in hypotheses]


class Beam:
    """The decoder, keeping what each of its calls returned. faster-whisper
    reads only the first hypothesis of a beam search; asked for as many as
    the beam holds, the search keeps going until that many have ended,
    and the others are the recognizer's next readings of the recording."""

    def __init__(self, model):
        self.model = model
        self.calls = []

    def generate(self, *args, **kwargs):
        beam = kwargs.get("beam_size", 1)
        if beam > 1 and kwargs.get("num_hypotheses", 1) == 1:
            kwargs["num_hypotheses"] = beam
        results = self.model.generate(*args, **kwargs)
        self.calls.append(results)
        return results

    def __getattr__(self, name):
        return getattr(self.model, name)


SENTENCE_ENDS = "。？！?!"


def collapse_repeats(text):
    """「南京大学物理学有哪些好导师。南京大学物理学有哪些好导师。南京大」 ->
    the first sentence. With a short window Whisper now and then reads a
    short request twice (and a third time up to the token cap); a student
    does not say one sentence twice in one recording, so a text whose every
    later sentence repeats the first (the last one perhaps cut short) is
    that sentence once."""
    parts, start = [], 0
    for i, c in enumerate(text):
        if c in SENTENCE_ENDS:
            parts.append(text[start:i + 1])
            start = i + 1
    if start < len(text):
        parts.append(text[start:])
    parts = [p.strip() for p in parts if p.strip()]
    if len(parts) < 2:
        return text
    first = parts[0].rstrip(SENTENCE_ENDS)
    if not first:
        return text
    last = len(parts) - 1
    for i, later in enumerate(parts[1:], 1):
        later = later.rstrip(SENTENCE_ENDS)
        if later != first and not (i == last and first.startswith(later)):
            return text
    return parts[0]


# A unit of two to eight characters three times in a row, or one character
# five times: 「浙江大学、浙江大学、浙江大学」, 「肩膏、肩膏、肩膏」, 「语语语语语」.
LOOP = re.compile(r"(.{2,8})\1{2,}|(.)\2{4,}")
PUNCTUATION = re.compile(r"[\s、，,。？！?!；;：:…·]+")


def looping(text):
    """Whether the text is a decoding loop: on audio it cannot read, Whisper
    with a prompt repeats a word of the prompt until the token cap, and a
    school from that loop was filled in for the student as if said
    (docs/asr.md). No request says one word three times running."""
    return bool(LOOP.search(PUNCTUATION.sub("", text)))


def window_frames(seconds):
    """The shortest input of the encoder, in mel frames (Whisper's 30 s at most)."""
    return max(FRAMES_PER_SECOND, min(WHISPER_FRAMES, int(round(seconds * FRAMES_PER_SECOND))))


def install_padding(recognizer):
    """faster-whisper pads each window of features to 30 s (`pad_or_trim` in
    its transcribe module) before the encoder; this pads to the recording's
    own length plus one second of silence instead, at least the window of
    the request (`recognizer.window_frames`). Trimming past 30 s stays."""
    import faster_whisper.transcribe as fwt
    from faster_whisper.audio import pad_or_trim

    def pad(array, length=WHISPER_FRAMES, *, axis=-1):
        frames = array.shape[axis] + FRAMES_PER_SECOND
        length = min(length, max(recognizer.window_frames, frames))
        return pad_or_trim(array, length, axis=axis)

    fwt.pad_or_trim = pad


def handler_for(recognizer):
    class Handler(BaseHTTPRequestHandler):
        server_version = "asr/1"
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):
            LOG.debug("%s " + fmt, self.address_string(), *args)

        def send_body(self, status, body, content_type="application/json"):
            data = body.encode() if isinstance(body, str) else body
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def send_json(self, status, value):
            self.send_body(status, json.dumps(value, ensure_ascii=False))

        def error(self, status, message, kind="invalid_request_error"):
            self.send_json(status, {"error": {"message": message, "type": kind}})

        def do_GET(self):
            if self.path == "/health":
                self.send_json(200, {"status": "ok", "model": recognizer.name})
            elif self.path == "/v1/models":
                self.send_json(200, {"object": "list", "data": [
                    {"id": recognizer.name, "object": "model", "owned_by": "local"}]})
            else:
                self.error(404, f"no route {self.path}")

        def do_POST(self):
            if self.path.split("?", 1)[0] != "/v1/audio/transcriptions":
                self.error(404, f"no route {self.path}")
                return
            length = int(self.headers.get("Content-Length") or 0)
            if length <= 0:
                self.error(400, "an empty body: send multipart/form-data with a file")
                return
            if length > MAX_BODY:
                self.error(413, f"the body is over {MAX_BODY} bytes")
                self.close_connection = True
                return
            body = self.rfile.read(length)
            content_type = self.headers.get("Content-Type", "")
            if not content_type.startswith("multipart/form-data"):
                self.error(400, "Content-Type must be multipart/form-data")
                return
            try:
                fields = parse_multipart(content_type, body)
            except ValueError as err:
                self.error(400, str(err))
                return
            text = {k: v.decode("utf-8", "replace").strip() for k, (v, name) in fields.items()
                    if name is None and k != "file"}
            audio = fields.get("file", (b"", None))[0]
            if not audio:
                self.error(400, "no file: the audio goes in the form field 'file'")
                return
            language = text.get("language") or recognizer.args.language
            if language in ("auto", "detect"):
                language = None
            fmt = text.get("response_format") or "json"
            if fmt not in ("json", "text", "verbose_json"):
                self.error(400, f"response_format {fmt} is not supported (json, text, verbose_json)")
                return
            try:
                temperature = float(text.get("temperature") or 0)
                beam_size = int(text.get("beam_size") or recognizer.args.beam_size)
                window = float(text.get("window") or recognizer.args.window)
            except ValueError:
                self.error(400, "temperature, beam_size and window must be numbers")
                return
            if not 0 <= temperature <= 1 or not 1 <= beam_size <= 10 or not 1 <= window <= 30:
                self.error(400, "temperature must be in [0, 1], beam_size in [1, 10] "
                                "and window in [1, 30]")
                return
            vad = text.get("vad_filter", "").lower()
            vad = recognizer.args.vad if vad == "" else vad in ("1", "true", "yes")
            started = time.monotonic()
            try:
                segments, info, seconds, others = recognizer.transcribe(
                    audio, language, text.get("prompt"), temperature, beam_size, vad, window)
            except Exception as err:  # PyAV's errors for audio it cannot read
                LOG.warning("could not transcribe: %s", err)
                self.error(400, f"could not decode or transcribe the audio: {err}")
                return
            # A token cut at the cap can leave half a UTF-8 character.
            texts = [s.text.replace("\ufffd", "") for s in segments]
            if recognizer.simplify and (language or info.language or "").startswith("zh"):
                texts = [recognizer.simplify(t) for t in texts]
            chinese = recognizer.simplify and (language or info.language or "").startswith("zh")

            def finished(text):
                text = text.replace("\ufffd", "").strip()
                if chinese:
                    text = recognizer.simplify(text)
                if recognizer.args.drop_loops:
                    text = collapse_repeats(text)
                    if looping(text):
                        return ""
                return text

            result = "".join(texts).strip()
            if recognizer.args.drop_loops:
                result = collapse_repeats(result)
            if recognizer.args.drop_loops and looping(result) and window < 30:
                # The short window is what loops now and then (a request with
                # a long pause in it: 中山大学的，呃，金融学…); Whisper's own
                # 30-second window is heard once more before giving up.
                LOG.info("a decoding loop in a %g s window, heard again in 30 s: %s",
                         window, result)
                segments, info, seconds, others = recognizer.transcribe(
                    audio, language, text.get("prompt"), temperature, beam_size, vad, 30)
                texts = [s.text.replace("\ufffd", "") for s in segments]
                if chinese:
                    texts = [recognizer.simplify(t) for t in texts]
                result = collapse_repeats("".join(texts).strip())
            if recognizer.args.drop_loops and looping(result):
                LOG.info("a decoding loop, answered as nothing heard: %s", result)
                result = ""
            alternatives = []
            if result:
                for other in map(finished, others):
                    if other and other != result and other not in alternatives:
                        alternatives.append(other)
            elapsed = time.monotonic() - started
            LOG.info("%.2f s of audio in %.2f s (beam %d, window %g s, prompt %d chars, vad %s): %s",
                     seconds, elapsed, beam_size, window, len(text.get("prompt") or ""), vad,
                     result)
            if fmt == "text":
                self.send_body(200, result + "\n", "text/plain; charset=utf-8")
            elif fmt == "verbose_json":
                self.send_json(200, {
                    "task": "transcribe",
                    "language": info.language,
                    "duration": round(seconds, 3),
                    "text": result,
                    "alternatives": alternatives,
                    "segments": [{"id": i, "start": s.start, "end": s.end, "text": t,
                                  "avg_logprob": s.avg_logprob,
                                  "no_speech_prob": s.no_speech_prob}
                                 for i, (s, t) in enumerate(zip(segments, texts))],
                })
            else:
                self.send_json(200, {"text": result, "alternatives": alternatives})

    return Handler


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    env = os.environ.get
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--host", default=env("ASR_HOST", "127.0.0.1"))
    p.add_argument("--port", type=int, default=int(env("ASR_PORT", "8090")))
    p.add_argument("--model", dest="model_name", default=env("ASR_MODEL", "whisper-base"),
                   help="the name it answers to; also picks .model/asr/<name>/ "
                        "when --model-dir is not given")
    p.add_argument("--model-dir", default=env("ASR_MODEL_DIR"))
    p.add_argument("--language", default=env("ASR_LANGUAGE", "zh"))
    p.add_argument("--beam-size", type=int, default=int(env("ASR_BEAM_SIZE", "5")))
    p.add_argument("--window", type=float, default=float(env("ASR_WINDOW", "10")),
                   help="seconds: the encoder sees the recording padded to its length + 1 s, "
                        "at least this much (30: Whisper's own window, always)")
    p.add_argument("--threads", type=int, default=int(env("ASR_THREADS", "2")))
    p.add_argument("--compute-type", default=env("ASR_COMPUTE_TYPE", "int8"))
    p.add_argument("--max-new-tokens", type=int, default=int(env("ASR_MAX_NEW_TOKENS", "200")))
    p.add_argument("--vad", action=argparse.BooleanOptionalAction,
                   default=env("ASR_VAD", "1") == "1",
                   help="drop silence with Silero VAD before decoding (default on: "
                        "with a prompt, silence and noise come back as loops of it)")
    p.add_argument("--drop-loops", action=argparse.BooleanOptionalAction,
                   default=env("ASR_DROP_LOOPS", "1") == "1",
                   help="a sentence said twice comes back once, a decoding loop as nothing "
                        "heard (default on; off: as Whisper wrote it, as before)")
    p.add_argument("--simplified", action=argparse.BooleanOptionalAction,
                   default=env("ASR_SIMPLIFIED", "1") == "1",
                   help="write Chinese answers in Simplified characters (zhconv); default on")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args()
    if not args.model_dir:
        args.model_dir = os.path.join(root, ".model", "asr", args.model_name)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s [asr] %(message)s", stream=sys.stderr)
    # faster-whisper logs every request's duration at INFO; ours says more.
    logging.getLogger("faster_whisper").setLevel(
        logging.DEBUG if args.verbose else logging.WARNING)
    # Never a hub: the weights are on disk or the server does not start.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if not os.path.isfile(os.path.join(args.model_dir, "model.bin")):
        sys.exit(f"no model.bin in {args.model_dir}: run .ci/asr setup")
    recognizer = Recognizer(args)
    server = ThreadingHTTPServer((args.host, args.port), handler_for(recognizer))
    server.daemon_threads = True
    LOG.info("listening on http://%s:%d/v1", args.host, server.server_address[1])
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
