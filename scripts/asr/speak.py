#!/usr/bin/env python3
"""Mandarin text to a 16 kHz mono 16-bit PCM WAV with espeak-ng (docs/asr.md).

    speak.py "我想考北京大学计算机系" out.wav [--lead 0.3 --tail 0.5]

Debian's espeak-ng reads most Hanzi wrongly with `-v cmn`: its Mandarin
dictionary is the small one (the full character list is a build option), so
it spells the characters it lacks as letters. The text goes through pypinyin
(tone numbers, its phrase dictionary picks the reading of 重/长/行...) and
is spoken by the `cmn-latn-pinyin` voice, which applies the tone sandhi
itself. espeak-ng writes 22,050 Hz; PyAV resamples to 16 kHz.
"""

import os
import subprocess
import sys
import tempfile
import wave

VOICE = "cmn-latn-pinyin"
SPEED = 150  # words per minute, espeak-ng's -s

# Chinese punctuation to the ASCII marks espeak-ng pauses at.
PAUSES = str.maketrans({"，": ",", "、": ",", "；": ";", "：": ":", "。": ".",
                        "？": "?", "！": "!"})


def pinyin(text):
    from pypinyin import Style, lazy_pinyin

    parts = lazy_pinyin(text.translate(PAUSES), style=Style.TONE3,
                        neutral_tone_with_five=True, errors=lambda s: [s])
    return " ".join(p.strip() for p in parts if p.strip())


def to_16k_wav(src, dst):
    import av
    import numpy as np

    chunks = []
    with av.open(src) as inp:
        resampler = av.AudioResampler(format="s16", layout="mono", rate=16000)
        for frame in inp.decode(audio=0):
            chunks += [f.to_ndarray().reshape(-1) for f in resampler.resample(frame)]
        chunks += [f.to_ndarray().reshape(-1) for f in resampler.resample(None)]
    pcm = np.concatenate(chunks).astype("<i2")
    with wave.open(dst, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16000)
        out.writeframes(pcm.tobytes())


def speak(text, dst, speed=SPEED):
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "raw.wav")
        subprocess.run(["espeak-ng", "-v", VOICE, "-s", str(speed), "-w", raw, pinyin(text)],
                       check=True)
        to_16k_wav(raw, dst)


def encode_opus(src, dst, container, bit_rate=32000):
    """A WAV as Opus in WebM or Ogg, 48 kHz mono, as MediaRecorder writes it."""
    import av

    with wave.open(src) as w:
        rate = w.getframerate()
        pcm = w.readframes(w.getnframes())
    import numpy as np

    samples = np.frombuffer(pcm, dtype="<i2").reshape(1, -1)
    with av.open(dst, "w", format=container) as out:
        stream = out.add_stream("libopus", rate=48000, layout="mono")
        stream.bit_rate = bit_rate
        frame = av.AudioFrame.from_ndarray(samples, format="s16", layout="mono")
        frame.sample_rate = rate
        resampler = av.AudioResampler(format="s16", layout="mono", rate=48000)
        for f in resampler.resample(frame) + resampler.resample(None):
            for packet in stream.encode(f):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)


def pad(path, lead, tail):
    """Silence before and after: a recorder that starts or stops late."""
    with wave.open(path) as w:
        params, pcm = w.getparams(), w.readframes(w.getnframes())
    with wave.open(path, "wb") as w:
        w.setparams(params)
        w.writeframes(b"\0\0" * int(lead * 16000) + pcm + b"\0\0" * int(tail * 16000))


if __name__ == "__main__":
    import argparse

    p = argparse.ArgumentParser(description="Mandarin text to a 16 kHz mono PCM WAV (espeak-ng)")
    p.add_argument("text")
    p.add_argument("out")
    p.add_argument("--speed", type=int, default=SPEED)
    p.add_argument("--lead", type=float, default=0.0, help="seconds of silence before")
    p.add_argument("--tail", type=float, default=0.0, help="seconds of silence after")
    a = p.parse_args()
    speak(a.text, a.out, a.speed)
    if a.lead or a.tail:
        pad(a.out, a.lead, a.tail)
